// Starts real etcd plus an in-process ApiServer on a free port, and a small HTTP client for tests.
import pino from 'pino';
import { ApiServer } from '../../lib/server/server';
import { parseCommandLine, type ServerOptions } from '../../lib/server/options/options';
import { startTestEtcd, type TestEtcd } from './etcd';

export interface TestServer {
  server: ApiServer;
  etcd: TestEtcd;
  api: ApiClient;
  url: string;
  stop(): Promise<void>;
}

/** Extra flags, e.g. `['--feature-gates=APIListChunking=false']`. */
export async function startTestServer(flags: string[] = []): Promise<TestServer> {
  const etcd = await startTestEtcd();
  const { server, api, url } = await startServerOnEtcd([etcd.clientUrl], flags);
  return {
    server,
    etcd,
    url,
    api,
    stop: async () => {
      await server.shutdown();
      await etcd.stop();
    },
  };
}

/** An in-process server on etcd members that already run (e.g. a test etcd cluster); its log goes to `log` when given. */
export async function startServerOnEtcd(
  etcdUrls: string[],
  flags: string[] = [],
  log?: import('pino').Logger,
): Promise<{ server: ApiServer; api: ApiClient; url: string }> {
  const parsed = parseCommandLine(['--port=0', `--etcd-servers=${etcdUrls.join(',')}`, ...flags]);
  if (parsed.help) throw new Error('unexpected --help');
  const options: ServerOptions = parsed.options;
  const server = await ApiServer.start(options, log ?? pino({ level: process.env['ORCH_TEST_LOG'] ?? 'silent' }));
  return { server, api: new ApiClient(server.url), url: server.url };
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body (undefined when the body is not JSON). */
  body: any;
}

export class ApiClient {
  /** `defaultHeaders` go with every request (e.g. an Authorization bearer token). */
  constructor(
    readonly baseUrl: string,
    readonly defaultHeaders: Record<string, string> = {},
  ) {}

  async request(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<ApiResponse> {
    const init: RequestInit = { method, headers: { ...this.defaultHeaders, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as string) : JSON.stringify(body);
      (init.headers as Record<string, string>)['Content-Type'] ??= 'application/json';
    }
    const res = await fetch(this.baseUrl + path, init);
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: res.status, headers: res.headers, text, body: parsed };
  }

  get(path: string, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('GET', path, undefined, headers);
  }
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('POST', path, body, headers);
  }
  put(path: string, body: unknown, headers?: Record<string, string>): Promise<ApiResponse> {
    return this.request('PUT', path, body, headers);
  }
  patch(path: string, body: unknown, contentType = 'application/merge-patch+json'): Promise<ApiResponse> {
    return this.request('PATCH', path, body, { 'Content-Type': contentType });
  }
  delete(path: string, body?: unknown): Promise<ApiResponse> {
    return this.request('DELETE', path, body);
  }
}

let counter = 0;
/** A namespace name unique within the test run. */
export function uniqueName(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

export async function createNamespace(api: ApiClient, name: string): Promise<void> {
  const res = await api.post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
  if (res.status !== 201) throw new Error(`creating namespace ${name}: ${res.status} ${res.text}`);
}

/** Polls `probe` until it returns true or the deadline passes (no fixed sleeps). */
export async function eventually(probe: () => Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A test server with `namespace` created, and an etcd3 client on its etcd for checking what is stored. */
export async function startServerWithEtcdClient(
  namespace: string,
): Promise<{ ts: TestServer; etcd: import('etcd3').Etcd3 }> {
  const ts = await startTestServer();
  const { Etcd3 } = await import('etcd3');
  const etcd = new Etcd3({ hosts: ts.etcd.clientUrl });
  await createNamespace(ts.api, namespace);
  return { ts, etcd };
}

export async function stopServerWithEtcdClient(
  ts: TestServer | undefined,
  etcd: import('etcd3').Etcd3 | undefined,
): Promise<void> {
  etcd?.close();
  await ts?.stop();
}

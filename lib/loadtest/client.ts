// HTTP(S) client of the public API: Node's http/https with a keep-alive agent; bearer token, client certificates, CA.
import * as http from 'node:http';
import * as https from 'node:https';
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

export interface Connection {
  server: string;
  token?: string;
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
  insecureSkipTlsVerify?: boolean;
}

export interface Reply {
  status: number;
  body: string;
  /** Transport error code (ECONNRESET, ETIMEDOUT…) when no response arrived; status is 0 then. */
  error?: string;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function dataOrFile(entry: Obj, dataKey: string, fileKey: string): Buffer | undefined {
  const data = entry[dataKey];
  if (typeof data === 'string' && data !== '') return Buffer.from(data, 'base64');
  const file = entry[fileKey];
  if (typeof file === 'string' && file !== '') return readFileSync(file);
  return undefined;
}

function named(list: unknown, name: unknown, what: string, source: string): Obj {
  const found = Array.isArray(list) ? list.find((e) => isObj(e) && e['name'] === name) : undefined;
  if (!isObj(found)) throw new Error(`kubeconfig ${source}: ${what} ${JSON.stringify(name)} not found`);
  return found;
}

/** The current context of a kubeconfig file: server, CA, bearer token or client certificate. */
export function connectionFromKubeconfig(path: string, context?: string): Connection {
  const doc: unknown = parseYaml(readFileSync(path, 'utf8'));
  if (!isObj(doc)) throw new Error(`kubeconfig ${path}: not a map`);
  const ctxName = context ?? doc['current-context'];
  const ctx = named(doc['contexts'], ctxName, 'context', path)['context'];
  if (!isObj(ctx)) throw new Error(`kubeconfig ${path}: context ${JSON.stringify(ctxName)} is empty`);
  const cluster = named(doc['clusters'], ctx['cluster'], 'cluster', path)['cluster'];
  if (!isObj(cluster) || typeof cluster['server'] !== 'string')
    throw new Error(`kubeconfig ${path}: cluster ${JSON.stringify(ctx['cluster'])} has no server`);
  const conn: Connection = {
    server: cluster['server'],
    insecureSkipTlsVerify: cluster['insecure-skip-tls-verify'] === true,
  };
  const ca = dataOrFile(cluster, 'certificate-authority-data', 'certificate-authority');
  if (ca) conn.ca = ca;
  if (ctx['user'] !== undefined) {
    const user = named(doc['users'], ctx['user'], 'user', path)['user'];
    if (isObj(user)) {
      if (typeof user['token'] === 'string') conn.token = user['token'];
      else if (typeof user['tokenFile'] === 'string') conn.token = readFileSync(user['tokenFile'], 'utf8').trim();
      const cert = dataOrFile(user, 'client-certificate-data', 'client-certificate');
      const key = dataOrFile(user, 'client-key-data', 'client-key');
      if (cert) conn.cert = cert;
      if (key) conn.key = key;
    }
  }
  return conn;
}

export interface RequestOptions {
  body?: string;
  contentType?: string;
  /** Per-request timeout in ms (0: none, for watches). */
  timeoutMs?: number;
}

export class ApiClient {
  readonly base: URL;
  private readonly agent: http.Agent;
  /** Watches hold their connection for the whole run, so they get their own agent without a socket cap. */
  private readonly watchAgent: http.Agent;
  private readonly mod: typeof http | typeof https;
  private readonly headers: Record<string, string>;

  constructor(
    readonly conn: Connection,
    maxSockets = 256,
  ) {
    this.base = new URL(conn.server);
    if (this.base.protocol !== 'http:' && this.base.protocol !== 'https:')
      throw new Error(`--server must be an http:// or https:// URL, got ${conn.server}`);
    const tls = this.base.protocol === 'https:';
    this.mod = tls ? https : http;
    this.agent = tls
      ? new https.Agent({
          keepAlive: true,
          maxSockets,
          ...(conn.ca ? { ca: conn.ca } : {}),
          ...(conn.cert ? { cert: conn.cert } : {}),
          ...(conn.key ? { key: conn.key } : {}),
          rejectUnauthorized: !conn.insecureSkipTlsVerify,
        })
      : new http.Agent({ keepAlive: true, maxSockets });
    this.watchAgent = tls
      ? new https.Agent({
          keepAlive: false,
          ...(conn.ca ? { ca: conn.ca } : {}),
          ...(conn.cert ? { cert: conn.cert } : {}),
          ...(conn.key ? { key: conn.key } : {}),
          rejectUnauthorized: !conn.insecureSkipTlsVerify,
        })
      : new http.Agent({ keepAlive: false });
    this.headers = {
      Accept: 'application/json',
      'User-Agent': 'orch-loadtest/0.1',
      ...(conn.token ? { Authorization: `Bearer ${conn.token}` } : {}),
    };
  }

  private url(path: string): URL {
    const u = new URL(this.base.toString());
    const basePath = u.pathname.replace(/\/$/, '');
    const [p, q] = path.split('?');
    u.pathname = basePath + (p ?? '');
    u.search = q ? `?${q}` : '';
    return u;
  }

  request(method: string, path: string, opts: RequestOptions = {}): Promise<Reply> {
    return new Promise((resolve) => {
      const headers: Record<string, string> = { ...this.headers };
      if (opts.body !== undefined) {
        headers['Content-Type'] = opts.contentType ?? 'application/json';
        headers['Content-Length'] = String(Buffer.byteLength(opts.body));
      }
      const req = this.mod.request(this.url(path), { method, agent: this.agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', (err: NodeJS.ErrnoException) =>
          resolve({ status: 0, body: '', error: err.code ?? 'ERESPONSE' }),
        );
      });
      req.on('error', (err: NodeJS.ErrnoException) =>
        resolve({ status: 0, body: '', error: err.code ?? err.message.slice(0, 40) }),
      );
      if (opts.timeoutMs)
        req.setTimeout(opts.timeoutMs, () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })));
      req.end(opts.body);
    });
  }

  /**
   * Opens a watch and calls onEvent for each event (the API writes one JSON object per line).
   * Resolves when the stream ends; the returned abort() closes it.
   */
  watch(path: string, onEvent: (event: Obj, receivedAt: number) => void): { done: Promise<Reply>; abort: () => void } {
    let request: http.ClientRequest | undefined;
    let aborted = false;
    const done = new Promise<Reply>((resolve) => {
      request = this.mod.request(
        this.url(path),
        { method: 'GET', agent: this.watchAgent, headers: this.headers },
        (res) => {
          if (res.statusCode !== 200) {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
            res.on('error', () => resolve({ status: res.statusCode ?? 0, body: '' }));
            return;
          }
          let partial = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            const receivedAt = performance.now();
            const lines = (partial + chunk).split('\n');
            partial = lines.pop() ?? '';
            for (const line of lines) {
              if (line.trim() === '') continue;
              try {
                const ev: unknown = JSON.parse(line);
                if (isObj(ev)) onEvent(ev, receivedAt);
              } catch {
                // A malformed line is not an event; the counts will show it as missed.
              }
            }
          });
          res.on('end', () => resolve({ status: 200, body: '' }));
          res.on('error', () => resolve({ status: 200, body: '', ...(aborted ? {} : { error: 'ERESPONSE' }) }));
          res.on('close', () => resolve({ status: 200, body: '' }));
        },
      );
      request.on('error', (err: NodeJS.ErrnoException) =>
        resolve({ status: 0, body: '', ...(aborted ? {} : { error: err.code ?? 'EWATCH' }) }),
      );
      request.end();
    });
    return {
      done,
      abort: () => {
        aborted = true;
        request?.destroy();
      },
    };
  }

  close(): void {
    this.agent.destroy();
    this.watchAgent.destroy();
  }
}

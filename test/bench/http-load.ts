// Closed-loop HTTP load generator on node:http keep-alive agents (maxSockets = concurrency).
import { Agent, request } from 'node:http';
import { closedLoop, processCpuMs, type PhaseResult } from './stats';

export interface HttpResponse {
  status: number;
  body: string;
}

/** One request on `agent`; resolves with the status and the whole body (transport errors reject). */
export function httpRequest(
  agent: Agent,
  baseUrl: string,
  method: string,
  path: string,
  body?: string,
  contentType = 'application/json',
  extraHeaders: Record<string, string> = {},
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = {
      Accept: 'application/json',
      'User-Agent': 'orch-bench',
      ...extraHeaders,
    };
    if (body !== undefined) {
      headers['Content-Type'] = contentType;
      headers['Content-Length'] = Buffer.byteLength(body);
    }
    const req = request(baseUrl + path, { method, agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

export interface LoadRequest {
  method: string;
  path: string;
  body?: string;
  tag?: string;
  /** Extra request headers (an Authorization bearer token). */
  headers?: Record<string, string>;
}

export interface LoadSpec {
  workload: string;
  concurrency: number;
  seconds: number;
  /** Builds the request for one iteration: method, path, optional JSON body, optional tag for onSuccess. */
  next(worker: number): LoadRequest;
  /** Requests per second across all workers (each waits for its slot); unset: as fast as the server answers. */
  ratePerSecond?: number;
  /** Called for each 2xx response (e.g. to remember created names). */
  onSuccess?(req: LoadRequest, res: HttpResponse): void;
}

/** Runs one fixed-duration closed-loop phase; non-2xx responses and transport errors are counted as errors. */
export async function runLoad(
  baseUrl: string,
  spec: LoadSpec,
  serverPid?: number,
  etcdPid?: number,
): Promise<PhaseResult> {
  const cpuBefore = serverPid === undefined ? undefined : processCpuMs(serverPid);
  const etcdBefore = etcdPid === undefined ? undefined : processCpuMs(etcdPid);
  const agent = new Agent({ keepAlive: true, maxSockets: spec.concurrency, maxFreeSockets: spec.concurrency });
  try {
    const { recorder, elapsedSeconds } = await closedLoop(
      spec.concurrency,
      spec.seconds,
      async (worker) => {
        const req = spec.next(worker);
        const res = await httpRequest(agent, baseUrl, req.method, req.path, req.body, 'application/json', req.headers);
        if (res.status < 200 || res.status > 299) return String(res.status);
        spec.onSuccess?.(req, res);
        return undefined;
      },
      spec.ratePerSecond === undefined ? undefined : fixedRate(spec.ratePerSecond),
    );
    const result = recorder.summarize(spec.workload, spec.concurrency, elapsedSeconds);
    const cpuAfter = serverPid === undefined ? undefined : processCpuMs(serverPid);
    if (cpuBefore !== undefined && cpuAfter !== undefined) result.serverCpuMs = cpuAfter - cpuBefore;
    const etcdAfter = etcdPid === undefined ? undefined : processCpuMs(etcdPid);
    if (etcdBefore !== undefined && etcdAfter !== undefined) result.etcdCpuMs = etcdAfter - etcdBefore;
    return result;
  } finally {
    agent.destroy();
  }
}

/** A pace for `closedLoop`: the n-th call resolves at start + n / rate. */
function fixedRate(ratePerSecond: number): () => Promise<void> {
  const start = performance.now();
  let slot = 0;
  return () => {
    const wait = start + (slot++ * 1000) / ratePerSecond - performance.now();
    return wait > 0 ? new Promise((resolve) => setTimeout(resolve, wait)) : Promise.resolve();
  };
}

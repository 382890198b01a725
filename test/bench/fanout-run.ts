// The watch fan-out measure (issue 20): watchers in separate processes (fanout-watchers.ts) watching a few
// objects that the bench patches at a fixed rate; per MODIFIED event, the time from the PATCH's acknowledgment
// (in this process) to its receipt (in a watchers' process). Used by lists-watch.ts and watch-sync.ts.
import { fork, type ChildProcess } from 'node:child_process';
import type { Agent } from 'node:http';
import { join } from 'node:path';
import { httpRequest } from './http-load';
import type { ServerProcess } from './server-process';
import { processCpuMs } from './stats';
import type { ChildMessage, ParentMessage } from './fanout-watchers';
import { decomposition, startProbe, type FanOutProbe } from './fanout-probe';

export interface FanOutOptions {
  watchers: number;
  /** Processes the watchers are spread over (each scans its share of the streams). */
  processes: number;
  writesPerSecond: number;
  seconds: number;
  /** `deployments` (small Deployments in `namespace`) or `namespaces`. */
  kind: string;
  namespace: string;
  /**
   * Seconds of unmeasured writes at the same rate before the measured ones (steady state: APF's borrowing, which
   * adjusts every 10 s, has seen the writers' demand). Their events are awaited but not counted.
   */
  warmupSeconds?: number;
  /** With BENCH_FANOUT_DECOMPOSE=1: the etcd the server uses, watched by the decomposition's probe (fanout-probe.ts). */
  etcdUrl?: string;
}

export interface FanOutResult {
  total: number;
  writeSeconds: number;
  late: number;
  delivered: number;
  complete: number;
  p50: number;
  p99: number;
  max: number;
  /** CPU % of one core while writing. */
  serverCpu: number;
  watchersCpu: number;
  writersCpu: number;
  /** Where the latency goes, stage by stage (BENCH_FANOUT_DECOMPOSE=1). */
  decomposition?: string[];
}

/** One watchers' process (fanout-watchers.ts) and a promise for its next message of a type. */
function forkWatchers(): {
  child: ChildProcess;
  next: <T extends ChildMessage['type']>(type: T) => Promise<Extract<ChildMessage, { type: T }>>;
} {
  // BENCH_WATCHER_NODE_ARGS: node flags for the watchers' processes, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof".
  const execArgv = (process.env['BENCH_WATCHER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
  const child = fork(join(__dirname, 'fanout-watchers.js'), [], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv,
  });
  const next = <T extends ChildMessage['type']>(type: T): Promise<Extract<ChildMessage, { type: T }>> =>
    new Promise((resolve, reject) => {
      const onMessage = (message: ChildMessage): void => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as Extract<ChildMessage, { type: T }>);
      };
      const onExit = (code: number | null): void =>
        reject(new Error(`fan-out watchers exited (${code}) before '${type}'`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return { child, next };
}

function smallDeployment(name: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    },
  });
}

const wallNow = (): number => performance.timeOrigin + performance.now();

/** The latency at quantile `p` of a histogram in 1 ms buckets (the last bucket holds everything above). */
function quantile(histogram: number[], count: number, p: number): number {
  const rank = Math.min(count - 1, Math.floor(count * p));
  let seen = 0;
  for (let ms = 0; ms < histogram.length; ms++) {
    seen += histogram[ms] ?? 0;
    if (seen > rank) return ms;
  }
  return NaN;
}

/** Creates the watched objects (`targets` of them; the namespace must exist); returns the last resourceVersion. */
async function createTargets(
  server: ServerProcess,
  agent: Agent,
  base: string,
  options: FanOutOptions,
): Promise<string> {
  let from = '';
  for (let i = 0; i < 20; i++) {
    const body =
      options.kind === 'namespaces' ? JSON.stringify({ metadata: { name: `w-${i}` } }) : smallDeployment(`w-${i}`);
    const res = await httpRequest(agent, server.url, 'POST', base, body);
    if (res.status !== 201 && res.status !== 409) throw new Error(`create failed: ${res.status} ${res.body}`);
    from = res.status === 201 ? JSON.parse(res.body).metadata.resourceVersion : from;
  }
  if (from !== '') return from;
  return JSON.parse((await httpRequest(agent, server.url, 'GET', base)).body).metadata.resourceVersion;
}

/**
 * PATCHes `count` writes at `rate` per second by 64 writers (write i patches object `w-${i % 20}`), numbered from
 * `first`; acknowledgment times by resourceVersion go into `acked`. Returns how many writes started > 50 ms late.
 */
async function writeAtRate(
  server: ServerProcess,
  agent: Agent,
  objectPath: string,
  rate: number,
  count: number,
  first: number,
  acked: Map<number, number> | undefined,
): Promise<{ late: number }> {
  const startedAt = performance.now();
  let written = 0;
  let late = 0;
  const writers = Array.from({ length: 64 }, async () => {
    for (;;) {
      const i = written++;
      if (i >= count) return;
      const due = startedAt + (i * 1000) / rate;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      else if (wait < -50) late++;
      const patch = JSON.stringify({ metadata: { annotations: { n: String(first + i) } } });
      const res = await httpRequest(
        agent,
        server.url,
        'PATCH',
        `${objectPath}${i % 20}`,
        patch,
        'application/merge-patch+json',
      );
      const at = wallNow();
      const rv = Number(JSON.parse(res.body).metadata.resourceVersion);
      if (acked !== undefined && !acked.has(rv)) acked.set(rv, at);
    }
  });
  await Promise.all(writers);
  return { late };
}

/** Runs the fan-out once against `server`: watchers opened, writes at the fixed rate, then every event awaited (30 s). */
export async function runFanOut(server: ServerProcess, agent: Agent, options: FanOutOptions): Promise<FanOutResult> {
  const port = Number(new URL(server.url).port);
  // Watched objects: small Deployments (~1.6 KiB per event with managedFields) or Namespaces (~0.5 KiB).
  const base =
    options.kind === 'namespaces' ? '/api/v1/namespaces' : `/apis/apps/v1/namespaces/${options.namespace}/deployments`;
  const from = await createTargets(server, agent, base, options);
  const acked = new Map<number, number>();
  let probe: FanOutProbe | undefined;
  const children = Array.from({ length: Math.max(1, options.processes) }, forkWatchers);
  const sendAll = (message: ParentMessage): void => children.forEach((c) => void c.child.send(message));
  const cpuOfWatchers = async (): Promise<number> => {
    sendAll({ type: 'cpu' });
    return (await Promise.all(children.map((c) => c.next('cpu')))).reduce((sum, m) => sum + m.ms, 0);
  };
  try {
    children.forEach((c, i) => {
      const share = Math.floor(options.watchers / children.length) + (i < options.watchers % children.length ? 1 : 0);
      c.child.send({ type: 'open', port, path: `${base}?watch=1&resourceVersion=${from}`, watchers: share });
    });
    await Promise.all(children.map((c) => c.next('opened')));
    const etcdPrefix =
      options.kind === 'namespaces' ? '/registry/namespaces/' : `/registry/apps/deployments/${options.namespace}/`;
    probe =
      process.env['BENCH_FANOUT_DECOMPOSE'] === '1' && options.etcdUrl !== undefined
        ? await startProbe(options.etcdUrl, etcdPrefix, port, `${base}?watch=1&resourceVersion=${from}`)
        : undefined;
    await new Promise((r) => setTimeout(r, 1000));
    // Unmeasured writes first: APF lends seats to the writers' level only after its demand was seen for a period.
    const warmTotal = Math.round(options.writesPerSecond * (options.warmupSeconds ?? 0));
    await writeAtRate(server, agent, `${base}/w-`, options.writesPerSecond, warmTotal, 0, undefined);
    const cpuBefore = processCpuMs(server.pid);
    const clientBefore = process.cpuUsage();
    const watchersCpuBefore = await cpuOfWatchers();
    const total = options.writesPerSecond * options.seconds;
    const startedAt = performance.now();
    const { late } = await writeAtRate(server, agent, `${base}/w-`, options.writesPerSecond, total, warmTotal, acked);
    const writeSeconds = (performance.now() - startedAt) / 1000;
    const cpuMs = (processCpuMs(server.pid) ?? NaN) - (cpuBefore ?? NaN);
    const clientUsage = process.cpuUsage(clientBefore);
    const watchersMs = (await cpuOfWatchers()) - watchersCpuBefore;
    sendAll({ type: 'finish', total: warmTotal + total, acked: [...acked], waitMs: 30_000 });
    const results = await Promise.all(children.map((c) => c.next('result')));
    const histogram: number[] = [];
    for (const r of results) r.histogram.forEach((n, ms) => (histogram[ms] = (histogram[ms] ?? 0) + n));
    const delivered = results.reduce((sum, r) => sum + r.delivered, 0);
    const percent = (ms: number): number => ms / writeSeconds / 10;
    const firstAt = new Map<number, number>();
    const lastAt = new Map<number, number>();
    for (const r of results)
      for (const [rv, first, last] of r.spread) {
        firstAt.set(rv, Math.min(first, firstAt.get(rv) ?? Infinity));
        lastAt.set(rv, Math.max(last, lastAt.get(rv) ?? -Infinity));
      }
    return {
      total,
      writeSeconds,
      late,
      delivered,
      complete: results.reduce((sum, r) => sum + r.complete, 0),
      p50: quantile(histogram, delivered, 0.5),
      p99: quantile(histogram, delivered, 0.99),
      max: Math.max(...results.map((r) => r.max)),
      serverCpu: percent(cpuMs),
      watchersCpu: percent(watchersMs),
      writersCpu: percent((clientUsage.user + clientUsage.system) / 1000),
      ...(probe ? { decomposition: decomposition(acked, probe, firstAt, lastAt) } : {}),
    };
  } finally {
    await probe?.stop();
    // A watchers' process exits by itself after its result (writing its profile, if any); one that does not is killed.
    await Promise.all(
      children.map(
        ({ child }) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const timer = setTimeout(() => child.kill(), 5000);
            child.once('exit', () => {
              clearTimeout(timer);
              resolve();
            });
          }),
      ),
    );
  }
}

/** What was delivered how fast, and the CPU it took. */
export function fanOutSummary(r: FanOutResult, options: FanOutOptions): string {
  const f = (n: number): string => n.toFixed(1);
  return `${r.delivered} events delivered (${(r.delivered / r.writeSeconds).toFixed(0)}/s); watchers with every event: ${r.complete}/${options.watchers}; delivery latency after the write's acknowledgment p50 ${f(r.p50)} ms, p99 ${f(r.p99)} ms, max ${f(r.max)} ms; writes achieved ${(r.total / r.writeSeconds).toFixed(0)}/s (${r.late} >50 ms late); CPU % of a core while writing: server ${r.serverCpu.toFixed(0)}%, watchers' processes ${r.watchersCpu.toFixed(0)}%, writers ${r.writersCpu.toFixed(0)}%`;
}

/** The result as a table row of `| measure | result |` (lists-watch.ts's layout). */
export function fanOutRow(r: FanOutResult, options: FanOutOptions): string {
  const processes = options.processes === 1 ? 'one process' : `${options.processes} processes`;
  return `| watch fan-out (${options.kind}): ${options.watchers} watchers (${processes}), ${r.total} writes at ${options.writesPerSecond}/s | ${fanOutSummary(r, options)} |`;
}

/** Whether the target holds: every watcher got every event, p99 under 250 ms. */
export function fanOutMet(r: FanOutResult, options: FanOutOptions): boolean {
  return r.complete === options.watchers && r.p99 < 250;
}

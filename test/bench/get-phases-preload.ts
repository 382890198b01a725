// Loaded into a server process with `node --require dist/test/bench/get-phases-preload.js <build>/dist/cmd/apiserver.js`
// (get-phases.ts does this): splits each consistent GET's time in the server into its parts, without changing the
// server's code, by wrapping Cacher.caughtUpWithEtcd and EtcdStorage.currentRevision of the build being run. On
// SIGUSR2 number n it writes what it measured since the previous one as JSON to `${GET_PHASES_OUT}.n` and starts again.
//
// Per GET: arrival (http.server.request.start) → the consistent read asks for etcd's revision (caughtUpWithEtcd) →
// the etcd revision read that serves it starts (the first started at or after the ask) → that read's answer →
// the cache has caught up (caughtUpWithEtcd resolves) → the response is finished (http.server.response.finish).
import { AsyncLocalStorage } from 'node:async_hooks';
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { dirname, join } from 'node:path';
import { monitorEventLoopDelay, PerformanceObserver, performance } from 'node:perf_hooks';

interface GetRecord {
  arrive: number;
  ask: number;
  /** Index of the first revision read started at or after the ask. */
  readIndex: number;
  caughtUp: number;
  fromCache: boolean;
}

const out = process.env['GET_PHASES_OUT'];
const root = dirname(dirname(process.argv[1] ?? ''));
const current = new AsyncLocalStorage<GetRecord>();
const byRequest = new WeakMap<IncomingMessage, GetRecord>();
const reads: { start: number; end: number; value: number }[] = [];
const answeredAt = new Map<string, number>();
/** Reads before this index were started before the last SIGUSR2 (kept: GETs in flight then still point at them). */
let readsFrom = 0;
let finished: (GetRecord & { finish: number })[] = [];
let gcs: { start: number; end: number; kind: number }[] = [];
const counts = { started: 0, finished: 0 };
const loopDelay = monitorEventLoopDelay({ resolution: 1 });
loopDelay.enable();

subscribe('http.server.request.start', (message) => {
  const { request } = message as { request: IncomingMessage };
  if (request.method !== 'GET' || !request.url?.includes('/deployments/') || request.url.includes('?')) return;
  const record: GetRecord = { arrive: performance.now(), ask: 0, readIndex: -1, caughtUp: 0, fromCache: false };
  byRequest.set(request, record);
  counts.started++;
  current.enterWith(record);
});
subscribe('http.server.response.finish', (message) => {
  const { request } = message as { request: IncomingMessage };
  const record = byRequest.get(request);
  if (record) counts.finished++;
  if (record && record.ask > 0) finished.push({ ...record, finish: performance.now() });
});
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0;
    gcs.push({ start: e.startTime, end: e.startTime + e.duration, kind });
  }
}).observe({ entryTypes: ['gc'] });

// eslint-disable-next-line @typescript-eslint/no-require-imports
const cacherModule = require(join(root, 'lib/storage/cacher/cacher.js')) as {
  Cacher: { prototype: { caughtUpWithEtcd(): Promise<boolean> } };
};
// eslint-disable-next-line @typescript-eslint/no-require-imports
const storeModule = require(join(root, 'lib/storage/etcd/store.js')) as {
  EtcdStorage: { prototype: { currentRevision(): Promise<number> } };
};
const caughtUp = cacherModule.Cacher.prototype.caughtUpWithEtcd;
cacherModule.Cacher.prototype.caughtUpWithEtcd = async function (this: unknown): Promise<boolean> {
  const record = current.getStore();
  if (record === undefined || record.ask > 0) return caughtUp.call(this);
  record.ask = performance.now();
  record.readIndex = reads.length;
  const result = await caughtUp.call(this);
  record.caughtUp = performance.now();
  {
    const key = `${result} cache ${(this as { revision: number }).revision} etcd ${reads[record.readIndex]?.value}`;
    answeredAt.set(key, (answeredAt.get(key) ?? 0) + 1);
  }
  record.fromCache = result;
  return result;
};
const revision = storeModule.EtcdStorage.prototype.currentRevision;
storeModule.EtcdStorage.prototype.currentRevision = async function (this: unknown): Promise<number> {
  const read = { start: performance.now(), end: 0, value: 0 };
  reads.push(read);
  const value = await revision.call(this);
  read.end = performance.now();
  read.value = value;
  return value;
};

function quantiles(values: number[]): { p50: number; p90: number; p99: number; max: number; mean: number } {
  const sorted = Float64Array.from(values).sort();
  const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
  const mean = values.reduce((a, b) => a + b, 0) / Math.max(1, values.length);
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99), max: sorted[sorted.length - 1] ?? Number.NaN, mean };
}

/** Each GET's parts in ms; the slowest 1 % by total, their mean parts; how many overlapped a GC pause. */
function summary(): unknown {
  const rows = finished
    .filter((r) => r.fromCache && reads[r.readIndex]?.end)
    .map((r) => {
      const read = reads[r.readIndex] as { start: number; end: number };
      const overlapsGc = gcs.some((g) => g.start < r.finish && g.end > r.arrive);
      return {
        total: r.finish - r.arrive,
        beforeAsk: r.ask - r.arrive,
        waitReadStart: read.start - r.ask,
        etcdRead: read.end - read.start,
        cacheCatchUp: r.caughtUp - read.end,
        serve: r.finish - r.caughtUp,
        overlapsGc,
      };
    });
  const parts = ['total', 'beforeAsk', 'waitReadStart', 'etcdRead', 'cacheCatchUp', 'serve'] as const;
  const all = Object.fromEntries(parts.map((p) => [p, quantiles(rows.map((r) => r[p]))]));
  const slow = [...rows].sort((a, b) => b.total - a.total).slice(0, Math.max(1, Math.floor(rows.length / 100)));
  const slowMeans = Object.fromEntries(parts.map((p) => [p, quantiles(slow.map((r) => r[p])).mean]));
  const callersPerRead = new Map<number, number>();
  for (const r of finished) callersPerRead.set(r.readIndex, (callersPerRead.get(r.readIndex) ?? 0) + 1);
  const measured = reads.slice(readsFrom);
  const readRtts = measured.filter((r) => r.end > 0).map((r) => r.end - r.start);
  return {
    gets: rows.length,
    counts: { ...counts },
    answeredAt: Object.fromEntries([...answeredAt].slice(0, 20)),
    fellBackToEtcd: finished.filter((r) => !r.fromCache).length,
    all,
    slowest1pct: {
      count: slow.length,
      means: slowMeans,
      overlapGcShare: slow.filter((r) => r.overlapsGc).length / slow.length,
    },
    overlapGcShareAll: rows.filter((r) => r.overlapsGc).length / Math.max(1, rows.length),
    reads: { count: measured.length, rtt: quantiles(readRtts), getsPerRead: quantiles([...callersPerRead.values()]) },
    gc: { count: gcs.length, pauseMs: quantiles(gcs.map((g) => g.end - g.start)) },
    loopDelayMs: {
      p50: loopDelay.percentile(50) / 1e6,
      p99: loopDelay.percentile(99) / 1e6,
      max: loopDelay.max / 1e6,
      mean: loopDelay.mean / 1e6,
    },
  };
}

// What was measured since the last SIGUSR2 when the server exits (for runs that never signal it, e.g. `make bench`).
process.on('exit', () => {
  if (out) writeFileSync(`${out}.exit`, JSON.stringify(summary()));
});
let dumps = 0;
process.on('SIGUSR2', () => {
  dumps++;
  if (out) writeFileSync(`${out}.${dumps}`, JSON.stringify(summary()));
  readsFrom = reads.length;
  counts.started = counts.finished = 0;
  answeredAt.clear();
  finished = [];
  gcs = [];
  loopDelay.reset();
});

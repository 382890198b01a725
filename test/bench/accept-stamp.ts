// Loaded into a bench server with `--require` (accept-cost.ts does it, with BENCH_ACCEPT_COST_FILE=<file>): stamps
// every accepted connection (the HTTP server's 'connection' event) and every request and finished response, and once
// the server has been idle for 400 ms writes one JSON line per burst to that file: how many connections, how they were
// accepted (runs of accepts with no request handled in between: libuv accepts every pending connection of the
// listening socket in one loop), the time between consecutive accepts within a run (the whole per-connection accept
// cost: accept4, the handle, net.Socket, the HTTP connection listener and any other 'connection' listener), the part
// of it spent in the 'connection' listeners, the process's CPU from the first accept to the last response finished,
// and the garbage collection in that window.
import { appendFileSync } from 'node:fs';
import { Server, type ServerResponse } from 'node:http';
import { PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';

const FILE = process.env['BENCH_ACCEPT_COST_FILE'];
const IDLE_MS = 400;

export interface BurstLine {
  script: string;
  connections: number;
  requests: number;
  /** Epoch ms of the first and the last accept. */
  firstAccept: number;
  lastAccept: number;
  /** Runs of consecutive accepts (no request event between them) and the longest one's wall ms. */
  runs: number;
  longestRunMs: number;
  longestRunConnections: number;
  /** Sum of the gaps between consecutive accepts within runs, and how many gaps. */
  inRunGapMs: number;
  inRunGaps: number;
  /** Median gap within runs (µs). */
  medianGapUs: number;
  /** Wall ms inside the 'connection' listeners (all connections). */
  listenerMs: number;
  /** Process CPU ms from the first accept to the last response finished. */
  cpuMs: number;
  /** Wall ms from the first accept to the last response finished. */
  wallMs: number;
  gcMs: number;
  gcCount: number;
  /** GC ms by V8's kind (1 scavenge, 2 mark-compact, 4 incremental marking, 8 weak callbacks). */
  gcByKind: Record<string, number>;
  /** 429s answered within the 'request' event: how many, and the median and mean µs of that handling. */
  rejected: number;
  rejectedMedianUs: number;
  rejectedMeanUs: number;
}

interface Burst {
  connections: number;
  requests: number;
  firstAccept: number;
  lastAccept: number;
  lastFinish: number;
  cpu0: NodeJS.CpuUsage;
  cpuAtLastFinish: NodeJS.CpuUsage;
  runStart: number;
  runConnections: number;
  runs: number;
  longestRunMs: number;
  longestRunConnections: number;
  gaps: number[];
  listenerMs: number;
  gcMs: number;
  gcCount: number;
  rejected: number[];
  gcByKind: Record<string, number>;
}

if (FILE) {
  let burst: Burst | undefined;
  /** The last accept's stamp while no request event came after it (undefined: a run ended). */
  let lastInRun: number | undefined;
  let idle: NodeJS.Timeout | undefined;

  const endRun = (b: Burst): void => {
    if (lastInRun !== undefined && lastInRun - b.runStart > b.longestRunMs) {
      b.longestRunMs = lastInRun - b.runStart;
      b.longestRunConnections = b.runConnections;
    }
    lastInRun = undefined;
  };
  const flush = (): void => {
    const b = burst;
    burst = undefined;
    if (!b) return;
    endRun(b);
    const usedCpu = (b.cpuAtLastFinish.user - b.cpu0.user + b.cpuAtLastFinish.system - b.cpu0.system) / 1000;
    const gaps = [...b.gaps].sort((x, y) => x - y);
    const rejected = [...b.rejected].sort((x, y) => x - y);
    const line: BurstLine = {
      script: process.argv[1] ?? '',
      connections: b.connections,
      requests: b.requests,
      firstAccept: performance.timeOrigin + b.firstAccept,
      lastAccept: performance.timeOrigin + b.lastAccept,
      runs: b.runs,
      longestRunMs: b.longestRunMs,
      longestRunConnections: b.longestRunConnections,
      inRunGapMs: gaps.reduce((x, y) => x + y, 0),
      inRunGaps: gaps.length,
      medianGapUs: (gaps[Math.floor(gaps.length / 2)] ?? Number.NaN) * 1000,
      listenerMs: b.listenerMs,
      cpuMs: usedCpu,
      wallMs: b.lastFinish - b.firstAccept,
      gcMs: b.gcMs,
      gcCount: b.gcCount,
      gcByKind: b.gcByKind,
      rejected: rejected.length,
      rejectedMedianUs: (rejected[Math.floor(rejected.length / 2)] ?? Number.NaN) * 1000,
      rejectedMeanUs: (rejected.reduce((x, y) => x + y, 0) / rejected.length) * 1000,
    };
    appendFileSync(FILE, `${JSON.stringify(line)}\n`);
  };
  const touch = (): void => {
    if (idle) idle.refresh();
    else idle = setTimeout(flush, IDLE_MS).unref();
  };

  new PerformanceObserver((list) => {
    if (!burst) return;
    for (const entry of list.getEntries()) {
      burst.gcMs += entry.duration;
      burst.gcCount++;
      // detail.kind: 1 scavenge, 2 mark-compact, 4 incremental marking, 8 weak callbacks.
      const kind = String((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? '?');
      burst.gcByKind[kind] = (burst.gcByKind[kind] ?? 0) + entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });

  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'connection') {
      const now = performance.now();
      if (!burst) {
        idle = undefined;
        const cpu0 = process.cpuUsage();
        burst = {
          connections: 0,
          requests: 0,
          firstAccept: now,
          lastAccept: now,
          lastFinish: now,
          cpu0,
          cpuAtLastFinish: cpu0,
          runStart: now,
          runConnections: 0,
          runs: 0,
          longestRunMs: 0,
          longestRunConnections: 0,
          gaps: [],
          listenerMs: 0,
          gcMs: 0,
          gcCount: 0,
          rejected: [],
          gcByKind: {},
        };
      }
      const b = burst;
      b.connections++;
      b.lastAccept = now;
      if (lastInRun === undefined) {
        b.runs++;
        b.runStart = now;
        b.runConnections = 1;
      } else {
        b.gaps.push(now - lastInRun);
        b.runConnections++;
      }
      const handled = Reflect.apply(emit, this, [event, ...args]) as boolean;
      const after = performance.now();
      b.listenerMs += after - now;
      // The next accept's gap starts here minus the listeners' time, so the gap is accept to accept.
      lastInRun = now;
      touch();
      return handled;
    }
    if (event === 'request' && burst) {
      const b = burst;
      endRun(b);
      b.requests++;
      (args[1] as ServerResponse).once('finish', () => {
        const at = performance.now();
        // process.cpuUsage is a system call: read it at most once a millisecond (the figure is off by ≤ 1 ms of CPU).
        if (at - b.lastFinish >= 1 || b.requests === b.connections) b.cpuAtLastFinish = process.cpuUsage();
        b.lastFinish = at;
        touch();
      });
      touch();
      const res = args[1] as ServerResponse;
      const t0 = performance.now();
      const handled = Reflect.apply(emit, this, [event, ...args]) as boolean;
      // A 429 is written within the 'request' listener (no await before the filter answers): its whole handling.
      if (res.statusCode === 429 && res.writableEnded) b.rejected.push(performance.now() - t0);
      return handled;
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  };
}

// `make bench-watchers`: what watchers cost the server (issue 20). Three phases on one server and a fresh etcd:
// idle watchers at rest (RSS per watcher), stalled watchers under 200 writes/s beside normal ones (RSS growth per
// stalled watcher, closes, the normal watchers' delivery), and concurrent watch-list syncs of 10,000 Deployments
// (peak RSS growth against one LIST response). Prints a table and prepends a section to docs/benchmarks.md.
import { fork } from 'node:child_process';
import { Agent } from 'node:http';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { httpRequest } from './http-load';
import type { ServerProcess } from './server-process';
import { runBench, withBenchServer } from './bench-server';
import { machineDescription, prependSection } from './report';
import { MiB, peakRssBytes, resetPeakRss, rssBytes } from './process-memory';
import { pausedWatch, rawWatch, watchUntil } from './raw-watch';
import type { ChildMessage, ParentMessage } from './fanout-watchers';

const IDLE_WATCHERS = Number(process.env['BENCH_IDLE_WATCHERS'] ?? 10_000);
const SLOW_WATCHERS = Number(process.env['BENCH_SLOW_WATCHERS'] ?? 1000);
const NORMAL_WATCHERS = Number(process.env['BENCH_NORMAL_WATCHERS'] ?? 100);
const WRITES_PER_SECOND = Number(process.env['BENCH_WRITE_RATE'] ?? 200);
const WRITE_SECONDS = Number(process.env['BENCH_WATCH_SECONDS'] ?? 10);
const SYNC_OBJECTS = Number(process.env['BENCH_SYNC_OBJECTS'] ?? 10_000);
const SYNCS = Number(process.env['BENCH_SYNCS'] ?? 50);
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';
const DEPLOYMENTS = (ns: string): string => `/apis/apps/v1/namespaces/${ns}/deployments`;

function log(line: string): void {
  process.stderr.write(`[bench watchers] ${line}\n`);
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const kib = (bytes: number): string => (bytes / 1024).toFixed(1);
const mib = (bytes: number): string => (bytes / MiB).toFixed(0);

/** A Deployment of about 2 KiB stored (an annotation pads a realistic spec). */
function deployment(name: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name }, annotations: { 'bench.orch.io/notes': 'n'.repeat(900) } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers: [{ name: 'web', image: 'nginx:1.25.3', ports: [{ containerPort: 80 }] }] },
      },
    },
  });
}

/** Creates the namespace and `count` Deployments (32 at a time); returns the last resourceVersion. */
async function fill(server: ServerProcess, agent: Agent, ns: string, count: number): Promise<string> {
  await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
  let next = 0;
  let last = 0;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (next < count) {
        const i = next++;
        const res = await httpRequest(agent, server.url, 'POST', DEPLOYMENTS(ns), deployment(`d-${i}`));
        if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.body}`);
        last = Math.max(last, Number(JSON.parse(res.body).metadata.resourceVersion));
      }
    }),
  );
  return String(last);
}

/** Opens `count` connections, `batch` at a time. */
async function openMany(count: number, batch: number, open: () => Promise<Socket>): Promise<Socket[]> {
  const sockets: Socket[] = [];
  while (sockets.length < count)
    sockets.push(...(await Promise.all(Array.from({ length: Math.min(batch, count - sockets.length) }, open))));
  return sockets;
}

async function metricValue(server: ServerProcess, agent: Agent, pattern: RegExp): Promise<number> {
  const body = (await httpRequest(agent, server.url, 'GET', '/metrics')).body;
  let sum = 0;
  for (const line of body.split('\n')) if (pattern.test(line)) sum += Number(line.split(' ').pop());
  return sum;
}

/** Watches the server holds open (apiserver_longrunning_requests, WATCH). */
const openWatches = (server: ServerProcess, agent: Agent): Promise<number> =>
  metricValue(server, agent, /^apiserver_longrunning_requests\{.*verb="WATCH"/);

async function idleWatchers(server: ServerProcess, agent: Agent): Promise<string[]> {
  const port = Number(new URL(server.url).port);
  const rv = await fill(server, agent, 'bench-idle', 20);
  await sleep(2000);
  const before = rssBytes(server.pid);
  log(`opening ${IDLE_WATCHERS} idle watchers`);
  const sockets = await openMany(IDLE_WATCHERS, 200, () =>
    rawWatch(port, `${DEPLOYMENTS('bench-idle')}?watch=1&resourceVersion=${rv}`, () => undefined),
  );
  await sleep(3000);
  const after = rssBytes(server.pid);
  const established = await openWatches(server, agent);
  for (const s of sockets) s.destroy();
  await sleep(2000);
  const perWatcher = (after - before) / established;
  return [
    `| ${established} idle watchers established of ${IDLE_WATCHERS} opened (one namespace's Deployments, no events) | server RSS ${mib(before)} → ${mib(after)} MiB = **${kib(perWatcher)} KiB per watcher** (target ≤ 20 KiB: ${perWatcher <= 20 * 1024 ? 'met' : 'missed'}) |`,
  ];
}

/** The normal watchers, in a process of their own (fanout-watchers.ts) so their receipt times are not ours. */
function forkNormalWatchers(): {
  send: (m: ParentMessage) => void;
  next: <T extends ChildMessage['type']>(type: T) => Promise<Extract<ChildMessage, { type: T }>>;
  kill: () => void;
} {
  const child = fork(join(__dirname, 'fanout-watchers.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const next = <T extends ChildMessage['type']>(type: T): Promise<Extract<ChildMessage, { type: T }>> =>
    new Promise((resolve) => {
      const onMessage = (message: ChildMessage): void => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message as Extract<ChildMessage, { type: T }>);
      };
      child.on('message', onMessage);
    });
  return { send: (m) => void child.send(m), next, kill: () => void child.kill() };
}

async function stalledWatchers(server: ServerProcess, agent: Agent): Promise<string[]> {
  const port = Number(new URL(server.url).port);
  const ns = 'bench-slow';
  const targets = 20;
  const rv = await fill(server, agent, ns, targets);
  const path = `${DEPLOYMENTS(ns)}?watch=1&resourceVersion=${rv}`;
  const normal = forkNormalWatchers();
  try {
    normal.send({ type: 'open', port, path, watchers: NORMAL_WATCHERS });
    await normal.next('opened');
    await sleep(2000);
    const terminatedBefore = await metricValue(server, agent, /^apiserver_terminated_watchers_total/);
    const before = rssBytes(server.pid);
    resetPeakRss(server.pid);
    log(`opening ${SLOW_WATCHERS} stalled watchers beside ${NORMAL_WATCHERS} normal ones`);
    const stalled = await openMany(SLOW_WATCHERS, 200, () => pausedWatch(port, path));
    await sleep(1000);
    const established = (await openWatches(server, agent)) - NORMAL_WATCHERS;
    const total = WRITES_PER_SECOND * WRITE_SECONDS;
    const acked = new Map<number, number>();
    const startedAt = performance.now();
    let written = 0;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (;;) {
          const i = written++;
          if (i >= total) return;
          const wait = startedAt + (i * 1000) / WRITES_PER_SECOND - performance.now();
          if (wait > 0) await sleep(wait);
          const patch = JSON.stringify({ metadata: { annotations: { n: String(i) } } });
          const res = await httpRequest(
            agent,
            server.url,
            'PATCH',
            `${DEPLOYMENTS(ns)}/d-${i % targets}`,
            patch,
            'application/merge-patch+json',
          );
          acked.set(Number(JSON.parse(res.body).metadata.resourceVersion), performance.timeOrigin + performance.now());
        }
      }),
    );
    const writeSeconds = (performance.now() - startedAt) / 1000;
    await sleep(2000);
    const peak = peakRssBytes(server.pid);
    const terminated = (await metricValue(server, agent, /^apiserver_terminated_watchers_total/)) - terminatedBefore;
    normal.send({ type: 'finish', total, acked: [...acked], waitMs: 30_000 });
    const { complete, latencies } = await normal.next('result');
    for (const s of stalled) s.destroy();
    const perStalled = (peak - before) / established;
    const unaffected = complete === NORMAL_WATCHERS && latencies.p99 < 1000;
    return [
      `| ${established} stalled watchers (never read; ${SLOW_WATCHERS} opened) beside ${NORMAL_WATCHERS} normal ones, ${total} writes of ~2.8 KiB objects at ${(total / writeSeconds).toFixed(0)}/s | server RSS ${mib(before)} MiB, peak ${mib(peak)} MiB = **${kib(perStalled)} KiB per stalled watcher** (target ≤ 64 KiB: ${perStalled <= 64 * 1024 ? 'met' : 'missed'}); stalled watchers closed by the server: ${terminated}; normal watchers with every event: ${complete}/${NORMAL_WATCHERS}, delivery p50 ${latencies.p50.toFixed(1)} ms, p99 ${latencies.p99.toFixed(1)} ms (target: unaffected, p99 < 1 s: ${unaffected ? 'met' : 'missed'}) |`,
    ];
  } finally {
    normal.kill();
  }
}

async function watchListSyncs(server: ServerProcess, agent: Agent): Promise<string[]> {
  const port = Number(new URL(server.url).port);
  const ns = 'bench-sync';
  log(`creating ${SYNC_OBJECTS} Deployments`);
  await fill(server, agent, ns, SYNC_OBJECTS);
  const list = await httpRequest(agent, server.url, 'GET', `${DEPLOYMENTS(ns)}?resourceVersion=0`);
  const responseBytes = Buffer.byteLength(list.body);
  await sleep(2000);
  const before = rssBytes(server.pid);
  resetPeakRss(server.pid);
  log(`${SYNCS} concurrent watch-list syncs`);
  const path = `${DEPLOYMENTS(ns)}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;
  const startedAt = performance.now();
  const bytes = await Promise.all(Array.from({ length: SYNCS }, () => watchUntil(port, path, 'initial-events-end')));
  const seconds = (performance.now() - startedAt) / 1000;
  const growth = peakRssBytes(server.pid) - before;
  const ratio = growth / responseBytes;
  return [
    `| ${SYNCS} concurrent watch-list syncs of ${SYNC_OBJECTS} Deployments (each ${mib(bytes[0] ?? 0)} MiB of events, done in ${seconds.toFixed(1)} s) | peak server RSS ${mib(before)} → ${mib(before + growth)} MiB: growth ${mib(growth)} MiB = **${ratio.toFixed(2)}× one LIST response** (${mib(responseBytes)} MiB; target ≤ 1×: ${ratio <= 1 ? 'met' : 'missed'}) |`,
  ];
}

async function measure(server: ServerProcess): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const rows = [
    ...(await idleWatchers(server, agent)),
    ...(await stalledWatchers(server, agent)),
    ...(await watchListSyncs(server, agent)),
  ];
  agent.destroy();
  const section = [
    `## Watchers: memory at rest, stalled watchers, watch-list syncs (${new Date().toISOString().slice(0, 16)}Z)`,
    '',
    'Command: `make bench-watchers` (`node dist/test/bench/watchers-memory.js`). Machine:',
    '',
    ...machineDescription(),
    '',
    'The apiserver runs as a separate process (log level warn) on a fresh embedded etcd; watchers are raw TCP connections (HTTP/1.1, JSON). RSS is read from /proc; peaks from VmHWM after resetting it (clear_refs) at the start of a phase.',
    '',
    '| Measure | Result |',
    '|---|---|',
    ...rows,
    '',
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (WRITE_DOCS) prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), section);
}

// Thousands of watches from one client would queue and be rejected by APF's per-flow limits (one user, one flow);
// what is measured here is what an established watcher costs, so the server runs with max-in-flight, which does not
// count long-running requests.
runBench(() => withBenchServer('watchers', measure, [], ['--enable-priority-and-fairness=false']));

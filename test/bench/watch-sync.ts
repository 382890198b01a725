// `make bench-watch-sync` (`node dist/test/bench/watch-sync.js`): issue 20's two watch write-path targets on one
// etcd, A/B capable. (1) Relist storm: 50 concurrent watch-list syncs (sendInitialEvents=true) of 10,000
// Deployments of ~2.8 KiB, the server's peak RSS growth against one LIST response. (2) Fan-out: 1,000 watchers,
// 200 writes/s, delivery latency (fanout-run.ts). Each phase runs on a fresh server process; with
// BENCH_BASE_SCRIPT=<other build>/dist/cmd/apiserver.js the two builds alternate, round by round.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'node:http';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { runBench } from './bench-server';
import { putCopies } from './etcd-fill';
import { fanOutMet, fanOutSummary, runFanOut, type FanOutOptions } from './fanout-run';
import { httpRequest } from './http-load';
import { MiB, peakRssBytes, resetPeakRss, rssBytes } from './process-memory';
import { watchUntil } from './raw-watch';
import { LOAD_AT_START, machineDescription, publishSection } from './report';
import { startServerProcess, type ServerProcess } from './server-process';
import { processCpuMs } from './stats';
import { bigDeployment } from './workloads';

const SYNC_OBJECTS = Number(process.env['BENCH_SYNC_OBJECTS'] ?? 10_000);
const SYNCS = Number(process.env['BENCH_SYNCS'] ?? 50);
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 1);
const PHASES = (process.env['BENCH_PHASES'] ?? 'sync,fanout').split(',');
const BASE_SCRIPT = process.env['BENCH_BASE_SCRIPT'];
const FAN_OUT: FanOutOptions = {
  watchers: Number(process.env['BENCH_WATCHERS'] ?? 1000),
  processes: Number(process.env['BENCH_WATCHER_PROCESSES'] ?? 1),
  writesPerSecond: Number(process.env['BENCH_WRITE_RATE'] ?? 200),
  seconds: Number(process.env['BENCH_WATCH_SECONDS'] ?? 10),
  // APF lends the writers' priority level seats only after a 10 s period that saw their demand.
  warmupSeconds: Number(process.env['BENCH_WATCH_WARMUP_SECONDS'] ?? 12),
  kind: 'deployments',
  namespace: 'bench-watch',
};
/** Extra node flags for the measured servers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof". */
const SERVER_NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
const SYNC_NS = 'bench-sync';
const DEPLOYMENTS = (ns: string): string => `/apis/apps/v1/namespaces/${ns}/deployments`;

/** The etcd of this run (for the fan-out's decomposition probe). */
let etcdUrl = '';
const log = (line: string): void => void process.stderr.write(`[bench watch-sync] ${line}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const mib = (bytes: number): string => (bytes / MiB).toFixed(1);

interface Build {
  name: string;
  script: string | undefined;
}

/** Waits until the server's watch cache lists `count` Deployments in `ns`; returns one LIST response's size. */
async function cachedListBytes(server: ServerProcess, agent: Agent, ns: string, count: number): Promise<number> {
  for (;;) {
    const res = await httpRequest(agent, server.url, 'GET', `${DEPLOYMENTS(ns)}?resourceVersion=0`);
    if ((JSON.parse(res.body) as { items: unknown[] }).items.length >= count) return Buffer.byteLength(res.body);
    await sleep(1000);
  }
}

/** Namespaces, and SYNC_OBJECTS Deployments put into etcd as copies of one created through the API. */
async function fill(etcdUrl: string, build: Build): Promise<void> {
  const server = await startServerProcess(etcdUrl, [], [], build.script);
  const agent = new Agent({ keepAlive: true });
  try {
    for (const ns of [SYNC_NS, FAN_OUT.namespace])
      await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
    const created = await httpRequest(agent, server.url, 'POST', DEPLOYMENTS(SYNC_NS), bigDeployment('template'));
    if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.body}`);
    const client = newEtcdClient(etcdUrl);
    const template = await client.get(`/registry/apps/deployments/${SYNC_NS}/template`).string();
    client.close();
    if (template === null) throw new Error('template Deployment not found in etcd');
    log(`putting ${SYNC_OBJECTS} Deployments (${template.length} bytes each) into etcd`);
    await putCopies(etcdUrl, template, SYNC_NS, SYNC_OBJECTS - 1);
  } finally {
    agent.destroy();
    await server.stop();
  }
}

async function syncs(server: ServerProcess, agent: Agent): Promise<string> {
  const port = Number(new URL(server.url).port);
  const responseBytes = await cachedListBytes(server, agent, SYNC_NS, SYNC_OBJECTS);
  const path = `${DEPLOYMENTS(SYNC_NS)}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`;
  // What the first serving keeps is not per sync.
  await watchUntil(port, path, 'initial-events-end');
  await sleep(2000);
  const before = rssBytes(server.pid);
  resetPeakRss(server.pid);
  const cpuBefore = processCpuMs(server.pid) ?? NaN;
  const startedAt = performance.now();
  const bytes = await Promise.all(Array.from({ length: SYNCS }, () => watchUntil(port, path, 'initial-events-end')));
  const seconds = (performance.now() - startedAt) / 1000;
  const cpuMs = (processCpuMs(server.pid) ?? NaN) - cpuBefore;
  const growth = peakRssBytes(server.pid) - before;
  const ratio = growth / responseBytes;
  log(`syncs: +${mib(growth)} MiB = ${ratio.toFixed(2)}× of ${mib(responseBytes)} MiB in ${seconds.toFixed(1)} s`);
  return `${SYNCS} watch-list syncs of ${SYNC_OBJECTS} (each ${mib(bytes[0] ?? 0)} MiB of events): peak RSS ${mib(before)} → ${mib(before + growth)} MiB, growth ${mib(growth)} MiB = **${ratio.toFixed(2)}×** one LIST response (${mib(responseBytes)} MiB; target ≤ 1×: ${ratio <= 1 ? 'met' : 'missed'}); ${seconds.toFixed(1)} s, server CPU ${(cpuMs / SYNCS).toFixed(0)} ms per sync`;
}

async function fanOut(server: ServerProcess, agent: Agent): Promise<string> {
  await cachedListBytes(server, agent, SYNC_NS, SYNC_OBJECTS);
  const result = await runFanOut(server, agent, { ...FAN_OUT, etcdUrl });
  log(`fan-out: p50 ${result.p50} ms, p99 ${result.p99} ms, complete ${result.complete}/${FAN_OUT.watchers}`);
  for (const line of result.decomposition ?? []) log(`  ${line}`);
  const stages =
    result.decomposition === undefined ? '' : `; from the acknowledgment: ${result.decomposition.join('; ')}`;
  return `${fanOutSummary(result, FAN_OUT)} (target ${fanOutMet(result, FAN_OUT) ? 'met' : 'missed'})${stages}`;
}

const PHASE_RUNS: Record<string, { what: string; args: string[]; run: typeof syncs }> = {
  // Thousands of watches from one client would queue behind APF's per-flow limits; watchers-memory.ts runs the
  // syncs with max-in-flight (which does not count long-running requests) too.
  sync: { what: 'watch-list syncs', args: ['--enable-priority-and-fairness=false'], run: syncs },
  fanout: { what: 'watch fan-out', args: [], run: fanOut },
};

async function main(): Promise<void> {
  const builds: Build[] = [{ name: 'this build', script: undefined }];
  if (BASE_SCRIPT !== undefined) builds.push({ name: `base (${BASE_SCRIPT})`, script: BASE_SCRIPT });
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-bench-watch-sync-'));
  const etcd = await startEmbeddedEtcd(join(dataDir, 'etcd'));
  etcdUrl = etcd.clientUrl;
  const rows: string[] = [];
  try {
    await fill(etcd.clientUrl, builds[0] as Build);
    for (let round = 1; round <= ROUNDS; round++)
      for (const phase of PHASES)
        for (const build of round % 2 === 1 ? builds : [...builds].reverse()) {
          const p = PHASE_RUNS[phase];
          if (p === undefined) throw new Error(`unknown phase ${phase} (sync, fanout)`);
          log(`round ${round}: ${p.what}, ${build.name}`);
          const server = await startServerProcess(etcd.clientUrl, SERVER_NODE_ARGS, p.args, build.script);
          const agent = new Agent({ keepAlive: true, maxSockets: 64 });
          try {
            rows.push(`| ${round} | ${p.what} | ${build.name} | ${await p.run(server, agent)} |`);
          } finally {
            agent.destroy();
            await server.stop();
          }
        }
  } finally {
    await etcd.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
  const section = [
    `## Watch write path: watch-list syncs and fan-out (${new Date().toISOString().slice(0, 16)}Z)${LOAD_AT_START > 2 ? ' — NOISY' : ''}`,
    '',
    'Command: `make bench-watch-sync` (`node dist/test/bench/watch-sync.js`). Machine:',
    '',
    ...machineDescription(),
    '',
    `Each phase runs on a fresh server process (log level warn) on one embedded etcd holding ${SYNC_OBJECTS} Deployments of ~2.8 KiB (copies of one created through the API). Syncs: ${SYNCS} concurrent raw-TCP watches with sendInitialEvents=true read until the end-of-initial-events BOOKMARK, after one unmeasured sync; peak RSS from VmHWM reset through clear_refs. Fan-out: ${FAN_OUT.watchers} raw-TCP watchers in ${FAN_OUT.processes} separate process(es) (fanout-watchers.ts), ${FAN_OUT.writesPerSecond} PATCHes/s of 20 small Deployments by 64 writers for ${FAN_OUT.warmupSeconds} s unmeasured (APF's borrowing adapts to the writers' demand) then ${FAN_OUT.seconds} s measured; latency = receipt time minus the PATCH's acknowledgment time (wall clock).`,
    '',
    '| Round | Phase | Server | Result |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  publishSection(section);
}

runBench(main);

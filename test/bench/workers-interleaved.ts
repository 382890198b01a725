// `node dist/test/bench/workers-interleaved.js` (make bench-workers-interleaved): `--workers 2` ÷ `--workers 1` and
// ÷ the raw etcd create-if-absent rate, from short slices taken in turn. Both servers (and the raw etcd) run for the
// whole measurement, each on its own embedded etcd, warmed up once; every round measures one slice of each at
// concurrency 64 (wrk), in an order that rotates from round to round, and divides within the round. The host of this
// machine changes speed by tens of percent within minutes (workers-scaling.ts' core-ceiling check read 1.55–2.62×
// within single runs), so phases a minute apart compare the host's moments as much as the configurations; slices
// seconds apart compare the configurations. After each round the server that created fewer objects gets the difference
// as copies written straight into its etcd (and follows them before the next round), so both hold as many objects in
// every round: otherwise `--workers 2`, creating more per slice, would carry ever more per worker than `--workers 1`.
// (Deleting each round's objects instead made etcd 3.4 slower per write from then on: ~230 -> 400-500 µs.)
// BENCH_ROUNDS (default 9), BENCH_SLICE_SECONDS (default 5).
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { startEmbeddedEtcd, type EmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { runBench } from './bench-server';
import { benchRawEtcdCreates } from './etcd-raw';
import { httpRequest } from './http-load';
import { childPids, cpuMeter } from './process-cpu';
import { LOAD_AT_START, machineDescription, publishSection } from './report';
import { startServerProcess, type ServerProcess } from './server-process';
import { findPidByCmdline, machineBusyMs, machineStealMs, median } from './stats';
import { warmUp } from './warm-up';
import { putCopies, untilIdle } from './watch-follow';
import { namespaceBody } from './workloads';
import { createScript, findWrk, runWrk } from './wrk-load';

const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 9);
const SLICE_SECONDS = Number(process.env['BENCH_SLICE_SECONDS'] ?? 5);
const CONCURRENCY = 64;
/** Warm-up creates of each server (both hold as many objects): 8,000 per worker of the larger one. */
const WARMUP_CREATES = Number(process.env['BENCH_WARMUP_CREATES'] ?? 16000);
const WARMUP_MAX_SECONDS = 90;
const log = (line: string): void => void process.stderr.write(`[interleaved] ${line}\n`);

type Config = 'one' | 'two' | 'raw';
const ORDER: Config[] = ['one', 'two', 'raw'];

interface Slice {
  perSecond: number;
  created: number;
  errors: number;
  /** CPU ms per successful create: the server's processes, and its etcd. */
  serverMs?: number;
  etcdMs?: number;
  /** All busy CPU of the machine during the slice, % of one core; of it, what the hypervisor gave to others (steal). */
  machinePct?: number;
  stealPct?: number;
}

interface Target {
  etcd: EmbeddedEtcd;
  etcdPid: number | undefined;
  server?: ServerProcess;
  /** The server's processes by name (primary and workers). */
  pids: Record<string, number>;
  /** Deployments in its etcd, and one of them to copy. */
  objects: number;
  template: string;
}

async function startTarget(dataDir: string, name: string, workers?: number): Promise<Target> {
  const dir = join(dataDir, name);
  const etcd = await startEmbeddedEtcd(dir);
  const target: Target = { etcd, etcdPid: findPidByCmdline(dir), pids: {}, objects: 0, template: '' };
  if (workers === undefined) return target;
  try {
    const server = await startServerProcess(etcd.clientUrl, [], ['--workers', String(workers)]);
    target.server = server;
    target.pids = { server: server.pid };
    childPids(server.pid).forEach((pid, i) => (target.pids[`worker ${i + 1}`] = pid));
    const agent = new Agent({ keepAlive: false });
    await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', namespaceBody);
    agent.destroy();
  } catch (err) {
    await etcd.stop();
    throw err;
  }
  return target;
}

async function measureSlice(wrk: string, target: Target, prefix: string, dataDir: string): Promise<Slice> {
  const machineBefore = machineBusyMs();
  const stealBefore = machineStealMs();
  const started = process.hrtime.bigint();
  let slice: Slice;
  if (target.server === undefined) {
    const raw = await benchRawEtcdCreates(
      target.etcd.clientUrl,
      CONCURRENCY,
      SLICE_SECONDS,
      target.etcdPid,
      600,
      prefix,
    );
    const ok = raw.requests - raw.errors;
    slice = { perSecond: ok / raw.seconds, created: ok, errors: raw.errors };
    if (raw.etcdCpuMs !== undefined) slice.etcdMs = raw.etcdCpuMs / Math.max(1, ok);
  } else {
    const meter = cpuMeter({ ...target.pids, etcd: target.etcdPid });
    const r = await runWrk(wrk, target.server.url, {
      workload: 'POST create Deployment',
      concurrency: CONCURRENCY,
      seconds: SLICE_SECONDS,
      script: createScript(prefix),
      scriptPath: join(dataDir, `${prefix}.lua`),
    });
    const used = meter();
    const ok = r.requests - r.errors;
    const { etcd = 0, ...servers } = used;
    const each = Object.entries(used).map(([name, ms]) => `${name} ${((1000 * ms) / Math.max(1, ok)).toFixed(0)}`);
    log(`${prefix}: ${ok} creates, µs CPU per create: ${each.join(', ')}`);
    slice = {
      perSecond: ok / r.seconds,
      created: ok,
      errors: r.errors,
      serverMs: Object.values(servers).reduce((a, b) => a + b, 0) / Math.max(1, ok),
      etcdMs: etcd / Math.max(1, ok),
    };
  }
  const machineAfter = machineBusyMs();
  const stealAfter = machineStealMs();
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (machineBefore !== undefined && machineAfter !== undefined)
    slice.machinePct = (100 * (machineAfter - machineBefore)) / 1000 / wall;
  if (stealBefore !== undefined && stealAfter !== undefined)
    slice.stealPct = (100 * (stealAfter - stealBefore)) / 1000 / wall;
  return slice;
}

/** Copies of a warm-up Deployment into the target's etcd until it holds `objects`; then waits until its server followed. */
async function topUp(target: Target, objects: number, round: number): Promise<void> {
  const missing = Math.round(objects - target.objects);
  if (missing <= 0) return;
  const client = new Etcd3({ hosts: target.etcd.clientUrl });
  try {
    await putCopies(client, target.template, `top-${round}-`, 0, missing);
  } finally {
    client.close();
  }
  target.objects += missing;
  await untilIdle(Object.values(target.pids));
}

const fixed = (n: number | undefined, digits: number): string => (n === undefined ? '' : n.toFixed(digits));

async function main(): Promise<void> {
  const wrk = findWrk();
  if (wrk === undefined) throw new Error('wrk is not installed: `make wrk` installs it');
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-bench-interleaved-'));
  const targets: Partial<Record<Config, Target>> = {};
  const rows: string[] = [];
  const ratios: { workers: number; raw: number }[] = [];
  let warmNote = '';
  let finalObjects = 0;
  let startObjects = 0;
  try {
    targets.raw = await startTarget(dataDir, 'etcd-raw');
    targets.one = await startTarget(dataDir, 'etcd-one', 1);
    targets.two = await startTarget(dataDir, 'etcd-two', 2);
    const notes: string[] = [];
    for (const [config, workers] of [
      ['one', 1],
      ['two', 2],
    ] as const) {
      const w = await warmUp(targets[config]!.server!.url, `warm-${config}-`, WARMUP_CREATES, WARMUP_MAX_SECONDS);
      targets[config]!.objects = w.creates;
      targets[config]!.template = `warm-${config}-0`;
      notes.push(`\`--workers ${workers}\` ${w.creates} creates in ${w.seconds.toFixed(0)} s`);
    }
    warmNote = notes.join(', ');
    const warmest = Math.max(targets.one.objects, targets.two.objects);
    await topUp(targets.one, warmest, -1);
    await topUp(targets.two, warmest, -1);
    startObjects = warmest;
    log(`warmed up: ${warmNote}`);
    const allPids = (): number[] =>
      Object.values(targets).flatMap((t) => [
        ...Object.values(t.pids),
        ...(t.etcdPid === undefined ? [] : [t.etcdPid]),
      ]);
    for (let round = 0; round < ROUNDS; round++) {
      const order = [...ORDER.slice(round % 3), ...ORDER.slice(0, round % 3)];
      const slices: Partial<Record<Config, Slice>> = {};
      for (const config of order) {
        // What the previous slice left running (a server's garbage collection, etcd's backend commits) must not be
        // charged to this one: the rotation puts `--workers 2` right after `--workers 1` in two rounds of three.
        await untilIdle(allPids());
        slices[config] = await measureSlice(wrk, targets[config]!, `r${round}-${config}-`, dataDir);
      }
      const { one, two, raw } = slices as Record<Config, Slice>;
      const ratio = { workers: two.perSecond / one.perSecond, raw: two.perSecond / raw.perSecond };
      ratios.push(ratio);
      for (const config of ['one', 'two'] as const) targets[config]!.objects += slices[config]!.created;
      const most = Math.max(targets.one!.objects, targets.two!.objects);
      await topUp(targets.one!, most, round);
      await topUp(targets.two!, most, round);
      const errors = one.errors + two.errors + raw.errors;
      const line = `| ${round + 1} | ${order.map((c) => (c === 'raw' ? 'raw' : c === 'one' ? '1' : '2')).join(', ')} | ${one.perSecond.toFixed(0)} | ${two.perSecond.toFixed(0)} | ${raw.perSecond.toFixed(0)} | ${errors} | **${ratio.workers.toFixed(2)}×** | ${ratio.raw.toFixed(2)}× | ${fixed(one.serverMs, 2)} / ${fixed(two.serverMs, 2)} | ${fixed(one.etcdMs && one.etcdMs * 1000, 0)} / ${fixed(two.etcdMs && two.etcdMs * 1000, 0)} / ${fixed(raw.etcdMs && raw.etcdMs * 1000, 0)} | ${fixed(one.machinePct, 0)} / ${fixed(two.machinePct, 0)} | ${fixed(one.stealPct, 0)} / ${fixed(two.stealPct, 0)} / ${fixed(raw.stealPct, 0)} |`;
      rows.push(line);
      log(
        `round ${round + 1}: 1 worker ${one.perSecond.toFixed(0)}/s, 2 workers ${two.perSecond.toFixed(0)}/s, raw ${raw.perSecond.toFixed(0)}/s, errors ${errors}: ${ratio.workers.toFixed(2)}× one, ${ratio.raw.toFixed(2)}× raw`,
      );
    }
    finalObjects = targets.two!.objects;
  } finally {
    for (const t of Object.values(targets)) {
      await t.server?.stop();
      await t.etcd.stop();
    }
    rmSync(dataDir, { recursive: true, force: true });
  }
  const byWorkers = ratios.map((r) => r.workers);
  const byRaw = ratios.map((r) => r.raw);
  const summary = `Medians over ${ratios.length} rounds: \`--workers 2\` ÷ \`--workers 1\` **${median(byWorkers).toFixed(2)}×** (${byWorkers.filter((r) => r >= 1.25).length} of ${ratios.length} rounds ≥ 1.25×, range ${Math.min(...byWorkers).toFixed(2)}–${Math.max(...byWorkers).toFixed(2)}×); \`--workers 2\` ÷ raw etcd **${median(byRaw).toFixed(2)}×** (${byRaw.filter((r) => r >= 0.5).length} of ${ratios.length} rounds ≥ 0.5×).`;
  log(summary);
  const doc = [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — --workers 2 ÷ --workers 1, interleaved slices`,
    '',
    `Command: \`node dist/test/bench/workers-interleaved.js\` (BENCH_ROUNDS=${ROUNDS}, BENCH_SLICE_SECONDS=${SLICE_SECONDS}). A \`--workers 1\` server, a \`--workers 2\` server and a bare etcd run side by side, each on its own embedded etcd; the servers were warmed up once (${warmNote}, concurrency 16). Each round then measures ${SLICE_SECONDS} s of creates at concurrency ${CONCURRENCY} on each in turn (wrk for the servers, the etcd3 client's create-if-absent txn of 600-byte values for etcd), the order rotating by round, and divides within the round; every slice starts once all processes are idle (each under 60 ms of CPU in a second), so none pays for what the one before left running; the idle ones only keep their leases and watches. After each round the server that created fewer gets the difference as copies of one of its Deployments written straight into its etcd, followed before the next round, so both hold as many objects in every round (${Math.round(startObjects)} after the warm-up, ~${Math.round(finalObjects)} at the end). CPU ms per create from /proc: the server's processes, and each one's etcd. "machine" is all busy CPU of the 2-core machine (200% = saturation); "steal" is the part of it the hypervisor gave to other guests while this one wanted to run (/proc/stat), time none of the processes here had. ${LOAD_AT_START > 2 ? `NOISY: 1-minute load average ${LOAD_AT_START.toFixed(1)} before the run.` : ''}`,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    '| Round | order | 1 worker/s | 2 workers/s | raw etcd/s | errors | 2 ÷ 1 | 2 ÷ raw | server ms CPU per create (1 / 2) | etcd µs per create (1 / 2 / raw) | machine % (1 / 2) | steal % (1 / 2 / raw) |',
    '|---:|---|---:|---:|---:|---:|---:|---:|---|---|---|---|',
    ...rows,
    '',
    summary,
    '',
  ].join('\n');
  publishSection(doc);
}

runBench(main);

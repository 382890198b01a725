// `node dist/test/bench/workers-scaling.js`: creates/s at concurrency 64 (wrk, else the Node load generator) with
// --workers 1 and 2 on one etcd (and, as `sep2`, two separate one-process servers sharing the load), beside the raw
// etcd create-if-absent rate of the same run, with the CPU of every process (primary, workers, etcd, wrk) per phase.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { runBench } from './bench-server';
import { benchRawEtcdCreates } from './etcd-raw';
import { httpRequest, runLoad } from './http-load';
import { childPids, cpuMeter } from './process-cpu';
import { describePerOperation, threadMeter } from './thread-cpu';
import { startHog } from './cpu-hog';
import { measureCoreCeiling } from './core-ceiling';
import { perCreate, perfCounters } from './perf-syscalls';
import { areasPerCreate, PROFILE_DIR, profileArgs } from './workers-profile';
import { measureFollowCost } from './watch-follow';
import { machineDescription, publishSection } from './report';
import { LOAD_AT_START } from './report';
import { startServerProcess, type ServerProcess } from './server-process';
import { findPidByCmdline, machineBusyMs, median, type PhaseResult } from './stats';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';
import { createScript, findWrk, runWrk } from './wrk-load';
import { warmUp } from './warm-up';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
/** Configurations in order: N = one server with --workers N (Np: worker i pinned to core i mod cores with taskset;
 * Nh: a CPU-busy process runs beside it while it is measured; Ng: node --single-threaded-gc);
 * sepN = N separate servers, the load split evenly; idleN = N separate servers, the load on the first only;
 * raw = the raw etcd rate and the two-process ceiling again (ratios use the latest ones). The run starts and ends
 * with `raw`; the default alternates three pairs, since a shared host's speed drifts within minutes. */
const CONFIGS = (process.env['BENCH_WORKERS'] ?? '1,2,raw,1,2,raw,1,2').split(',').filter(Boolean);
const CONCURRENCY = 64;
/**
 * Warm-up before each measured phase, at concurrency 16 per server: this many creates per worker (× N for --workers N,
 * whose workers share one server's warm-up), for at most BENCH_WARMUP_SECONDS. Every worker's V8 must have optimised
 * the create path first, or the phase measures JIT compilation (session 10: after 3 s shared by two workers, they
 * used 3.6–5.7 ms CPU per create against 1.5–2.4 ms warm, same runs).
 */
const WARMUP_CREATES = Number(process.env['BENCH_WARMUP_CREATES'] ?? 8000);
const WARMUP_MAX_SECONDS = Number(process.env['BENCH_WARMUP_SECONDS'] ?? 90);
const FOLLOW_WRITES = Number(process.env['BENCH_FOLLOW_WRITES'] ?? 3000);
const log = (line: string): void => void process.stderr.write(`[workers] ${line}\n`);
const ok = (r: PhaseResult): number => (r.requests - r.errors) / r.seconds;

interface Measured {
  perSecond: number;
  errors: number;
  p99Ms: number;
  /** CPU % of one core per process during the phase. */
  cpu: Record<string, number>;
  /** Server CPU (all its processes) per successful create, ms. */
  serverMsPerCreate: number;
  /** Per process: µs on a core and waiting for one per create, by thread kind, and context switches. */
  threads: string[];
  /** The measured window (hrtime µs) and each process's main-thread µs on a core in it, by pid. */
  windowUs: [number, number];
  mainRunUs: Map<number, number>;
  creates: number;
}

/** Starts the configuration's servers: the primary's pid first, then its workers (or each separate server). */
async function startConfig(
  config: string,
  etcdUrl: string,
  nodeArgs: string[],
): Promise<{ servers: ServerProcess[]; pids: Record<string, number> }> {
  const separate = /^(?:sep|idle)(\d+)$/.exec(config);
  if (separate) {
    const servers: ServerProcess[] = [];
    try {
      for (let i = 0; i < Number(separate[1]); i++) servers.push(await startServerProcess(etcdUrl, nodeArgs));
    } catch (err) {
      await Promise.all(servers.map((s) => s.stop()));
      throw err;
    }
    return { servers, pids: Object.fromEntries(servers.map((s, i) => [`server ${i + 1}`, s.pid])) };
  }
  const gcArgs = config.endsWith('g') ? ['--single-threaded-gc'] : [];
  const server = await startServerProcess(
    etcdUrl,
    [...nodeArgs, ...gcArgs],
    ['--workers', config.replace(/[phg]$/, '')],
  );
  const workers = parseInt(config, 10) > 1 ? childPids(server.pid) : [];
  const pids: Record<string, number> = workers.length > 0 ? { primary: server.pid } : { server: server.pid };
  workers.forEach((pid, i) => (pids[`worker ${i + 1}`] = pid));
  if (config.endsWith('p')) pinWorkers(workers.length > 0 ? workers : [server.pid]);
  return { servers: [server], pids };
}

async function measure(
  wrk: string | undefined,
  config: string,
  phase: number,
  urls: string[],
  pids: Record<string, number>,
  etcdPid: number | undefined,
  dataDir: string,
): Promise<Measured> {
  const meter = cpuMeter({ ...pids, etcd: etcdPid });
  const threads = threadMeter({ ...pids, etcd: etcdPid });
  const perf = perfCounters({ ...pids, etcd: etcdPid }, SECONDS);
  const machineBefore = machineBusyMs();
  const started = process.hrtime.bigint();
  const share = CONCURRENCY / urls.length;
  const results = await Promise.all(
    urls.map((url, i) => {
      const prefix = `p${phase}-c${config}-s${i}-`;
      let n = 0;
      return wrk
        ? runWrk(wrk, url, {
            workload: 'POST create Deployment',
            concurrency: share,
            seconds: SECONDS,
            script: createScript(`wrk-${prefix}`),
            scriptPath: join(dataDir, `create-${prefix}.lua`),
          })
        : runLoad(url, {
            workload: 'POST create Deployment',
            concurrency: share,
            seconds: SECONDS,
            next: () => ({ method: 'POST', path: DEPLOYMENTS, body: deploymentBody(`node-${prefix}${n++}`) }),
          });
    }),
  );
  const wallSeconds = Number(process.hrtime.bigint() - started) / 1e9;
  const used = meter();
  const threadUse = threads();
  const counted = await perf();
  const machineAfter = machineBusyMs();
  const pct = (ms: number): number => (100 * ms) / 1000 / wallSeconds;
  const cpu: Record<string, number> = {};
  for (const [name, ms] of Object.entries(used)) cpu[name] = pct(ms);
  const clientMs = results.reduce((a, r) => a + (r.clientCpuMs ?? 0), 0);
  cpu[wrk ? 'wrk' : 'load generator'] = pct(clientMs);
  if (machineBefore !== undefined && machineAfter !== undefined) cpu['machine'] = pct(machineAfter - machineBefore);
  const perSecond = results.reduce((a, r) => a + ok(r), 0);
  const serverMs = Object.entries(used)
    .filter(([name]) => name !== 'etcd')
    .reduce((a, [, ms]) => a + ms, 0);
  return {
    perSecond,
    errors: results.reduce((a, r) => a + r.errors, 0),
    p99Ms: Math.max(...results.map((r) => r.p99Ms)),
    cpu,
    serverMsPerCreate: serverMs / Math.max(1, perSecond * wallSeconds),
    threads: [
      ...describePerOperation(threadUse, perSecond * wallSeconds),
      ...perCreate(counted, perSecond * wallSeconds).map((l) => `(perf) ${l}`),
    ],
    windowUs: [Number(started / 1000n), Number(started / 1000n) + wallSeconds * 1e6],
    mainRunUs: new Map(
      Object.entries(pids).map(([name, pid]) => [pid, (threadUse[name]?.get('main')?.runNs ?? 0) / 1000]),
    ),
    creates: perSecond * wallSeconds,
  };
}

async function main(): Promise<void> {
  const wrk = findWrk();
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-bench-workers-'));
  // Every phase starts on an empty etcd: a fresh server fills its watch cache with everything earlier phases created
  // (tens of thousands of Deployments per phase), so on one etcd each phase would start heavier than the one before.
  let etcdRuns = 0;
  let etcd = await startEmbeddedEtcd(join(dataDir, `etcd-${etcdRuns}`));
  let etcdPid = findPidByCmdline(join(dataDir, `etcd-${etcdRuns}`));
  const freshEtcd = async (): Promise<void> => {
    await etcd.stop();
    rmSync(join(dataDir, `etcd-${etcdRuns}`), { recursive: true, force: true });
    etcdRuns++;
    etcd = await startEmbeddedEtcd(join(dataDir, `etcd-${etcdRuns}`));
    etcdPid = findPidByCmdline(join(dataDir, `etcd-${etcdRuns}`));
  };
  const rows: string[] = [];
  const details: string[] = [];
  let follow = '';
  let summary = '';
  let phase = 0;
  try {
    const rawRate = async (when: string): Promise<number> => {
      if (phase > 0) await freshEtcd();
      log(`raw etcd creates (${when}), concurrency ${CONCURRENCY}, ${SECONDS}s`);
      const raw = await benchRawEtcdCreates(etcd.clientUrl, CONCURRENCY, SECONDS, etcdPid, 600, `/bench-raw-${when}`);
      rows.push(
        `| raw etcd create-if-absent txn (etcd3 client), ${when} | ${ok(raw).toFixed(0)} | ${raw.errors} | | | |`,
      );
      const ceiling = await measureCoreCeiling();
      const ceilingText = `two CPU-bound Node processes at once (${when}): each at ${((100 * ceiling.aloneMs) / ceiling.togetherMs).toFixed(0)} % of its speed alone`;
      rows.push(`| ${ceilingText} | | | | ${ceiling.twoProcesses.toFixed(2)}× | |`);
      log(`${ceilingText}: ${ceiling.twoProcesses.toFixed(2)}× one`);
      return ok(raw);
    };
    let raw = await rawRate('before');
    let rawPhases = 1;
    let one: number | undefined;
    const pairs: { workers: number; raw: number }[] = [];
    for (const entry of CONFIGS) {
      if (entry === 'raw') {
        raw = await rawRate(`between, ${++rawPhases}`);
        continue;
      }
      // `config:S` sets the phase's warm-up seconds (not scaled: each worker of --workers N sees ~1/N of it).
      const [config = entry, warmText] = entry.split(':');
      const workers = /^\d+/.test(config) ? parseInt(config, 10) : 1;
      const warmUpCreates = warmText === undefined ? WARMUP_CREATES * workers : Infinity;
      const warmUpSeconds = warmText === undefined ? WARMUP_MAX_SECONDS : Number(warmText);
      phase++;
      await freshEtcd();
      const { servers, pids } = await startConfig(config, etcd.clientUrl, profileArgs(phase));
      let measured: Measured | undefined;
      try {
        const agent = new Agent({ keepAlive: false });
        await httpRequest(agent, servers[0]!.url, 'POST', '/api/v1/namespaces', namespaceBody);
        agent.destroy();
        // Warm-up (every process's code optimised, caches filled).
        const warmed = await Promise.all(
          servers.map((s, i) => warmUp(s.url, `warm-${phase}-${i}-`, warmUpCreates, warmUpSeconds)),
        );
        const warmNote = `${warmed.map((w) => `${w.creates} creates in ${w.seconds.toFixed(0)} s`).join(', ')} of warm-up`;
        log(`${label(config)}: ${warmNote}`);
        log(`${label(config)}: creates, concurrency ${CONCURRENCY}, ${SECONDS}s (${wrk ? 'wrk' : 'node'})`);
        // idleN: the load goes to the first server only; the others just follow etcd (their watch caches' cost).
        const urls = config.startsWith('idle') ? [servers[0]!.url] : servers.map((s) => s.url);
        // Nh: one CPU-busy process beside the server while it is measured (the contention without the requests).
        const hog = config.endsWith('h') ? startHog() : undefined;
        const m = await measure(wrk, config, phase, urls, pids, etcdPid, dataDir).finally(() => hog?.stop());
        measured = m;
        if (config === '1') one = m.perSecond;
        else if (config === '2' && one !== undefined)
          pairs.push({ workers: m.perSecond / one, raw: m.perSecond / raw });
        const cpu = Object.entries(m.cpu)
          .map(([name, p]) => `${name} ${p.toFixed(0)}%`)
          .join(', ');
        rows.push(
          `| ${label(config)}${warmText === undefined ? '' : ` (${warmUpSeconds} s warm-up)`}, creates | ${m.perSecond.toFixed(0)} | ${m.errors} | ${(m.perSecond / raw).toFixed(2)}× | ${one === undefined ? '' : `${(m.perSecond / one).toFixed(2)}×`} | ${m.serverMsPerCreate.toFixed(2)} ms; ${cpu} |`,
        );
        for (const line of m.threads) log(`  per create, ${line}`);
        details.push(`- ${label(config)} (phase ${phase}, ${warmNote}), per create: ${m.threads.join('; ')}`);
        log(
          `${label(config)}: ${m.perSecond.toFixed(0)} creates/s, p99 ${m.p99Ms.toFixed(1)} ms, ${m.errors} errors, server ${m.serverMsPerCreate.toFixed(2)} ms CPU/create; ${cpu}`,
        );
      } finally {
        await Promise.all(servers.map((s) => s.stop()));
      }
      if (PROFILE_DIR !== undefined && measured) {
        const areas = areasPerCreate(phase, measured.windowUs, measured.mainRunUs, measured.creates);
        const text = [...areas].sort((a, b) => b[1] - a[1]).map(([a, us]) => `${a} ${us.toFixed(0)}`);
        log(`${label(config)}: main-thread µs per create by area, all processes: ${text.join(', ')}`);
        details.push(`- ${label(config)} (phase ${phase}), main-thread µs per create by area: ${text.join(', ')}`);
      }
    }
    await rawRate('after');
    if (pairs.length > 0) {
      summary = `\`--workers 2\` after each \`--workers 1\` phase (${pairs.length}): ÷ that one worker ${pairs.map((p) => `${p.workers.toFixed(2)}×`).join(', ')} (median ${median(pairs.map((p) => p.workers)).toFixed(2)}×); ÷ the latest raw etcd rate ${pairs.map((p) => `${p.raw.toFixed(2)}×`).join(', ')} (median ${median(pairs.map((p) => p.raw)).toFixed(2)}×).`;
      log(summary);
    }
    // What every further worker adds to each create: following etcd's watch into its own watch cache.
    const follower = await startServerProcess(etcd.clientUrl);
    try {
      const agent = new Agent({ keepAlive: false });
      await httpRequest(agent, follower.url, 'POST', '/api/v1/namespaces', namespaceBody);
      agent.destroy();
      log(`watch path: ${FOLLOW_WRITES} Deployments written into etcd while one server only follows`);
      const f = await measureFollowCost(follower, etcd.clientUrl, FOLLOW_WRITES, `p${phase}`);
      follow = `A server that only follows etcd (${FOLLOW_WRITES} Deployments written straight into etcd, 8 writers) used ${f.msPerWrite.toFixed(3)} ms CPU per Deployment (its idle ${f.idleMsPerSecond.toFixed(0)} ms/s subtracted): the watch-path cost each further worker adds to every create.`;
      log(follow);
    } finally {
      await follower.stop();
    }
  } finally {
    await etcd.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const doc = [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — creates/s by --workers`,
    '',
    `Command: \`node dist/test/bench/workers-scaling.js\` (BENCH_SECONDS=${SECONDS}, BENCH_WORKERS=${CONFIGS.join(',')}); ${wrk ? 'wrk' : 'Node load generator'}, concurrency ${CONCURRENCY}, a fresh embedded etcd for every phase (raw etcd included: a fresh server fills its cache with all that earlier phases created), each server fresh, warmed up at concurrency 16 with ${WARMUP_CREATES} creates per worker (× N for \`--workers N\`, whose workers share it) or for at most ${WARMUP_MAX_SECONDS} s (\`config:S\`: S s whatever the count). \`sepN\` is N separate one-process servers on the same etcd, each driven by its own wrk at concurrency ${CONCURRENCY}/N. Each raw etcd row is followed by a check of the machine itself (test/bench/core-ceiling.ts): a fixed piece of JavaScript in one process alone, then in two at once; its "÷ 1 worker" cell is the work two processes did ÷ one, a reading of what two busy processes get out of the machine at that moment (2.00× on two idle independent cores; the host's drift moves it either way). Each row's ratios are to the latest raw etcd rate and the latest \`--workers 1\` phase. CPU is % of one core per process over the phase (/proc; wrk its own os.clock()); "machine" is all busy CPU of the 2-core machine, so 200% is saturation. ${LOAD_AT_START > 2 ? `NOISY: 1-minute load average ${LOAD_AT_START.toFixed(1)} before the run.` : ''}`,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    '| Phase | successful/s | errors | ÷ raw etcd (latest) | ÷ 1 worker (latest) | server CPU per create; CPU % of a core per process |',
    '|---|---:|---:|---:|---:|---|',
    ...rows,
    '',
    summary,
    '',
    'Per process and phase (/proc/<pid>/task/*/schedstat, status, sched): µs on a core ("run") and runnable but waiting for a core ("wait") per create, main thread and other threads (V8 GC and compiler helpers, libuv), context switches and moves between cores per create:',
    '',
    ...details,
    '',
    follow,
    '',
  ].join('\n');
  publishSection(doc);
}

/** Config `Np`: worker i (every thread) on core i mod cores, etcd and wrk left to the scheduler. */
function pinWorkers(pids: number[]): void {
  pids.forEach((pid, i) => execFileSync('taskset', ['-a', '-p', '-c', String(i % cpus().length), String(pid)]));
}

function label(config: string): string {
  const separate = /^sep(\d+)$/.exec(config);
  const idle = /^idle(\d+)$/.exec(config);
  if (idle) return `${idle[1]} separate servers, load on server 1 only`;
  if (separate) return `${separate[1]} separate servers`;
  const pinned = config.endsWith('p') ? ', each worker pinned to its own core' : '';
  const hog = config.endsWith('h') ? ' + a CPU-busy process' : '';
  const gc = config.endsWith('g') ? ' (node --single-threaded-gc)' : '';
  return `apiserver \`--workers ${config.replace(/[phg]$/, '')}\`${pinned}${hog}${gc}`;
}

runBench(main);

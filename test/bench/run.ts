// `make bench`: raw etcd create txns vs the apiserver (child process) over HTTP, driven by a Node load generator and by
// wrk; prints a table and updates docs/benchmarks.md.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd, type EmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { benchRawEtcdCreates } from './etcd-raw';
import { httpRequest, runLoad, type LoadRequest } from './http-load';
import { describeFullGcs, FullGcTimeline } from './phase-gc';
import { startServerProcess, type ServerProcess } from './server-process';
import { markdownSection, prependSection, resultTable, targetLines, type Target } from './report';
import { findPidByCmdline, type PhaseResult } from './stats';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';
import { createScript, findWrk, getScript, runWrk } from './wrk-load';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const ETCD_SECONDS = Number(process.env['BENCH_ETCD_SECONDS'] ?? 10);
const LEVELS = [1, 16, 64];
const RATIO_TARGET = 0.5;
const GET_P99_TARGET_MS = 10;
/** Extra node flags for the server process, e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
const SERVER_NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';
/** For profiling one workload: BENCH_PHASES=create or BENCH_PHASES=get (the warm-up still creates the GET targets). */
const PHASES = (process.env['BENCH_PHASES'] ?? 'create,get').split(',');
/** For experiments: idle seconds between the create and GET phases (lets the server finish collecting garbage). */
const PAUSE_BEFORE_GETS_SECONDS = Number(process.env['BENCH_PAUSE_BEFORE_GETS'] ?? 0);
/** Load generators to run: BENCH_LOAD_GENS=node,wrk (default both; wrk only when installed). */
const LOAD_GENS = (process.env['BENCH_LOAD_GENS'] ?? 'node,wrk').split(',');

let etcd: EmbeddedEtcd | undefined;
let server: ServerProcess | undefined;
let dataDir: string | undefined;
let interrupted = false;

async function cleanup(): Promise<void> {
  const [s, e, d] = [server, etcd, dataDir];
  server = etcd = dataDir = undefined;
  await s?.stop().catch(() => undefined);
  await e?.stop().catch(() => undefined);
  if (d) rmSync(d, { recursive: true, force: true });
}

function log(line: string): void {
  process.stderr.write(`[bench] ${line}\n`);
}

function successPerSecond(r: PhaseResult): number {
  return (r.requests - r.errors) / r.seconds;
}

type LoadGen = 'node' | 'wrk';

/** The two targets on the phases of one load generator. */
function evaluateTargets(results: PhaseResult[], raw: PhaseResult, gen: LoadGen): Target[] {
  const of = (r: PhaseResult): boolean => (r.loadGen ?? 'node') === gen;
  const create64 = results.find((r) => of(r) && r.workload.startsWith('POST') && r.concurrency === 64);
  const get16 = results.find((r) => of(r) && r.workload.startsWith('GET') && r.concurrency === 16);
  const ratio = create64 ? successPerSecond(create64) / successPerSecond(raw) : Number.NaN;
  return [
    {
      name: `server creates/s at concurrency 64 ÷ raw etcd create tx/s ≥ ${RATIO_TARGET * 100}% (${gen} load generator)`,
      measured: create64
        ? `${(ratio * 100).toFixed(1)}% (${successPerSecond(create64).toFixed(0)} successful creates/s ÷ ${successPerSecond(raw).toFixed(0)} tx/s)`
        : 'not measured (BENCH_PHASES)',
      pass: ratio >= RATIO_TARGET,
    },
    {
      name: `GET p99 at concurrency 16 < ${GET_P99_TARGET_MS} ms (and no errors) (${gen} load generator)`,
      measured: get16
        ? `${get16.p99Ms.toFixed(2)} ms (p50 ${get16.p50Ms.toFixed(2)} ms, ${get16.errors} errors` +
          `${get16.fullGcPausesMs ? `; ${describeFullGcs(get16.fullGcPausesMs)}` : ''})`
        : 'not measured (BENCH_PHASES)',
      pass: get16 !== undefined && get16.p99Ms < GET_P99_TARGET_MS && get16.errors === 0,
    },
  ];
}

function wrkVersion(wrk: string): string {
  const out = spawnSync(wrk, ['-v'], { encoding: 'utf8' });
  return (
    (out.stdout || out.stderr || '')
      .split('\n')[0]
      ?.replace(/\s*Copyright.*$/, '')
      .trim() || 'unknown'
  );
}

async function main(): Promise<void> {
  if (!(SECONDS > 0) || !(ETCD_SECONDS > 0))
    throw new Error('BENCH_SECONDS and BENCH_ETCD_SECONDS must be positive numbers');
  const wrk = LOAD_GENS.includes('wrk') ? findWrk() : undefined;
  if (LOAD_GENS.includes('wrk') && !wrk)
    log('wrk not found (apt-get install wrk, or `make bench`): only the Node load generator runs');
  const runNode = LOAD_GENS.includes('node') || !wrk;
  dataDir = mkdtempSync(join(tmpdir(), 'orch-bench-'));
  etcd = await startEmbeddedEtcd(join(dataDir, 'etcd'));
  log(`etcd at ${etcd.clientUrl}; raw create txns, concurrency 64, ${ETCD_SECONDS}s`);
  const etcdPid = findPidByCmdline(join(dataDir, 'etcd'));
  const raw = await benchRawEtcdCreates(etcd.clientUrl, 64, ETCD_SECONDS, etcdPid);
  log(`raw etcd: ${raw.perSecond.toFixed(0)} tx/s`);

  // --trace-gc-nvp: each phase reports the server's full GCs that fell in it (the GET tail's usual cause).
  const fullGcs = new FullGcTimeline();
  server = await startServerProcess(
    etcd.clientUrl,
    ['--trace-gc-nvp', ...SERVER_NODE_ARGS],
    [],
    undefined,
    fullGcs.onLine,
  );
  log(`apiserver pid ${server.pid} at ${server.url}`);
  const url = server.url;
  const setupAgent = new Agent({ keepAlive: true, maxSockets: 1 });
  const ns = await httpRequest(setupAgent, url, 'POST', '/api/v1/namespaces', namespaceBody);
  setupAgent.destroy();
  if (ns.status !== 201 && ns.status !== 409) throw new Error(`creating namespace bench: ${ns.status} ${ns.body}`);

  let counter = 0;
  const created: string[] = [];
  const createSpec = (concurrency: number, seconds: number) => ({
    workload: 'POST create Deployment',
    concurrency,
    seconds,
    next: () => {
      const name = `bench-${(counter++).toString(36)}`;
      return { method: 'POST', path: DEPLOYMENTS, body: deploymentBody(name), tag: name };
    },
    onSuccess: (req: LoadRequest) => {
      if (req.tag) created.push(req.tag);
    },
  });
  const getSpec = (concurrency: number, seconds: number) => ({
    workload: 'GET Deployment',
    concurrency,
    seconds,
    next: () => ({ method: 'GET', path: `${DEPLOYMENTS}/${created[Math.floor(Math.random() * created.length)]}` }),
  });

  const warmup = Math.min(2, SECONDS);
  log(`warm-up ${warmup}s (creates then GETs, concurrency 16, not reported)`);
  await runLoad(url, createSpec(16, warmup));
  await runLoad(url, getSpec(16, warmup));

  // Order: creates (node, then wrk), then GETs (node, then wrk) of the Deployments the Node phases created, so both
  // generators' GET phases see the same data.
  const wrkSeconds = Math.max(1, Math.round(SECONDS));
  const results: PhaseResult[] = [raw];
  const dir = dataDir;
  /** `phase`'s result with the full GCs of the server that fell in it. */
  const timed = async (phase: () => Promise<PhaseResult>): Promise<PhaseResult> => {
    const from = Date.now();
    const result = await phase();
    return { ...result, fullGcPausesMs: fullGcs.pausesBetween(from, Date.now()) };
  };
  const wrkPhase = async (workload: string, c: number, script: string, file: string): Promise<void> => {
    log(`${workload} (wrk), concurrency ${c}, ${wrkSeconds}s`);
    const r = await timed(() =>
      runWrk(
        wrk!,
        url,
        { workload, concurrency: c, seconds: wrkSeconds, script, scriptPath: join(dir, file) },
        server?.pid,
        etcdPid,
        log,
      ),
    );
    results.push(r);
  };
  for (const c of PHASES.includes('create') ? LEVELS : []) {
    if (!runNode) continue;
    log(`creates (node), concurrency ${c}, ${SECONDS}s`);
    results.push(await timed(() => runLoad(url, createSpec(c, SECONDS), server?.pid, etcdPid)));
  }
  for (const c of PHASES.includes('create') && wrk ? LEVELS : []) {
    await wrkPhase('POST create Deployment', c, createScript(`wrk-c${c}-`), `create-c${c}.lua`);
  }
  if (created.length === 0) throw new Error('no Deployment was created; cannot measure GETs');
  if (PAUSE_BEFORE_GETS_SECONDS > 0) {
    log(`pausing ${PAUSE_BEFORE_GETS_SECONDS}s before the GET phases (BENCH_PAUSE_BEFORE_GETS)`);
    await new Promise((r) => setTimeout(r, PAUSE_BEFORE_GETS_SECONDS * 1000));
  }
  for (const c of PHASES.includes('get') && runNode ? LEVELS : []) {
    log(`GETs (node), concurrency ${c}, ${SECONDS}s`);
    results.push(await timed(() => runLoad(url, getSpec(c, SECONDS), server?.pid, etcdPid)));
  }
  if (PHASES.includes('get') && wrk) {
    const namesFile = join(dir, 'get-names.txt');
    writeFileSync(namesFile, `${created.join('\n')}\n`);
    for (const c of LEVELS) await wrkPhase('GET Deployment', c, getScript(namesFile, Math.min(c, 2)), `get-c${c}.lua`);
  }
  await cleanup();

  const basis: LoadGen = wrk ? 'wrk' : 'node';
  const targets = evaluateTargets(results, raw, basis);
  const reference =
    basis === 'wrk' && runNode
      ? [
          'For reference, the same targets on the Node load generator phases (not the basis of PASS/FAIL):',
          '',
          ...targetLines(evaluateTargets(results, raw, 'node')),
        ]
      : [];
  const basisNote = wrk
    ? `Targets are evaluated on the wrk phases (${wrkVersion(wrk)}); the Node load generator phases are reported as well.`
    : 'wrk was not available (or BENCH_LOAD_GENS excluded it): targets are evaluated on the Node load generator phases.';

  const notes = [
    `Each server phase runs ${SECONDS}s closed-loop (BENCH_SECONDS) after a ${warmup}s warm-up; raw etcd runs ${ETCD_SECONDS}s (BENCH_ETCD_SECONDS).`,
    'Load generators: `node` = node:http keep-alive agent in the bench process, maxSockets = concurrency (it also runs the raw etcd client); ' +
      `\`wrk\` = \`wrk -t<min(c,2)> -c<c> -d${wrkSeconds}s --timeout 10s --latency -s <lua>\`, keep-alive, one request in flight per connection; its Lua script POSTs Deployments named \`wrk-c<c>-<thread>-<n>\` (per-thread counter, \`Content-Type: application/json\`) or GETs the Deployments the Node phases created, each thread rotating through the list from its own offset, and prints exact p50/p99 (\`latency:percentile\`, µs), status counts and its own CPU (\`os.clock()\`) from \`done()\`. ` +
      'The apiserver is a separate process (`--log-level warn`); all phases use the same fresh local etcd. Phase order: creates node, creates wrk, GETs node, GETs wrk (the wrk create phases start with more keys in etcd).',
    'Req/s counts every completed request; errors (any non-2xx status, or transport/socket errors: connect, read, write, timeout) are listed per status. The ratio uses successful creates only.',
    'CPU: user+system CPU during the phase of the apiserver and etcd processes (from /proc) and of the load generator (node: this process; wrk: the wrk process, all threads); 100% = one core, the machine has ' +
      String(cpus().length) +
      '; the server\'s JavaScript is single-threaded. "other" is the rest of the machine\'s busy CPU (kernel, other processes, and the idle bench process during wrk phases): a high value means the run was disturbed.',
    basisNote,
    "The server runs with `node --trace-gc-nvp`: a phase's full GCs are the mark-compacts whose trace lines reached the bench during it (the GET target line names those of its phase).",
    ...(SERVER_NODE_ARGS.length > 0
      ? [`The server ran with node flags \`${SERVER_NODE_ARGS.join(' ')}\` (BENCH_SERVER_NODE_ARGS).`]
      : []),
  ];
  process.stdout.write(
    `\n${resultTable(results).join('\n')}\n\n${basisNote}\n\n${targetLines(targets).join('\n')}\n${reference.length ? `\n${reference.join('\n')}\n` : ''}`,
  );
  if (WRITE_DOCS) {
    const doc = join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md');
    prependSection(doc, markdownSection(new Date(), 'make bench', notes, results, targets, reference));
    log(`wrote ${doc}`);
  }
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    log(`${signal}: stopping`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.on('exit', () => server?.killNow());

main()
  .catch(async (err: unknown) => {
    if (interrupted) return;
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => cleanup());

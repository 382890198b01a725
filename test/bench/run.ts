// `make bench`: raw etcd create txns vs the apiserver (child process) over HTTP; prints a table and updates docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd, type EmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { benchRawEtcdCreates } from './etcd-raw';
import { httpRequest, runLoad, type LoadRequest } from './http-load';
import { startServerProcess, type ServerProcess } from './server-process';
import { markdownSection, prependSection, resultTable, targetLines, type Target } from './report';
import { findPidByCmdline, type PhaseResult } from './stats';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';

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

async function main(): Promise<void> {
  if (!(SECONDS > 0) || !(ETCD_SECONDS > 0)) throw new Error('BENCH_SECONDS and BENCH_ETCD_SECONDS must be positive numbers');
  dataDir = mkdtempSync(join(tmpdir(), 'orch-bench-'));
  etcd = await startEmbeddedEtcd(join(dataDir, 'etcd'));
  log(`etcd at ${etcd.clientUrl}; raw create txns, concurrency 64, ${ETCD_SECONDS}s`);
  const etcdPid = findPidByCmdline(join(dataDir, 'etcd'));
  const raw = await benchRawEtcdCreates(etcd.clientUrl, 64, ETCD_SECONDS, etcdPid);
  log(`raw etcd: ${raw.perSecond.toFixed(0)} tx/s`);

  server = await startServerProcess(etcd.clientUrl, SERVER_NODE_ARGS);
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

  const results: PhaseResult[] = [raw];
  for (const c of PHASES.includes('create') ? LEVELS : []) {
    log(`creates, concurrency ${c}, ${SECONDS}s`);
    results.push(await runLoad(url, createSpec(c, SECONDS), server.pid, etcdPid));
  }
  if (created.length === 0) throw new Error('no Deployment was created; cannot measure GETs');
  for (const c of PHASES.includes('get') ? LEVELS : []) {
    log(`GETs, concurrency ${c}, ${SECONDS}s`);
    results.push(await runLoad(url, getSpec(c, SECONDS), server.pid, etcdPid));
  }
  await cleanup();

  const create64 = results.find((r) => r.workload.startsWith('POST') && r.concurrency === 64);
  const get16 = results.find((r) => r.workload.startsWith('GET') && r.concurrency === 16);
  const ratio = create64 ? successPerSecond(create64) / successPerSecond(raw) : Number.NaN;
  const targets: Target[] = [
    {
      name: `server creates/s at concurrency 64 ÷ raw etcd create tx/s ≥ ${RATIO_TARGET * 100}%`,
      measured: create64
        ? `${(ratio * 100).toFixed(1)}% (${successPerSecond(create64).toFixed(0)} successful creates/s ÷ ${successPerSecond(raw).toFixed(0)} tx/s)`
        : 'not measured (BENCH_PHASES)',
      pass: ratio >= RATIO_TARGET,
    },
    {
      name: `GET p99 at concurrency 16 < ${GET_P99_TARGET_MS} ms (and no errors)`,
      measured: get16 ? `${get16.p99Ms.toFixed(2)} ms (p50 ${get16.p50Ms.toFixed(2)} ms, ${get16.errors} errors)` : 'not measured (BENCH_PHASES)',
      pass: get16 !== undefined && get16.p99Ms < GET_P99_TARGET_MS && get16.errors === 0,
    },
  ];

  const notes = [
    `Each server phase runs ${SECONDS}s closed-loop (BENCH_SECONDS) after a ${warmup}s warm-up; raw etcd runs ${ETCD_SECONDS}s (BENCH_ETCD_SECONDS).`,
    'Load generator: node:http keep-alive agent, maxSockets = concurrency; the apiserver is a separate process (`--log-level warn`); both use the same fresh local etcd.',
    'Req/s counts every completed request; errors (non-2xx or transport) are listed per status. The ratio uses successful creates only.',
    'CPU: user+system CPU during the phase of the apiserver and etcd processes (from /proc) and of the load generator (which also runs the raw etcd client); 100% = one core, the machine has ' + String(cpus().length) + '; the server\'s JavaScript is single-threaded. "other" is the rest of the machine\'s busy CPU (kernel, other processes): a high value means the run was disturbed.',
  ];
  process.stdout.write(`\n${resultTable(results).join('\n')}\n\n${targetLines(targets).join('\n')}\n`);
  if (WRITE_DOCS) {
    const doc = join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md');
    prependSection(doc, markdownSection(new Date(), 'make bench', notes, results, targets));
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

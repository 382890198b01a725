// Where a consistent GET's time goes at concurrency 16: wrk GETs of Deployments (no resourceVersion) against a server
// started with get-phases-preload.js, which splits each GET's time in the server into its parts (see there), with the
// event-loop delay and GC pauses of the same phase; plus, per build, a phase without the preload for plain wrk figures.
// BENCH_BASE_SCRIPT=<another build's dist/cmd/apiserver.js> runs that build too, alternating per round, on one etcd.
// Run: `node dist/test/bench/get-phases.js` (BENCH_GET_PHASES_ROUNDS=2, BENCH_GET_PHASES_SECONDS=8), or
// `make bench-get-phases`.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { abBuilds, withWrkAndEtcd, type Build } from './ab-on-one-etcd';
import { runBench } from './bench-server';
import { createObjects } from './get-objects';
import { LOAD_AT_START, machineDescription, publishSection } from './report';
import { startServerProcess } from './server-process';
import { getScript, runWrk } from './wrk-load';

const ROUNDS = Number(process.env['BENCH_GET_PHASES_ROUNDS'] ?? 2);
const SECONDS = Number(process.env['BENCH_GET_PHASES_SECONDS'] ?? 8);
const BASE = process.env['BENCH_BASE_SCRIPT'];
/**
 * Warm-up GETs per fresh server: past etcd's first progress notification (5 s), which brings the Deployment cache over
 * the server's own start-up writes to uncached keys (leader election); before it, every GET falls back to etcd.
 */
const WARMUP_SECONDS = Number(process.env['BENCH_GET_PHASES_WARMUP'] ?? 6);
const CONCURRENCY = 16;
const OBJECTS = 100;

type Quantiles = Record<'p50' | 'p90' | 'p99' | 'max' | 'mean', number>;
const PARTS = ['total', 'beforeAsk', 'waitReadStart', 'etcdRead', 'cacheCatchUp', 'serve'] as const;
interface Phases {
  gets: number;
  fellBackToEtcd: number;
  all: Record<(typeof PARTS)[number], Quantiles>;
  slowest1pct: { count: number; means: Record<(typeof PARTS)[number], number>; overlapGcShare: number };
  overlapGcShareAll: number;
  reads: { count: number; rtt: Quantiles; getsPerRead: Quantiles };
  gc: { count: number; pauseMs: Quantiles };
  loopDelayMs: { p50: number; p99: number; max: number; mean: number };
}
interface Row {
  build: string;
  preload: boolean;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  phases?: Phases;
}

const builds = abBuilds(BASE);

async function main(): Promise<void> {
  const rows = await withWrkAndEtcd('get-phases', async (wrk, etcdUrl, dir) => {
    const rows: Row[] = [];
    const names = Array.from({ length: OBJECTS }, (_, i) => `phases-${i}`);
    writeFileSync(join(dir, 'names'), names.join('\n'));
    await createObjects(etcdUrl, names);
    for (let round = 0; round < ROUNDS; round++) {
      for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
        for (const preload of [true, false]) {
          process.stderr.write(`round ${round + 1}: ${build.name}${preload ? ' with the phase preload' : ''}\n`);
          rows.push(await phase(wrk, etcdUrl, build, preload, dir));
        }
      }
    }
    return rows;
  });
  publishSection(report(rows));
}

let phaseCount = 0;

/** A fresh server of `build`: WARMUP_SECONDS of warm-up GETs, then the measured phase (its parts read through SIGUSR2). */
async function phase(wrk: string, etcdUrl: string, build: Build, preload: boolean, dir: string): Promise<Row> {
  const outFile = join(dir, `phases-${++phaseCount}.json`);
  process.env['GET_PHASES_OUT'] = outFile;
  const nodeArgs = preload ? ['--require', join(__dirname, 'get-phases-preload.js')] : [];
  const server = await startServerProcess(etcdUrl, nodeArgs, [], build.script);
  try {
    const spec = (seconds: number): Parameters<typeof runWrk>[2] => ({
      workload: 'GET Deployment',
      concurrency: CONCURRENCY,
      seconds,
      script: getScript(join(dir, 'names'), 2),
      scriptPath: join(dir, 'get.lua'),
    });
    await runWrk(wrk, server.url, spec(WARMUP_SECONDS));
    if (preload) process.kill(server.pid, 'SIGUSR2');
    const r = await runWrk(wrk, server.url, spec(SECONDS), server.pid);
    let phases: Phases | undefined;
    if (preload) {
      process.kill(server.pid, 'SIGUSR2');
      phases = await readWhenWritten(`${outFile}.2`);
      process.stderr.write(`${JSON.stringify(phases)}\n`);
    }
    return {
      build: build.name,
      preload,
      perSecond: r.perSecond,
      p50Ms: r.p50Ms,
      p99Ms: r.p99Ms,
      errors: r.errors,
      phases,
    };
  } finally {
    await server.stop();
  }
}

async function readWhenWritten(file: string): Promise<Phases> {
  for (let i = 0; i < 100; i++) {
    try {
      return JSON.parse(readFileSync(file, 'utf8')) as Phases;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`the server wrote no ${file}`);
}

function report(rows: Row[]): string {
  const f = (v: number | null | undefined, digits = 2): string =>
    typeof v !== 'number' || Number.isNaN(v) ? '–' : v.toFixed(digits);
  const q = (x: Quantiles): string => `${f(x.p50)} / ${f(x.p99)} / ${f(x.mean)}`;
  const wrkRows = rows.map(
    (r) =>
      `| ${r.build} | ${r.preload ? 'yes' : 'no'} | ${f(r.perSecond, 0)} | ${f(r.p50Ms)} | ${f(r.p99Ms, 1)} | ${r.errors} |`,
  );
  const measured = rows.filter((r): r is Row & { phases: Phases } => r.phases !== undefined);
  const partRows = PARTS.map(
    (p) =>
      `| ${p} | ${measured.map((r) => `${q(r.phases.all[p])} (slow 1 %: ${f(r.phases.slowest1pct.means[p])})`).join(' | ')} |`,
  );
  const extra = (label: string, value: (p: Phases) => string): string =>
    `| ${label} | ${measured.map((r) => value(r.phases)).join(' | ')} |`;
  return [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — where a consistent GET's time goes at concurrency 16`,
    '',
    `Command: \`node dist/test/bench/get-phases.js\` (BENCH_GET_PHASES_ROUNDS=${ROUNDS}, BENCH_GET_PHASES_SECONDS=${SECONDS}${BASE ? `, BENCH_BASE_SCRIPT=${BASE}` : ''}). ${LOAD_AT_START > 2 ? `NOISY: 1-minute load average ${LOAD_AT_START.toFixed(1)} before the run.` : ''}`,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    `One embedded etcd with ${OBJECTS} Deployments; per round and build (order alternating by round) a fresh server with the phase preload (\`--require dist/test/bench/get-phases-preload.js\`), then one without; ${WARMUP_SECONDS} s of warm-up (past etcd's first progress notification, so the cache serves), then \`wrk -t2 -c${CONCURRENCY} -d${SECONDS}s\` GETs without resourceVersion (consistent reads). Parts of each GET in the server, ms: beforeAsk = arrival to the consistent read's revision ask (handler chain), waitReadStart = ask to the start of the etcd revision read that serves it, etcdRead = that read's round trip as JavaScript sees it, cacheCatchUp = its answer to the cache having caught up, serve = from there to the response's end.`,
    '',
    '| Build | Preload | GETs/s | wrk p50 ms | wrk p99 ms | Errors |',
    '|---|---|---:|---:|---:|---:|',
    ...wrkRows,
    '',
    `| Part: p50 / p99 / mean ms | ${measured.map((r) => r.build).join(' | ')} |`,
    `|---|${measured.map(() => '---').join('|')}|`,
    ...partRows,
    extra('GETs measured (fell back to etcd)', (p) => `${p.gets} (${p.fellBackToEtcd})`),
    extra('revision reads; GETs per read p50 / p99 / mean', (p) => `${p.reads.count}; ${q(p.reads.getsPerRead)}`),
    extra(
      'event-loop delay p50 / p99 / max ms',
      (p) => `${f(p.loopDelayMs.p50)} / ${f(p.loopDelayMs.p99)} / ${f(p.loopDelayMs.max)}`,
    ),
    extra('GC pauses: count; p50 / p99 / mean ms', (p) => `${p.gc.count}; ${q(p.gc.pauseMs)}`),
    extra(
      'share overlapping a GC pause: all / slowest 1 %',
      (p) => `${f(100 * p.overlapGcShareAll, 0)} % / ${f(100 * p.slowest1pct.overlapGcShare, 0)} %`,
    ),
    '',
  ].join('\n');
}

runBench(main);

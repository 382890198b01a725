// GET tail at concurrency 16 and what the scavenges keep: wrk GETs of Deployments against a server started with
// `node --trace-gc-nvp`, with V8's figures per young-generation collection (pause, bytes surviving, bytes promoted)
// summed over the measured phase. Two workloads: a consistent GET (no resourceVersion: etcd's revision read, then the
// watch cache) and its control, the same GET with resourceVersion=0 (the watch cache alone); then the etcd revision
// reads alone over bare node:http2 (h2-unary-gc.ts), their streams opened by Node's session.request() and by the
// server's requestStream(). BENCH_BASE_SCRIPT=<another build's dist/cmd/apiserver.js> runs that build too, alternating
// with this one per round, on the same etcd.
// Run: `node dist/test/bench/get-tail.js` (BENCH_GET_TAIL_ROUNDS=2, BENCH_GET_TAIL_SECONDS=8).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { abBuilds, withWrkAndEtcd, type Build } from './ab-on-one-etcd';
import { runBench } from './bench-server';
import { parseNvpLine, summarizeGc, type GcRecord, type GcSummary } from './gc-trace';
import { LOAD_AT_START, machineDescription, publishSection } from './report';
import { startServerProcess } from './server-process';
import { createObjects } from './get-objects';
import { getScript, runWrk } from './wrk-load';

const ROUNDS = Number(process.env['BENCH_GET_TAIL_ROUNDS'] ?? 2);
const SECONDS = Number(process.env['BENCH_GET_TAIL_SECONDS'] ?? 8);
const BASE = process.env['BENCH_BASE_SCRIPT'];
const CONCURRENCY = 16;
const OBJECTS = 100;

interface Row {
  build: string;
  workload: string;
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  gc: GcSummary;
}

const builds = abBuilds(BASE);

async function main(): Promise<void> {
  const rows = await withWrkAndEtcd('get-tail', async (wrk, etcdUrl, dir) => {
    const rows: Row[] = [];
    const names = Array.from({ length: OBJECTS }, (_, i) => `tail-${i}`);
    writeFileSync(join(dir, 'names'), names.join('\n'));
    writeFileSync(join(dir, 'names-rv0'), names.map((n) => `${n}?resourceVersion=0`).join('\n'));
    await createObjects(etcdUrl, names);
    for (let round = 0; round < ROUNDS; round++) {
      for (const build of builds) {
        for (const [workload, file] of [
          ['GET (consistent read)', 'names'],
          ['GET ?resourceVersion=0 (control)', 'names-rv0'],
        ] as const) {
          process.stderr.write(`round ${round + 1}: ${build.name}, ${workload}\n`);
          rows.push(await phase(wrk, etcdUrl, build, workload, join(dir, file), dir));
        }
      }
      rows.push(await h2Alone(etcdUrl, 'session.request'));
      rows.push(await h2Alone(etcdUrl, 'request-stream'));
    }
    return rows;
  });
  publishSection(report(rows));
}

/** A fresh server of `build`: 6 s of warm-up GETs, then the measured phase with the GC lines written during it. */
async function phase(
  wrk: string,
  etcdUrl: string,
  build: Build,
  workload: string,
  namesFile: string,
  dir: string,
): Promise<Row> {
  const records: GcRecord[] = [];
  let measuring = false;
  const server = await startServerProcess(etcdUrl, ['--trace-gc-nvp'], [], build.script, (line) => {
    const record = measuring ? parseNvpLine(line) : undefined;
    if (record) records.push(record);
  });
  try {
    const script = getScript(namesFile, 2);
    const spec = (seconds: number): Parameters<typeof runWrk>[2] => ({
      workload,
      concurrency: CONCURRENCY,
      seconds,
      script,
      scriptPath: join(dir, 'get.lua'),
    });
    // 6 s: past etcd's first progress notification (5 s), before which a fresh server's consistent GETs read etcd.
    await runWrk(wrk, server.url, spec(6));
    measuring = true;
    const r = await runWrk(wrk, server.url, spec(SECONDS), server.pid);
    measuring = false;
    return { ...r, build: build.name, workload, gc: summarizeGc(records) };
  } finally {
    await server.stop();
  }
}

/**
 * h2-unary-gc.ts under --trace-gc-nvp: the revision reads alone, 4 in flight, no server; streams opened by Node's
 * session.request() or by the server's requestStream().
 */
function h2Alone(etcdUrl: string, opener: 'session.request' | 'request-stream'): Promise<Row> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--trace-gc-nvp', join(__dirname, 'h2-unary-gc.js'), etcdUrl, '4', String(SECONDS), opener],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', () => {
      const lines = out.split('\n');
      const records = lines.map(parseNvpLine).filter((r): r is GcRecord => r !== undefined);
      const calls = Number(/H2_UNARY_CALLS (\d+)/.exec(out)?.[1] ?? Number.NaN);
      resolve({
        build:
          opener === 'request-stream' ? 'node:http2 alone, requestStream()' : 'node:http2 alone, session.request()',
        workload: 'etcd revision read (count-only Range), 4 in flight',
        requests: calls,
        perSecond: calls / SECONDS,
        p50Ms: Number.NaN,
        p99Ms: Number.NaN,
        errors: 0,
        gc: summarizeGc(records),
      });
    });
  });
}

function report(rows: Row[]): string {
  const f = (v: number, digits = 1): string => (Number.isNaN(v) ? '–' : v.toFixed(digits));
  const lines = rows.map((r) => {
    const perReq = r.requests > 0 ? r.gc.promotedTotalBytes / r.requests : Number.NaN;
    const gcShare = (100 * r.gc.scavengeMs) / (SECONDS * 1000);
    return `| ${r.build} | ${r.workload} | ${f(r.perSecond, 0)} | ${f(r.p50Ms, 2)} | ${f(r.p99Ms, 1)} | ${r.errors} | ${r.gc.scavenges} | ${f(r.gc.pauseAvgMs, 2)} / ${f(r.gc.pauseP90Ms)} / ${f(r.gc.pauseMaxMs)} | ${f(gcShare)}% | ${f(r.gc.allocatedMb)} | ${f(r.gc.survivedKb, 0)} | ${f(r.gc.promotedKb, 0)} | ${f(perReq, 0)} | ${r.gc.markCompacts} (${f(r.gc.markCompactMs)} ms) |`;
  });
  return [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — GET tail at concurrency 16 and scavenge survivors`,
    '',
    `Command: \`node dist/test/bench/get-tail.js\` (BENCH_GET_TAIL_ROUNDS=${ROUNDS}, BENCH_GET_TAIL_SECONDS=${SECONDS}${BASE ? ', BENCH_BASE_SCRIPT=<base build>' : ''}). ${LOAD_AT_START > 2 ? `NOISY: 1-minute load average ${LOAD_AT_START.toFixed(1)} before the run.` : ''}`,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    `One embedded etcd with ${OBJECTS} Deployments; per round and build a fresh server (\`node --trace-gc-nvp\`, \`--log-level warn\`) per workload, 6 s of warm-up (past etcd's first progress notification: before it a fresh server's consistent GETs read etcd), then \`wrk -t2 -c${CONCURRENCY} -d${SECONDS}s\` rotating over the Deployments. GC figures are V8's own (\`--trace-gc-nvp\`) for the collections during the measured phase: per scavenge its pause (avg / p90 / max), the bytes it allocated since the previous one, kept in new space (survived) and moved to old space (promoted); "promoted B/req" is all promoted bytes ÷ requests. The last two rows of each round run the consistent read's etcd call alone (h2-unary-gc.ts) on a bare node:http2 session, its streams opened by Node's \`session.request()\` and by the server's \`requestStream()\` (lib/storage/etcd/h2-request.ts).`,
    '',
    '| Build | Workload | Req/s | p50 ms | p99 ms | Errors | Scavenges | Pause ms avg / p90 / max | Scavenge time % | Allocated MB/scavenge | Survived KB/scavenge | Promoted KB/scavenge | Promoted B/req | Mark-compacts |',
    '|---|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|---|',
    ...lines,
    '',
  ].join('\n');
}

runBench(main);

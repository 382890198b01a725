// What a create costs in garbage collection: wrk Deployment creates at concurrency 64 against a fresh server started
// with `node --trace-gc-nvp`, V8's figures per young-generation collection summed over the measured phase: scavenges per
// 1,000 creates, bytes allocated per create (V8's `allocated` between scavenges), scavenge pause ms per create, and the
// server's CPU per create split into its main thread and its other threads (V8's parallel GC helpers among them).
// BENCH_BASE_SCRIPT=<another build's dist/cmd/apiserver.js> runs that build too, alternating with this one per round,
// on the same embedded etcd. BENCH_SERVER_NODE_ARGS: more node flags for the servers.
// Run: `node dist/test/bench/create-gc.js` (BENCH_CREATE_GC_ROUNDS=2, BENCH_CREATE_GC_SECONDS=10,
// BENCH_CREATE_GC_WARMUP=8).

import { join } from 'node:path';
import { Agent } from 'node:http';
import { abBuilds, withWrkAndEtcd, type Build } from './ab-on-one-etcd';
import { runBench } from './bench-server';
import { parseNvpLine, summarizeGc, type GcRecord, type GcSummary } from './gc-trace';
import { httpRequest } from './http-load';
import { LOAD_AT_START, machineDescription, publishSection } from './report';
import { startServerProcess } from './server-process';
import { threadMeter } from './thread-cpu';
import { namespaceBody } from './workloads';
import { createScript, runWrk } from './wrk-load';

const ROUNDS = Number(process.env['BENCH_CREATE_GC_ROUNDS'] ?? 2);
const SECONDS = Number(process.env['BENCH_CREATE_GC_SECONDS'] ?? 10);
const WARMUP = Number(process.env['BENCH_CREATE_GC_WARMUP'] ?? 8);
const BASE = process.env['BENCH_BASE_SCRIPT'];
const CONCURRENCY = 64;
/** BENCH_SERVER_NODE_ARGS: more node flags for the servers (e.g. `--cpu-prof`). */
const NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);

interface Row {
  build: string;
  creates: number;
  perSecond: number;
  errors: number;
  mainUs: number;
  otherUs: number;
  gc: GcSummary;
  allocatedBytes: number;
}

const builds = abBuilds(BASE);

async function main(): Promise<void> {
  const rows = await withWrkAndEtcd('create-gc', async (wrk, etcdUrl, dir) => {
    const rows: Row[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      for (const build of builds) {
        process.stderr.write(`round ${round + 1}: ${build.name}\n`);
        rows.push(await phase(wrk, etcdUrl, build, `r${round}${build.name}-`, dir));
      }
    }
    return rows;
  });
  publishSection(report(rows));
}

/** A fresh server of `build`: WARMUP s of creates, then the measured phase with the GC lines written during it. */
async function phase(wrk: string, etcdUrl: string, build: Build, prefix: string, dir: string): Promise<Row> {
  const records: GcRecord[] = [];
  let measuring = false;
  const server = await startServerProcess(etcdUrl, ['--trace-gc-nvp', ...NODE_ARGS], [], build.script, (line) => {
    const record = measuring ? parseNvpLine(line) : undefined;
    if (record) records.push(record);
  });
  try {
    const agent = new Agent({ keepAlive: false });
    const ns = await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', namespaceBody);
    agent.destroy();
    if (ns.status !== 201 && ns.status !== 409) throw new Error(`namespace: ${ns.status} ${ns.body}`);
    const spec = (name: string, seconds: number): Parameters<typeof runWrk>[2] => ({
      workload: 'create',
      concurrency: CONCURRENCY,
      seconds,
      script: createScript(`${prefix}${name}-`),
      scriptPath: join(dir, 'create.lua'),
    });
    await runWrk(wrk, server.url, spec('w', WARMUP));
    measuring = true;
    const meter = threadMeter({ server: server.pid });
    const r = await runWrk(wrk, server.url, spec('m', SECONDS), server.pid);
    const threads = meter()['server'];
    measuring = false;
    const n = Math.max(1, r.requests);
    const gc = summarizeGc(records);
    const allocated = records.filter((x) => x.kind === 'scavenge').reduce((s, x) => s + x.allocatedBytes, 0);
    return {
      build: build.name,
      creates: r.requests,
      perSecond: r.perSecond,
      errors: r.errors,
      mainUs: (threads?.get('main')?.runNs ?? 0) / 1000 / n,
      otherUs: (threads?.get('other threads')?.runNs ?? 0) / 1000 / n,
      gc,
      allocatedBytes: allocated / n,
    };
  } finally {
    await server.stop();
  }
}

function report(rows: Row[]): string {
  const f = (v: number, digits = 1): string => (Number.isNaN(v) ? '–' : v.toFixed(digits));
  const lines = rows.map((r) => {
    const n = Math.max(1, r.creates);
    return `| ${r.build} | ${r.creates} | ${f(r.perSecond, 0)} | ${r.errors} | ${f((1000 * r.gc.scavenges) / n, 2)} | ${f(r.allocatedBytes / 1024, 1)} | ${f((1000 * r.gc.scavengeMs) / n, 1)} | ${f(r.gc.pauseAvgMs, 2)} / ${f(r.gc.pauseMaxMs)} | ${f(r.gc.survivedKb, 0)} | ${f(r.gc.promotedKb, 0)} | ${f(r.mainUs, 0)} | ${f(r.otherUs, 0)} | ${r.gc.markCompacts} (${f(r.gc.markCompactMs)} ms) |`;
  });
  return [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — create at concurrency 64: scavenges and allocation per create`,
    '',
    `Command: \`node dist/test/bench/create-gc.js\` (BENCH_CREATE_GC_ROUNDS=${ROUNDS}, BENCH_CREATE_GC_SECONDS=${SECONDS}, BENCH_CREATE_GC_WARMUP=${WARMUP}${BASE ? ', BENCH_BASE_SCRIPT=<base build>' : ''}${NODE_ARGS.length ? `, BENCH_SERVER_NODE_ARGS="${NODE_ARGS.join(' ')}"` : ''}). ${LOAD_AT_START > 2 ? `NOISY: 1-minute load average ${LOAD_AT_START.toFixed(1)} before the run.` : ''}`,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    `One embedded etcd; per round and build a fresh server (\`node --trace-gc-nvp\`, \`--log-level warn\`), ${WARMUP} s of wrk creates to warm up, then \`wrk -t2 -c${CONCURRENCY} -d${SECONDS}s\` Deployment creates. GC figures are V8's own for the scavenges of the measured phase: per 1,000 creates, V8's allocated bytes between scavenges ÷ creates, the sum of scavenge pauses ÷ creates, pause avg / max, survived and promoted KB per scavenge. CPU per create from /proc/<pid>/task (main thread; other threads = V8's GC and compiler helpers, libuv).`,
    '',
    '| Build | Creates | Creates/s | Errors | Scavenges /1000 creates | Allocated kB/create | Scavenge µs/create | Pause ms avg / max | Survived KB/scavenge | Promoted KB/scavenge | Main thread µs/create | Other threads µs/create | Mark-compacts |',
    '|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|',
    ...lines,
    '',
  ].join('\n');
}

runBench(main);

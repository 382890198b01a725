// Exempt probes during a 2,000-request storm, this build against another (BENCH_BASE_SCRIPT=<other build>/dist/cmd/
// apiserver.js), servers alternating: `node dist/test/bench/apf-probe-ab.js`. Each server start runs one warm-up
// storm, then BENCH_APF_STORMS (default 3) storms with probes from their own process (as in apf-overload.ts); per
// storm the 200/429 split and the probes sent while it was in flight: wall ms and the server CPU used while they
// waited (the work ahead of them, which the machine's load does not stretch). Without BENCH_BASE_SCRIPT: this build only.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withBenchServer, runBench } from './bench-server';
import { probedStorm, storm } from './apf-overload';
import { probeTimingTable } from './probe-timing-summary';
import type { ProbeResult } from './apf-probe';

const BASE = process.env['BENCH_BASE_SCRIPT'];
const ROUNDS = Number(process.env['BENCH_APF_ROUNDS'] ?? 2);
const STORMS = Number(process.env['BENCH_APF_STORMS'] ?? 3);
const SMALL_SERVER = '--max-requests-inflight=6 --max-mutating-requests-inflight=4';
/** BENCH_SERVER_NODE_ARGS: node flags for the servers, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof". */
const NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
/** BENCH_APF_DECOMPOSE=1: the servers load probe-timing.js, and a second table says where the probes waited. */
const DECOMPOSE = process.env['BENCH_APF_DECOMPOSE'] === '1';
const THIS_BUILD = join(__dirname, '..', '..', 'cmd', 'apiserver.js');

interface Row {
  build: string;
  load: number;
  split: string;
  probes: number;
  notOk: number;
  wall: [number, number];
  cpu: [number, number];
  /** Wall ms per kind: /readyz (its etcd check) and the system:masters LIST. */
  readyz: [number, number];
  masters: [number, number];
}

const medianWorst = (values: number[]): [number, number] => {
  const sorted = [...values].sort((a, b) => a - b);
  return [sorted[Math.floor(sorted.length / 2)] ?? Number.NaN, sorted[sorted.length - 1] ?? Number.NaN];
};

async function runBuild(build: string, script: string, tokenFile: string): Promise<Row[]> {
  process.env['BENCH_SERVER_SCRIPT'] = script;
  process.env['BENCH_SERVER_ARGS'] = `${SMALL_SERVER} --token-auth-file=${tokenFile}`;
  return withBenchServer(
    'apf-probe-ab',
    async (server) => {
      await storm(server.url, 'storm-token');
      const rows: Row[] = [];
      for (let i = 0; i < STORMS; i++) {
        const load = loadavg()[0] ?? 0;
        const [result, probes] = await probedStorm(server, 'storm-token', 'admin-token');
        const during = probes.filter((p: ProbeResult) => p.sentMs >= 150 && p.sentMs < result.ms);
        rows.push({
          build,
          load,
          split: [...result.statuses].map(([st, n]) => `${st}×${n}`).join(', '),
          probes: during.length,
          notOk: probes.filter((p) => p.status !== 200).length,
          wall: medianWorst(during.map((p) => p.ms)),
          cpu: medianWorst(during.map((p) => p.serverCpuMs)),
          readyz: medianWorst(during.filter((p) => p.kind === 'readyz').map((p) => p.ms)),
          masters: medianWorst(during.filter((p) => p.kind === 'masters').map((p) => p.ms)),
        });
        process.stderr.write(`${JSON.stringify(rows[rows.length - 1])}\n`);
      }
      return rows;
    },
    DECOMPOSE ? [...NODE_ARGS, '--require', join(__dirname, 'probe-timing.js')] : NODE_ARGS,
  );
}

runBench(async () => {
  const tokenDir = mkdtempSync(join(tmpdir(), 'bench-apf-ab-'));
  const tokenFile = join(tokenDir, 'tokens.csv');
  const timingFile = join(tokenDir, 'probe-timing.jsonl');
  if (DECOMPOSE) process.env['BENCH_PROBE_TIMING_FILE'] = timingFile;
  const builds: [string, string][] = [['after', THIS_BUILD]];
  // BENCH_BASE_LABEL: the other build's name in the tables (e.g. an experiment such as paused-accept-server.js).
  if (BASE) builds.push([process.env['BENCH_BASE_LABEL'] ?? 'before', BASE]);
  const timings: string[] = [];
  writeFileSync(tokenFile, 'storm-token,storm,storm-uid\nadmin-token,admin,admin-uid,"system:masters"\n');
  const rows: Row[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 1 ? [...builds].reverse() : builds;
      for (const [build, script] of order) rows.push(...(await runBuild(build, script, tokenFile)));
    }
    if (DECOMPOSE) timings.push('', ...probeTimingTable(timingFile, builds));
  } finally {
    rmSync(tokenDir, { recursive: true, force: true });
  }
  const fmt = (v: number): string => v.toFixed(0);
  const lines = [
    `Command: \`node dist/test/bench/apf-probe-ab.js\` (BENCH_APF_ROUNDS=${ROUNDS}, BENCH_APF_STORMS=${STORMS}${BASE ? ', BENCH_BASE_SCRIPT=<base build>' : ''}${DECOMPOSE ? ', BENCH_APF_DECOMPOSE=1' : ''}), ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    '',
    '| Build | load | storm: statuses | probes in flight | not 200 | wall ms median / worst | server CPU ms while waiting, median / worst | /readyz ms | masters LIST ms |',
    '|---|---:|---|---:|---:|---|---|---|---|',
    ...rows.map(
      (row) =>
        `| ${row.build} | ${row.load.toFixed(1)} | ${row.split} | ${row.probes} | ${row.notOk} | ${fmt(row.wall[0])} / ${fmt(row.wall[1])} | ${fmt(row.cpu[0])} / ${fmt(row.cpu[1])} | ${fmt(row.readyz[0])} / ${fmt(row.readyz[1])} | ${fmt(row.masters[0])} / ${fmt(row.masters[1])} |`,
    ),
    ...timings,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
});

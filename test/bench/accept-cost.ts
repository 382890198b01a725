// What accepting a connection costs in the apiserver against a bare node:http server (issue 16: an exempt probe
// queued behind a storm's connections waits for all of them to be accepted). `node dist/test/bench/accept-cost.js`:
// per server start one warm-up storm then BENCH_ACCEPT_STORMS (default 3) storms of 2,000 GETs at once, each on a new
// connection, from this process (apf-overload.ts's storm); servers: `bare` (accept-bare-server.ts: answers 429 at
// once), `this` (this build's apiserver with a 10-seat APF limit, as apf-probe-ab.ts), and with BENCH_BASE_SCRIPT
// `base` (another build's dist/cmd/apiserver.js); BENCH_ACCEPT_ROUNDS (default 2) rounds, order alternating. Each
// server loads accept-stamp.js, which reports per storm: per-connection accept cost (the time between consecutive
// accepts of one accept loop), the share of it in 'connection' listeners, the longest accept loop, the CPU per request
// from the first accept to the last answer, GC, and the handling of each 429 (its request event). BENCH_SERVER_NODE_ARGS: more node flags for the servers (e.g.
// "--cpu-prof --cpu-prof-dir=/tmp/prof").
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withBenchServer, runBench } from './bench-server';
import { storm } from './apf-overload';
import type { BurstLine } from './accept-stamp';

const BASE = process.env['BENCH_BASE_SCRIPT'];
const ROUNDS = Number(process.env['BENCH_ACCEPT_ROUNDS'] ?? 2);
const STORMS = Number(process.env['BENCH_ACCEPT_STORMS'] ?? 3);
const SMALL_SERVER = '--max-requests-inflight=6 --max-mutating-requests-inflight=4';
const NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
const THIS_BUILD = join(__dirname, '..', '..', 'cmd', 'apiserver.js');
const BARE = join(__dirname, 'accept-bare-server.js');
const GC_KINDS: Record<string, string> = { '1': 'scavenge', '2': 'mark-compact', '4': 'incremental', '8': 'weak' };

interface Row {
  build: string;
  load: number;
  split: string;
  /** Epoch ms the storm's first request was sent. */
  sent: number;
  line: BurstLine;
}

function burstLines(file: string): BurstLine[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as BurstLine);
}

async function runBuild(build: string, script: string, tokenFile: string, file: string): Promise<Row[]> {
  process.env['BENCH_SERVER_SCRIPT'] = script;
  process.env['BENCH_SERVER_ARGS'] = `${SMALL_SERVER} --token-auth-file=${tokenFile}`;
  return withBenchServer(
    'accept-cost',
    async (server) => {
      await storm(server.url, 'storm-token');
      const rows: Row[] = [];
      for (let i = 0; i < STORMS; i++) {
        await new Promise((r) => setTimeout(r, 1000)); // the previous storm's burst line written
        const before = burstLines(file).length;
        const load = loadavg()[0] ?? 0;
        const sent = performance.timeOrigin + performance.now();
        const result = await storm(server.url, 'storm-token');
        await new Promise((r) => setTimeout(r, 1000));
        const lines = burstLines(file).slice(before);
        const line = lines.reduce<BurstLine | undefined>(
          (big, l) => (big === undefined || l.connections > big.connections ? l : big),
          undefined,
        );
        if (!line) throw new Error(`${build}: no burst line written`);
        rows.push({ build, load, split: [...result.statuses].map(([st, n]) => `${st}×${n}`).join(', '), sent, line });
        process.stderr.write(`${build} ${JSON.stringify(line)}\n`);
      }
      return rows;
    },
    [...NODE_ARGS, '--require', join(__dirname, 'accept-stamp.js')],
  );
}

runBench(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bench-accept-cost-'));
  const tokenFile = join(dir, 'tokens.csv');
  const file = join(dir, 'bursts.jsonl');
  process.env['BENCH_ACCEPT_COST_FILE'] = file;
  writeFileSync(tokenFile, 'storm-token,storm,storm-uid\nadmin-token,admin,admin-uid,"system:masters"\n');
  const builds: [string, string][] = [
    ['bare', BARE],
    ['this', THIS_BUILD],
  ];
  if (BASE) builds.push(['base', BASE]);
  const rows: Row[] = [];
  try {
    for (let r = 0; r < ROUNDS; r++) {
      const order = r % 2 === 1 ? [...builds].reverse() : builds;
      for (const [build, script] of order) rows.push(...(await runBuild(build, script, tokenFile, file)));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const f1 = (v: number): string => v.toFixed(1);
  const f0 = (v: number): string => v.toFixed(0);
  const lines = [
    `Command: \`node dist/test/bench/accept-cost.js\` (BENCH_ACCEPT_ROUNDS=${ROUNDS}, BENCH_ACCEPT_STORMS=${STORMS}${BASE ? ', BENCH_BASE_SCRIPT=<base build>' : ''}${NODE_ARGS.length ? `, BENCH_SERVER_NODE_ARGS="${NODE_ARGS.join(' ')}"` : ''}), ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')}`,
    '',
    '| Server | load | storm: statuses | connections | accept loops | accept µs per connection: mean / median | of it in connection listeners µs | longest loop: ms (connections) | first SYN sent → last accepted ms | CPU µs per request (first accept → last answer) | GC ms (count; by kind) | 429 in the request event µs: median / mean |',
    '|---|---:|---|---:|---:|---|---:|---|---:|---:|---|---|',
    ...rows.map(({ build, load, split, sent, line: l }) => {
      const mean = l.inRunGaps ? (l.inRunGapMs / l.inRunGaps) * 1000 : Number.NaN;
      return `| ${build} | ${load.toFixed(1)} | ${split} | ${l.connections} | ${l.runs} | ${f1(mean)} / ${f1(l.medianGapUs)} | ${f1((l.listenerMs / l.connections) * 1000)} | ${f1(l.longestRunMs)} (${l.longestRunConnections}) | ${f0(l.lastAccept - sent)} | ${f0((l.cpuMs / l.requests) * 1000)} | ${f0(l.gcMs)} (${l.gcCount}; ${Object.entries(
        l.gcByKind,
      )
        .map(([k, ms]) => `${GC_KINDS[k] ?? k} ${f0(ms)}`)
        .join(', ')}) | ${f1(l.rejectedMedianUs)} / ${f1(l.rejectedMeanUs)} |`;
    }),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
});

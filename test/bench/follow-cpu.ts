// `node dist/test/bench/follow-cpu.js`: the CPU a server pays to follow each etcd write into its watch cache (the cost
// every further --workers process adds to every create), in alternating rounds of this build and, with
// BENCH_AB_SERVER_SCRIPT=<another build's dist/cmd/apiserver.js>, that build, on one embedded etcd. Deployments are
// written straight into etcd while the server only follows (watch-follow.ts); its CPU comes from /proc.
// BENCH_FOLLOW_ROUNDS (default 5), BENCH_FOLLOW_WRITES (default 3000); BENCH_FOLLOW_PROF=<dir> adds --cpu-prof.
// BENCH_FOLLOW_CONCURRENT=1 (with BENCH_AB_SERVER_SCRIPT): both builds' servers follow the same writes at the same
// time in each round (the order they start in alternating), so a machine loaded by others slows both alike.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { httpRequest } from './http-load';
import { LOAD_AT_START, machineDescription, publishSection } from './report';
import { startServerProcess } from './server-process';
import { median } from './stats';
import { measureFollowCost, measureFollowCosts } from './watch-follow';
import { namespaceBody } from './workloads';

const ROUNDS = Number(process.env['BENCH_FOLLOW_ROUNDS'] ?? 5);
const WRITES = Number(process.env['BENCH_FOLLOW_WRITES'] ?? 3000);
const AB_SCRIPT = process.env['BENCH_AB_SERVER_SCRIPT'];
const PROF_DIR = process.env['BENCH_FOLLOW_PROF'];
const CONCURRENT = process.env['BENCH_FOLLOW_CONCURRENT'] === '1' && AB_SCRIPT !== undefined;
const THIS_SCRIPT = join(__dirname, '..', '..', 'cmd', 'apiserver.js');

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-bench-follow-'));
  const etcd = await startEmbeddedEtcd(join(dataDir, 'etcd'));
  const builds: [string, string][] = [['this build', THIS_SCRIPT]];
  if (AB_SCRIPT !== undefined) builds.unshift(['base', AB_SCRIPT]);
  const perWrite = new Map<string, number[]>(builds.map(([name]) => [name, []]));
  try {
    const first = await startServerProcess(etcd.clientUrl, [], [], THIS_SCRIPT);
    const agent = new Agent({ keepAlive: false });
    await httpRequest(agent, first.url, 'POST', '/api/v1/namespaces', namespaceBody);
    agent.destroy();
    await first.stop();
    const nodeArgs = PROF_DIR === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${PROF_DIR}`];
    for (let round = 0; CONCURRENT && round < ROUNDS; round++) {
      const order = round % 2 === 0 ? builds : [...builds].reverse();
      const servers = [];
      try {
        for (const [, script] of order) servers.push(await startServerProcess(etcd.clientUrl, nodeArgs, [], script));
        const costs = await measureFollowCosts(servers, etcd.clientUrl, WRITES, `r${round}both`);
        order.forEach(([name], i) => {
          const us = (costs[i]?.msPerWrite ?? NaN) * 1000;
          perWrite.get(name)?.push(us);
          process.stderr.write(
            `round ${round} ${name} (followers side by side): ${us.toFixed(1)} µs per followed write\n`,
          );
        });
      } finally {
        await Promise.all(servers.map((server) => server.stop()));
      }
    }
    for (let round = 0; !CONCURRENT && round < ROUNDS; round++) {
      for (const [name, script] of round % 2 === 0 ? builds : [...builds].reverse()) {
        const server = await startServerProcess(etcd.clientUrl, nodeArgs, [], script);
        try {
          const f = await measureFollowCost(server, etcd.clientUrl, WRITES, `r${round}${name.replace(/\W/g, '')}`);
          perWrite.get(name)?.push(f.msPerWrite * 1000);
          process.stderr.write(`round ${round} ${name}: ${(f.msPerWrite * 1000).toFixed(1)} µs per followed write\n`);
        } finally {
          await server.stop();
        }
      }
    }
  } finally {
    await etcd.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const rows = builds.map(([name]) => {
    const xs = perWrite.get(name) ?? [];
    return `| ${name} | ${median(xs).toFixed(1)} | ${xs.map((x) => x.toFixed(0)).join(', ')} |`;
  });
  publishSection(
    [
      `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — server CPU per followed etcd write`,
      '',
      `Command: \`node dist/test/bench/follow-cpu.js\` (BENCH_FOLLOW_ROUNDS=${ROUNDS}, BENCH_FOLLOW_WRITES=${WRITES}${AB_SCRIPT === undefined ? '' : `, BENCH_AB_SERVER_SCRIPT=${AB_SCRIPT}`}): Deployments written straight into one embedded etcd (8 writers) while a fresh server only follows; its CPU from /proc with its idle CPU subtracted, builds alternating per round${CONCURRENT ? ' (both builds following the same writes side by side in each round, BENCH_FOLLOW_CONCURRENT=1)' : ''}. ${LOAD_AT_START > 2 ? `NOISY: 1-minute load average ${LOAD_AT_START.toFixed(1)} before the run.` : ''}`,
      '',
      'Machine:',
      '',
      ...machineDescription(),
      '',
      '| Build | µs CPU per followed write (median) | rounds |',
      '|---|---:|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

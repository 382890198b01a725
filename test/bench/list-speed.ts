// `make bench-list-speed`: LIST of 10,000 Deployments of ~2 KiB from the watch cache (resourceVersion=0 and the
// consistent read) against the raw etcd range + decode of the same objects, round by round (list-timing.ts), with
// the server's CPU per LIST. BENCH_AB_SERVER_SCRIPT=<another build's dist/cmd/apiserver.js> starts that build too,
// on the same etcd, and times both in the same rounds (A/B). Prepends a section to docs/benchmarks.md.
import { Agent } from 'node:http';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { runBench, withBenchServer } from './bench-server';
import { fillDeployments, listSpeedRows, measureListSpeed, type ListServer } from './list-timing';
import { machineDescription, publishSection } from './report';
import { startServerProcess, type ServerProcess } from './server-process';

const OBJECTS = Number(process.env['BENCH_LIST_OBJECTS'] ?? 10_000);
const ROUNDS = Number(process.env['BENCH_LIST_ROUNDS'] ?? 20);
const AB_SCRIPT = process.env['BENCH_AB_SERVER_SCRIPT'];
const NS = 'bench-lists';

function log(line: string): void {
  process.stderr.write(`[bench list-speed] ${line}\n`);
}

/** The other build on the same etcd (BENCH_SERVER_SCRIPT is how startServerProcess picks a build). */
async function startOtherBuild(etcdUrl: string, script: string): Promise<ServerProcess> {
  const own = process.env['BENCH_SERVER_SCRIPT'];
  process.env['BENCH_SERVER_SCRIPT'] = script;
  try {
    return await startServerProcess(etcdUrl);
  } finally {
    if (own === undefined) delete process.env['BENCH_SERVER_SCRIPT'];
    else process.env['BENCH_SERVER_SCRIPT'] = own;
  }
}

runBench(() => withBenchServer('list-speed', measure));

async function measure(server: ServerProcess, etcdUrl: string): Promise<void> {
  const client = newEtcdClient(etcdUrl);
  const other = AB_SCRIPT === undefined ? undefined : await startOtherBuild(etcdUrl, AB_SCRIPT);
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    log(`creating ${OBJECTS} Deployments`);
    await fillDeployments(server.url, agent, NS, OBJECTS);
    agent.destroy();
    const servers: ListServer[] = [{ label: 'this build', url: server.url, pid: server.pid }];
    if (other !== undefined)
      servers.push({ label: `other build (${AB_SCRIPT ?? ''})`, url: other.url, pid: other.pid });
    log(`measuring ${ROUNDS} rounds`);
    const path = `/apis/apps/v1/namespaces/${NS}/deployments`;
    const speed = await measureListSpeed(client, `/registry/apps/deployments/${NS}/`, servers, path, ROUNDS);
    const { rows, targets } = listSpeedRows(speed, OBJECTS);
    const section = [
      `## LIST speed from the watch cache (${new Date().toISOString().slice(0, 16)}Z)`,
      '',
      'Command: `make bench-list-speed` (`node dist/test/bench/list-speed.js`' +
        (other ? `, BENCH_AB_SERVER_SCRIPT=${AB_SCRIPT ?? ''}` : '') +
        '). Machine:',
      '',
      ...machineDescription(),
      '',
      `The apiserver runs as a separate process on a fresh local etcd holding ${OBJECTS} Deployments of ~2 KiB (compact JSON, no gzip: curl sends no Accept-Encoding). Each of ${ROUNDS} rounds (after 2 unrecorded warm-up rounds) times, one after the other: the raw etcd range + JSON.parse of every value in the bench process; curl receiving a body of the list's size from a static one-write server in the bench process (the floor: curl's own receive time); then per server a LIST with resourceVersion=0, one without (consistent read) and one rv=0 with gzip, each by curl from connect to the last byte (time_total), with the server's CPU for it (all threads). Figures: median (p25, min, max) in ms; ratios are the raw median over the figure's median.`,
      '',
      '| Measure | Result |',
      '|---|---|',
      ...rows,
      '',
      ...targets,
      '',
    ].join('\n');
    publishSection(section);
  } finally {
    await other?.stop();
    client.close();
  }
}

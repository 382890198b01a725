// `make bench-consistent-quiet`: consistent reads (LIST without resourceVersion) of small, quiet resources
// (namespaces, the ServiceAccounts of one namespace) while Deployments are created at concurrency 8 (split over the
// servers): each read's latency, and etcd's Range calls per read (etcd's own grpc_server_handled_total, counted around
// blocks of reads against one server at a time) with the LISTs that fell back to etcd (the server's
// etcd_request_duration_seconds_count{operation="list"}). BENCH_AB_SERVER_SCRIPT=<another build's
// dist/cmd/apiserver.js> starts that build on the same etcd, and blocks alternate between the two (A/B in one run).
import { Agent } from 'node:http';
import { runBench, withBenchServer } from './bench-server';
import { httpRequest } from './http-load';
import { machineDescription, publishSection } from './report';
import { startServerProcess, type ServerProcess } from './server-process';
import { percentile } from './stats';
import { deploymentBody } from './workloads';

const ROUNDS = Number(process.env['BENCH_QUIET_ROUNDS'] ?? 12);
const READS_PER_BLOCK = 10;
const LOAD_CONCURRENCY = 8;
const AB_SCRIPT = process.env['BENCH_AB_SERVER_SCRIPT'];
const LOAD_NS = 'bench-load';
const QUIET_NS = 'bench-quiet';
const READS = ['/api/v1/namespaces', `/api/v1/namespaces/${QUIET_NS}/serviceaccounts`];

interface Tally {
  label: string;
  server: ServerProcess;
  latencies: number[];
  ranges: number;
  fallbackLists: number;
  reads: number;
}

function log(line: string): void {
  process.stderr.write(`[bench consistent-quiet] ${line}\n`);
}

/** Sum of the samples of `metric` whose line contains every one of `parts`. */
function sumOf(text: string, metric: string, parts: string[]): number {
  let sum = 0;
  for (const line of text.split('\n'))
    if (line.startsWith(`${metric}{`) && parts.every((p) => line.includes(p)))
      sum += Number(line.slice(line.lastIndexOf(' ') + 1));
  return sum;
}

async function etcdRanges(agent: Agent, etcdUrl: string): Promise<number> {
  const text = (await httpRequest(agent, etcdUrl, 'GET', '/metrics')).body;
  return sumOf(text, 'grpc_server_handled_total', ['grpc_method="Range"']);
}

async function fallbackLists(agent: Agent, url: string): Promise<number> {
  const text = (await httpRequest(agent, url, 'GET', '/metrics')).body;
  return (
    sumOf(text, 'etcd_request_duration_seconds_count', ['operation="list"', 'type="namespaces"']) +
    sumOf(text, 'etcd_request_duration_seconds_count', ['operation="list"', 'type="serviceaccounts"'])
  );
}

async function create(agent: Agent, url: string, path: string, body: string): Promise<void> {
  const res = await httpRequest(agent, url, 'POST', path, body);
  if (res.status !== 201 && res.status !== 409)
    throw new Error(`POST ${path}: ${res.status} ${res.body.slice(0, 200)}`);
}

runBench(() => withBenchServer('consistent-quiet', measure));

async function measure(server: ServerProcess, etcdUrl: string): Promise<void> {
  const other = AB_SCRIPT === undefined ? undefined : await startServerProcess(etcdUrl, [], [], AB_SCRIPT);
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let loading = true;
  let created = 0;
  const load: Promise<void>[] = [];
  try {
    for (const ns of [LOAD_NS, QUIET_NS])
      await create(agent, server.url, '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
    for (let i = 0; i < 5; i++)
      await create(
        agent,
        server.url,
        `/api/v1/namespaces/${QUIET_NS}/serviceaccounts`,
        `{"metadata":{"name":"sa${i}"}}`,
      );
    const tallies: Tally[] = [{ label: 'this build', server, latencies: [], ranges: 0, fallbackLists: 0, reads: 0 }];
    if (other)
      tallies.push({ label: `other build`, server: other, latencies: [], ranges: 0, fallbackLists: 0, reads: 0 });
    const deployments = `/apis/apps/v1/namespaces/${LOAD_NS}/deployments`;
    for (let w = 0; w < LOAD_CONCURRENCY; w++)
      load.push(
        (async () => {
          while (loading) {
            const name = `d${w}-${created++}`;
            const via = (tallies[w % tallies.length] as Tally).server.url;
            await create(agent, via, deployments, deploymentBody(name).replace('"bench"', `"${LOAD_NS}"`));
          }
        })(),
      );
    await new Promise((r) => setTimeout(r, 2000));
    log(`measuring ${ROUNDS} rounds of ${READS_PER_BLOCK} reads per server`);
    for (let round = 0; round < ROUNDS; round++) {
      for (const tally of round % 2 === 0 ? tallies : [...tallies].reverse()) {
        const rangesBefore = await etcdRanges(agent, etcdUrl);
        const listsBefore = await fallbackLists(agent, tally.server.url);
        for (let i = 0; i < READS_PER_BLOCK; i++) {
          const path = READS[i % READS.length] as string;
          const t0 = process.hrtime.bigint();
          const res = await httpRequest(agent, tally.server.url, 'GET', path);
          if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
          tally.latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
        tally.ranges += (await etcdRanges(agent, etcdUrl)) - rangesBefore;
        tally.fallbackLists += (await fallbackLists(agent, tally.server.url)) - listsBefore;
        tally.reads += READS_PER_BLOCK;
      }
    }
    loading = false;
    await Promise.all(load);
    const rows = tallies.map((t) => {
      const sorted = Float64Array.from(t.latencies).sort();
      const f = (q: number): string => percentile(sorted, q).toFixed(1);
      return `| ${t.label} | ${t.reads} | ${f(0.5)} | ${f(0.9)} | ${f(0.99)} | ${(t.ranges / t.reads).toFixed(2)} | ${(t.fallbackLists / t.reads).toFixed(2)} |`;
    });
    publishSection(
      [
        `## Consistent LISTs of quiet resources during Deployment creates (${new Date().toISOString().slice(0, 16)}Z)`,
        '',
        'Command: `make bench-consistent-quiet` (`node dist/test/bench/consistent-quiet.js`' +
          (other ? `, BENCH_AB_SERVER_SCRIPT=${AB_SCRIPT ?? ''}` : '') +
          '). Machine:',
        '',
        ...machineDescription(),
        '',
        `A fresh local etcd (\`etcd --version\`); ${LOAD_CONCURRENCY} workers create Deployments the whole time (split evenly over the servers) (${created} in all). Per server, in alternating blocks of ${READS_PER_BLOCK}, one at a time: GET ${READS.join(' and ')} without resourceVersion (consistent reads). etcd Ranges per read: etcd's grpc_server_handled_total{grpc_method="Range"} around each block (the revision read, LISTs that fell back, and any Range the load makes meanwhile); fallback LISTs per read: the server's etcd list calls for these resources.`,
        '',
        '| Server | Reads | p50 ms | p90 ms | p99 ms | etcd Ranges per read | fallback LISTs per read |',
        '|---|---|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    loading = false;
    await Promise.allSettled(load);
    agent.destroy();
    await other?.stop();
  }
}

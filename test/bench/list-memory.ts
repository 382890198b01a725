// `node dist/test/bench/list-memory.js`: the server's peak RSS growth while it writes LIST bodies, against the size
// of one response (issue 20, streaming lists): 20 concurrent JSON and protobuf LISTs of 10,000 ~2 KiB Deployments,
// then one pretty JSON, one YAML and one plain JSON LIST of 100,000 of them. The objects are put into etcd directly
// in the server's storage format (copies of one Deployment created through the API), then read by the watch cache.
// BENCH_SERVER_SCRIPT=<other build>/dist/cmd/apiserver.js runs the same against another build (A/B).
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { putCopies } from './etcd-fill';
import { runBench, withBenchServer } from './bench-server';
import { httpRequest } from './http-load';
import { LOAD_AT_START, machineDescription, prependSection } from './report';
import type { ServerProcess } from './server-process';
import { bigDeployment } from './workloads';

const SMALL = Number(process.env['BENCH_LIST_OBJECTS'] ?? 10_000);
const LARGE = Number(process.env['BENCH_LARGE_LIST_OBJECTS'] ?? 100_000);
const CONCURRENT = Number(process.env['BENCH_CONCURRENT_LISTS'] ?? 20);
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';
const SMALL_NS = 'bench-mem-small';
const LARGE_NS = 'bench-mem-large';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const TABLE_NONE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

const log = (line: string): void => void process.stderr.write(`[bench list-memory] ${line}\n`);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const deployments = (ns: string): string => `/apis/apps/v1/namespaces/${ns}/deployments`;

function statusKiB(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, '') ?? NaN);
}

/** GET `path` reading the body as it comes and keeping only its length (the client holds nothing). */
function drain(url: string, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { headers: { 'User-Agent': 'orch-bench', ...headers } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => (res.statusCode === 200 ? resolve(bytes) : reject(new Error(`${path}: ${res.statusCode}`))));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Waits until the watch cache lists `count` objects in `ns` (a Table without objects: rows only). */
async function waitForCache(url: string, ns: string, count: number): Promise<void> {
  for (;;) {
    const agent = new Agent({ keepAlive: false });
    const res = await httpRequest(
      agent,
      url,
      'GET',
      `${deployments(ns)}?resourceVersion=0&includeObject=None`,
      undefined,
      undefined,
      { Accept: TABLE_NONE },
    );
    if ((JSON.parse(res.body) as { rows: unknown[] }).rows.length >= count) return;
    await sleep(2000);
  }
}

interface Phase {
  what: string;
  /** Bytes of one response. */
  responseBytes: number;
  baseMiB: number;
  peakGrowthMiB: number;
  ms: number;
}

/** Runs `load` and reports the server's peak RSS above its RSS just before (VmHWM reset through clear_refs). */
async function phase(
  server: ServerProcess,
  what: string,
  load: () => Promise<number>,
  warmUp?: () => Promise<number>,
): Promise<Phase> {
  // What the first serving keeps (each cached item's served JSON or protobuf bytes) is not per request.
  await warmUp?.().catch(() => 0);
  await sleep(3000);
  writeFileSync(`/proc/${server.pid}/clear_refs`, '5');
  const base = statusKiB(server.pid, 'VmRSS');
  let sampled = base;
  const timer = setInterval(() => (sampled = Math.max(sampled, statusKiB(server.pid, 'VmRSS'))), 5);
  const start = performance.now();
  // A build that cannot answer (a body past V8's string limit) counts as 0 bytes.
  const responseBytes = await load().catch((err: unknown) => {
    log(`${what}: ${String(err)}`);
    return 0;
  });
  const ms = performance.now() - start;
  clearInterval(timer);
  const peak = Math.max(sampled, statusKiB(server.pid, 'VmHWM'));
  const result = { what, responseBytes, baseMiB: base / 1024, peakGrowthMiB: (peak - base) / 1024, ms };
  log(
    `${what}: +${result.peakGrowthMiB.toFixed(0)} MiB peak over ${result.baseMiB.toFixed(0)} MiB; one response ${(responseBytes / 2 ** 20).toFixed(1)} MiB; ${ms.toFixed(0)} ms`,
  );
  return result;
}

async function concurrentLists(url: string, headers: Record<string, string>): Promise<number> {
  const sizes = await Promise.all(Array.from({ length: CONCURRENT }, () => drain(url, deployments(SMALL_NS), headers)));
  return sizes[0] ?? 0;
}

async function measure(server: ServerProcess, etcdUrl: string): Promise<void> {
  const agent = new Agent({ keepAlive: true });
  for (const ns of [SMALL_NS, LARGE_NS])
    await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
  const created = await httpRequest(agent, server.url, 'POST', deployments(SMALL_NS), bigDeployment('template'));
  if (created.status !== 201) throw new Error(`create failed: ${created.status} ${created.body}`);
  const client = newEtcdClient(etcdUrl);
  const template = await client.get(`/registry/apps/deployments/${SMALL_NS}/template`).string();
  client.close();
  if (template === null) throw new Error('template Deployment not found in etcd');
  const started = performance.now();
  log(`putting ${SMALL} + ${LARGE} Deployments (${template.length} bytes each) into etcd`);
  await putCopies(etcdUrl, template, SMALL_NS, SMALL - 1);
  await putCopies(etcdUrl, template, LARGE_NS, LARGE);
  await waitForCache(server.url, SMALL_NS, SMALL);
  await waitForCache(server.url, LARGE_NS, LARGE);
  const fillSeconds = (performance.now() - started) / 1000;
  log(`filled in ${fillSeconds.toFixed(0)} s`);

  const phases = [
    await phase(
      server,
      `${CONCURRENT} concurrent JSON LISTs of ${SMALL}`,
      () => concurrentLists(server.url, {}),
      () => drain(server.url, deployments(SMALL_NS), {}),
    ),
    await phase(
      server,
      `${CONCURRENT} concurrent protobuf LISTs of ${SMALL}`,
      () => concurrentLists(server.url, { Accept: PROTOBUF }),
      () => drain(server.url, deployments(SMALL_NS), { Accept: PROTOBUF }),
    ),
    await phase(server, `one pretty JSON LIST of ${LARGE} (?pretty=true, as curl gets by default)`, () =>
      drain(server.url, `${deployments(LARGE_NS)}?pretty=true`, {}),
    ),
    await phase(server, `one YAML LIST of ${LARGE}`, () =>
      drain(server.url, deployments(LARGE_NS), { Accept: 'application/yaml' }),
    ),
    await phase(
      server,
      `one JSON LIST of ${LARGE}`,
      () => drain(server.url, deployments(LARGE_NS), {}),
      () => drain(server.url, deployments(LARGE_NS), {}),
    ),
  ];
  const mib = (n: number): string => (n / 2 ** 20).toFixed(1);
  const build = process.env['BENCH_SERVER_SCRIPT'] ?? 'this build (dist/cmd/apiserver.js)';
  const section = [
    `## Streaming lists: server memory per LIST (${new Date().toISOString().slice(0, 16)}Z)${LOAD_AT_START > 2 ? ' — NOISY' : ''}`,
    '',
    'Command: `node dist/test/bench/list-memory.js` (`make bench-list-memory`). Machine:',
    '',
    ...machineDescription(),
    '',
    `Server: ${build}. ${SMALL} and ${LARGE} Deployments of ~${(template.length / 1024).toFixed(1)} KiB stored (copies of one created through the API, put into etcd in its storage format; filled and cached in ${fillSeconds.toFixed(0)} s), served from the watch cache (LIST without resourceVersion). The JSON and protobuf phases run one unmeasured LIST first (the first serving keeps each cached item's served bytes, once per object). Peak growth: the server's VmHWM (reset through /proc/<pid>/clear_refs before each phase) minus its VmRSS just before; the clients read each body as it comes and keep nothing.`,
    '',
    '| Phase | one response | server RSS before | peak RSS growth | growth ÷ one response | wall time |',
    '|---|---|---|---|---|---|',
    ...phases.map(
      (p) =>
        `| ${p.what} | ${mib(p.responseBytes)} MiB | ${p.baseMiB.toFixed(0)} MiB | ${p.peakGrowthMiB.toFixed(0)} MiB | ${(p.peakGrowthMiB / (p.responseBytes / 2 ** 20)).toFixed(2)}× | ${(p.ms / 1000).toFixed(1)} s |`,
    ),
    '',
    `Target (issue 20): ${CONCURRENT} concurrent LISTs raise peak RSS by at most 1× one response — JSON **${(phases[0]?.peakGrowthMiB ?? Infinity) <= mibOf(phases[0]) ? 'met' : 'missed'}**, protobuf **${(phases[1]?.peakGrowthMiB ?? Infinity) <= mibOf(phases[1]) ? 'met' : 'missed'}**.`,
    '',
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (WRITE_DOCS) prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), section);
}

function mibOf(p: Phase | undefined): number {
  return p === undefined ? 0 : p.responseBytes / 2 ** 20;
}

runBench(() => withBenchServer('list-memory', measure));

// `node dist/test/bench/list-memory.js`: the server's peak RSS growth while it writes LIST bodies, against the size
// of one response (issue 20, streaming lists): 20 concurrent JSON and protobuf LISTs of 10,000 ~2 KiB Deployments,
// then one pretty JSON, one YAML, one Table, one PartialObjectMetadataList and one plain JSON LIST of 100,000 of them. The objects are put into etcd directly
// in the server's storage format (copies of one Deployment created through the API), then read by the watch cache.
// BENCH_SERVER_SCRIPT=<other build>/dist/cmd/apiserver.js runs the same against another build;
// BENCH_AB_SERVER_SCRIPT=<other build>/dist/cmd/apiserver.js runs every phase on this build and that one (A/B in one run).
import { readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { putCopies } from './etcd-fill';
import { runBench, withBenchServer } from './bench-server';
import { httpRequest } from './http-load';
import { LOAD_AT_START, machineDescription, prependSection } from './report';
import { startServerProcess, type ServerProcess } from './server-process';
import { bigDeployment } from './workloads';

const SMALL = Number(process.env['BENCH_LIST_OBJECTS'] ?? 10_000);
const LARGE = Number(process.env['BENCH_LARGE_LIST_OBJECTS'] ?? 100_000);
const CONCURRENT = Number(process.env['BENCH_CONCURRENT_LISTS'] ?? 20);
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';
/** Another build's dist/cmd/apiserver.js, started on the same etcd after the fill: every phase runs on both. */
const AB_SCRIPT = process.env['BENCH_AB_SERVER_SCRIPT'];
const FORM_WARM_UP = process.env['BENCH_FORM_WARM_UP'] === '1';
const SMALL_NS = 'bench-mem-small';
const LARGE_NS = 'bench-mem-large';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const PARTIAL = 'application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io';

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
      { Accept: TABLE },
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

  let other: ServerProcess | undefined;
  try {
    if (AB_SCRIPT !== undefined) {
      other = await startServerProcess(etcdUrl, [], [], AB_SCRIPT);
      await waitForCache(other.url, SMALL_NS, SMALL);
      await waitForCache(other.url, LARGE_NS, LARGE);
    }
    const servers = other === undefined ? [server] : [server, other];
    // Each phase on each build in turn (A/B in one run: both see the same machine load).
    const phases: Phase[][] = [];
    for (const p of phaseLoads()) {
      const row: Phase[] = [];
      for (const s of servers)
        row.push(
          await phase(s, p.what, () => p.load(s.url), p.warmUp && (() => p.warmUp?.(s.url) ?? Promise.resolve(0))),
        );
      phases.push(row);
    }
    writeReport(phases, template.length, fillSeconds);
  } finally {
    await other?.stop().catch(() => undefined);
  }
}

interface PhaseLoad {
  what: string;
  load: (url: string) => Promise<number>;
  warmUp?: (url: string) => Promise<number>;
}

function phaseLoads(): PhaseLoad[] {
  const large = (headers: Record<string, string>, query = ''): ((url: string) => Promise<number>) => {
    return (url) => drain(url, deployments(LARGE_NS) + query, headers);
  };
  // BENCH_FORM_WARM_UP=1: each formatted phase first serves its form for the small namespace, unmeasured (the young
  // generation, at most a few dozen MiB whatever the list's size, has then grown to its working size).
  const small = (headers: Record<string, string>, query = ''): ((url: string) => Promise<number>) | undefined =>
    FORM_WARM_UP ? (url) => drain(url, deployments(SMALL_NS) + query, headers) : undefined;
  return [
    {
      what: `${CONCURRENT} concurrent JSON LISTs of ${SMALL}`,
      load: (url) => concurrentLists(url, {}),
      warmUp: (url) => drain(url, deployments(SMALL_NS), {}),
    },
    {
      what: `${CONCURRENT} concurrent protobuf LISTs of ${SMALL}`,
      load: (url) => concurrentLists(url, { Accept: PROTOBUF }),
      warmUp: (url) => drain(url, deployments(SMALL_NS), { Accept: PROTOBUF }),
    },
    {
      what: `one pretty JSON LIST of ${LARGE} (?pretty=true, as curl gets by default)`,
      load: large({}, '?pretty=true'),
      warmUp: small({}, '?pretty=true'),
    },
    {
      what: `one YAML LIST of ${LARGE}`,
      load: large({ Accept: 'application/yaml' }),
      warmUp: small({ Accept: 'application/yaml' }),
    },
    {
      what: `one Table LIST of ${LARGE} (as kubectl get asks)`,
      load: large({ Accept: TABLE }),
      warmUp: small({ Accept: TABLE }),
    },
    {
      what: `one PartialObjectMetadataList of ${LARGE}`,
      load: large({ Accept: PARTIAL }),
      warmUp: small({ Accept: PARTIAL }),
    },
    { what: `one JSON LIST of ${LARGE}`, load: large({}), warmUp: large({}) },
  ];
}

function writeReport(phases: Phase[][], templateBytes: number, fillSeconds: number): void {
  const mib = (n: number): string => (n / 2 ** 20).toFixed(1);
  const build = process.env['BENCH_SERVER_SCRIPT'] ?? 'this build (dist/cmd/apiserver.js)';
  const builds = AB_SCRIPT === undefined ? [build] : [build, `BENCH_AB_SERVER_SCRIPT=${AB_SCRIPT}`];
  const cells = (p: Phase): string =>
    `${p.baseMiB.toFixed(0)} MiB | ${p.peakGrowthMiB.toFixed(0)} MiB | ${(p.peakGrowthMiB / mibOf(p)).toFixed(2)}× | ${(p.ms / 1000).toFixed(1)} s`;
  const ab = builds.length > 1;
  const first = phases.map((row) => row[0]);
  const section = [
    `## Streaming lists: server memory per LIST (${new Date().toISOString().slice(0, 16)}Z)${LOAD_AT_START > 2 ? ' — NOISY' : ''}`,
    '',
    `Command: \`node dist/test/bench/list-memory.js\` (\`make bench-list-memory\`${ab ? `; BENCH_AB_SERVER_SCRIPT=${AB_SCRIPT ?? ''}` : ''}${FORM_WARM_UP ? '; BENCH_FORM_WARM_UP=1' : ''}). Machine:`,
    '',
    ...machineDescription(),
    '',
    `Server: ${builds.join(' against ')}${ab ? ', both following one etcd, each phase run on one then the other' : ''}. ${SMALL} and ${LARGE} Deployments of ~${(templateBytes / 1024).toFixed(1)} KiB stored (copies of one created through the API, put into etcd in its storage format; filled and cached in ${fillSeconds.toFixed(0)} s), served from the watch cache (LIST without resourceVersion). The JSON and protobuf phases run one unmeasured LIST first (the first serving keeps each cached item's served bytes, once per object)${FORM_WARM_UP ? `; BENCH_FORM_WARM_UP=1: the pretty JSON, YAML, Table and partial phases first serve their form for the ${SMALL}, unmeasured (the young generation grows to its working size, a few dozen MiB whatever the list's size)` : ''}. Peak growth: the server's VmHWM (reset through /proc/<pid>/clear_refs before each phase) minus its VmRSS just before; the clients read each body as it comes and keep nothing.`,
    '',
    `| Phase | one response |${builds
      .map((_, i) => (ab ? ` ${i === 0 ? 'A' : 'B'}: ` : ' '))
      .map((b) => `${b}server RSS before |${b}peak RSS growth |${b}growth ÷ one response |${b}wall time |`)
      .join('')}`,
    `|---|---|${builds.map(() => '---|---|---|---|').join('')}`,
    ...phases.map(
      (row) => `| ${row[0]?.what ?? ''} | ${mib(row[0]?.responseBytes ?? 0)} MiB | ${row.map(cells).join(' | ')} |`,
    ),
    '',
    ...(ab ? [`A: ${build}; B: ${AB_SCRIPT ?? ''}.`, ''] : []),
    `Target (issue 20): ${CONCURRENT} concurrent LISTs raise peak RSS by at most 1× one response — JSON **${(first[0]?.peakGrowthMiB ?? Infinity) <= mibOf(first[0]) ? 'met' : 'missed'}**, protobuf **${(first[1]?.peakGrowthMiB ?? Infinity) <= mibOf(first[1]) ? 'met' : 'missed'}**; pretty JSON, YAML, Table and partial LISTs of ${LARGE} at most 0.1× — ${first
      .slice(2, 6)
      .map(
        (p) =>
          `${p?.what.split(' of ')[0] ?? ''} **${(p?.peakGrowthMiB ?? Infinity) <= 0.1 * mibOf(p) ? 'met' : 'missed'}**`,
      )
      .join(', ')}.`,
    '',
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (WRITE_DOCS) prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), section);
}

function mibOf(p: Phase | undefined): number {
  return p === undefined ? 0 : p.responseBytes / 2 ** 20;
}

runBench(() => withBenchServer('list-memory', measure));

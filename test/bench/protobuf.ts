// `make bench` (protobuf): LIST of 5,000 Deployments and GET of one, JSON vs protobuf, for Deployments with only a spec
// and with the status the deployment controller writes: response bytes, apiserver CPU per request (a child process,
// CPU read from /proc; median of rounds) and in-process encoding time of the same bodies. Prepends a docs section.
import { join } from 'node:path';
import { Agent, request } from 'node:http';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { runBench, withBenchServer } from './bench-server';
import { createDeployments, deploymentName, writeControllerStatus } from './protobuf-workload';
import {
  asStoredObjects,
  encodingTable,
  encodingTargetLines,
  measureListEncoding,
  measureObjectEncoding,
  withoutManagedFields,
  type EncodingResult,
} from './protobuf-encoding';
import { machineDescription, prependSection } from './report';
import type { ServerProcess } from './server-process';
import { median, processCpuMs } from './stats';
import { DEPLOYMENTS } from './workloads';

const OBJECTS = Number(process.env['BENCH_PROTOBUF_OBJECTS'] ?? 5000);
const LIST_REPS = Number(process.env['BENCH_PROTOBUF_LIST_REPS'] ?? 20);
const GET_REPS = Number(process.env['BENCH_PROTOBUF_GET_REPS'] ?? 1500);
/** Each measurement is repeated this many times, interleaved with the others; the median is reported (shared machine). */
const ROUNDS = Number(process.env['BENCH_PROTOBUF_ROUNDS'] ?? 5);
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';
/** Extra node flags for the server process, e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
const SERVER_NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);
const PROTOBUF = 'application/vnd.orch.protobuf';
const JSON_TYPE = 'application/json';
const SPEED_TARGET = 1.5;
const SIZE_TARGET = 0.3;
const CACHE_WAIT_MS = 30_000;

type DataSet = 'spec only' | 'with status';

function log(line: string): void {
  process.stderr.write(`[bench protobuf] ${line}\n`);
}

function get(agent: Agent, url: string, path: string, accept: string): Promise<{ status: number; bytes: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { agent, headers: { Accept: accept, 'User-Agent': 'orch-bench' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

interface ServedResult {
  data: DataSet;
  workload: string;
  format: 'JSON' | 'protobuf';
  bytes: number;
  serverCpuMs: number;
  wallMs: number;
}

/** `reps` sequential requests on one keep-alive connection (after warm-ups): server CPU and wall time per request. */
async function measureServed(
  agent: Agent,
  srv: ServerProcess,
  path: string,
  accept: string,
  reps: number,
): Promise<{ bytes: number; serverCpuMs: number; wallMs: number }> {
  let bytes = 0;
  for (let i = 0; i < Math.max(2, Math.ceil(reps / 10)); i++)
    bytes = (await get(agent, srv.url, path, accept)).bytes.length;
  const cpu0 = processCpuMs(srv.pid) ?? Number.NaN;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) {
    const res = await get(agent, srv.url, path, accept);
    if (res.status !== 200) throw new Error(`${path} ${accept}: ${res.status}`);
  }
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6 / reps;
  return { bytes, serverCpuMs: ((processCpuMs(srv.pid) ?? Number.NaN) - cpu0) / reps, wallMs };
}

/** Every (request, format) once per round, rounds interleaved so load from other work spreads over all of them. */
async function measureDataSet(agent: Agent, srv: ServerProcess, data: DataSet): Promise<ServedResult[]> {
  const cases = [
    { workload: `LIST ${OBJECTS} Deployments`, path: DEPLOYMENTS, reps: LIST_REPS },
    { workload: 'GET 1 Deployment', path: `${DEPLOYMENTS}/${deploymentName(0)}`, reps: GET_REPS },
    {
      workload: `LIST ${OBJECTS} Deployments, resourceVersion=0 (watch cache)`,
      path: `${DEPLOYMENTS}?resourceVersion=0`,
      reps: LIST_REPS,
    },
  ].flatMap((c) => (['JSON', 'protobuf'] as const).map((format) => ({ ...c, format })));
  const rounds = cases.map(() => [] as Array<{ bytes: number; serverCpuMs: number; wallMs: number }>);
  for (let round = 0; round < ROUNDS; round++) {
    for (const [i, c] of cases.entries())
      rounds[i]?.push(await measureServed(agent, srv, c.path, c.format === 'JSON' ? JSON_TYPE : PROTOBUF, c.reps));
    log(`${data}: round ${round + 1}/${ROUNDS} done`);
  }
  return cases.map((c, i) => {
    const runs = rounds[i] ?? [];
    return {
      data,
      workload: c.workload,
      format: c.format,
      bytes: runs[0]?.bytes ?? 0,
      serverCpuMs: median(runs.map((r) => r.serverCpuMs)),
      wallMs: median(runs.map((r) => r.wallMs)),
    };
  });
}

/** Waits until the watch cache has applied every write: its revision reaches the newest item's in a quorum list. */
async function waitForCache(agent: Agent, url: string): Promise<void> {
  const newest = Math.max(...(await listJson(agent, url)).items.map((o) => Number(o.metadata.resourceVersion)));
  // An rv=0 list answers at the cache's revision; a selector nothing matches keeps it small.
  const cacheRevision = async (): Promise<number> =>
    Number(
      (
        JSON.parse(
          (
            await get(agent, url, `${DEPLOYMENTS}?resourceVersion=0&labelSelector=bench-none%3Dx`, JSON_TYPE)
          ).bytes.toString('utf8'),
        ) as ListBody
      ).metadata.resourceVersion,
    );
  const deadline = Date.now() + CACHE_WAIT_MS;
  while ((await cacheRevision()) < newest) {
    if (Date.now() > deadline) throw new Error('the watch cache did not catch up');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Server CPU of the first protobuf LIST after every object changed: each item's message is encoded then. */
async function firstProtobufListCpuMs(agent: Agent, srv: ServerProcess): Promise<number> {
  await waitForCache(agent, srv.url);
  const cpu0 = processCpuMs(srv.pid) ?? Number.NaN;
  await get(agent, srv.url, DEPLOYMENTS, PROTOBUF);
  return (processCpuMs(srv.pid) ?? Number.NaN) - cpu0;
}

type ListBody = { kind: string; apiVersion: string; metadata: { resourceVersion: string }; items: ApiObject[] };

async function listJson(agent: Agent, url: string): Promise<ListBody> {
  return JSON.parse((await get(agent, url, DEPLOYMENTS, JSON_TYPE)).bytes.toString('utf8')) as ListBody;
}

const f1 = (n: number): string => n.toFixed(n < 10 ? 3 : 1);

function servedTable(rows: ServedResult[]): string[] {
  return [
    `| data | request | format | response bytes | server CPU ms/request (median of ${ROUNDS}) | wall ms/request (median) |`,
    '|---|---|---|---:|---:|---:|',
    ...rows.map(
      (r) => `| ${r.data} | ${r.workload} | ${r.format} | ${r.bytes} | ${f1(r.serverCpuMs)} | ${f1(r.wallMs)} |`,
    ),
  ];
}

/** Both targets on one (data, request) pair: server CPU JSON ÷ protobuf, and bytes saved. */
function targetLines(rows: ServedResult[]): string[] {
  const lines: string[] = [];
  for (let i = 0; i + 1 < rows.length; i += 2) {
    const [json, proto] = [rows[i], rows[i + 1]];
    if (!json || !proto) continue;
    const speed = json.serverCpuMs / proto.serverCpuMs;
    const smaller = 1 - proto.bytes / json.bytes;
    lines.push(
      `- ${json.workload}, ${json.data}: server CPU JSON ÷ protobuf ${speed.toFixed(2)}× (target ≥ ${SPEED_TARGET}×: **${speed >= SPEED_TARGET ? 'PASS' : 'FAIL'}**), protobuf ` +
        `${(smaller * 100).toFixed(1)}% smaller (target ≥ ${SIZE_TARGET * 100}%: **${smaller >= SIZE_TARGET ? 'PASS' : 'FAIL'}**)`,
    );
  }
  return lines;
}

async function main(): Promise<void> {
  const { served, lists, firstListCpuMs } = await withBenchServer(
    'protobuf',
    async (server) => {
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      log(`apiserver pid ${server.pid}; creating ${OBJECTS} Deployments`);
      await createDeployments(server.url, OBJECTS);
      const firstSpecOnly = await firstProtobufListCpuMs(agent, server);
      const specOnly = await measureDataSet(agent, server, 'spec only');
      const specOnlyList = await listJson(agent, server.url);
      log('writing every status as kube-controller-manager');
      await writeControllerStatus(server.url, OBJECTS);
      const firstWithStatus = await firstProtobufListCpuMs(agent, server);
      const withStatus = await measureDataSet(agent, server, 'with status');
      const withStatusList = await listJson(agent, server.url);
      agent.destroy();
      return {
        served: [...specOnly, ...withStatus],
        lists: { 'spec only': specOnlyList, 'with status': withStatusList },
        firstListCpuMs: { 'spec only': firstSpecOnly, 'with status': firstWithStatus },
      };
    },
    SERVER_NODE_ARGS,
  );

  log('encoding the same bodies in this process');
  const encoding: Array<[string, EncodingResult]> = [];
  for (const data of ['spec only', 'with status'] as const) {
    for (const [list, what] of [
      [lists[data], data],
      [withoutManagedFields(lists[data]), `${data}, managedFields left out`],
    ] as const) {
      const items = asStoredObjects(list.items, list.apiVersion, 'Deployment');
      const first = items[0];
      if (!first) throw new Error('empty list');
      encoding.push([
        `DeploymentList (${items.length} items), ${what}`,
        measureListEncoding(list, items, Math.max(1, Math.ceil(LIST_REPS / 4))),
      ]);
      encoding.push([`Deployment, ${what}`, measureObjectEncoding(first, GET_REPS)]);
    }
  }

  const notes = [
    `Served: the apiserver is a child process on a fresh local etcd; requests are sequential on one keep-alive connection. "LIST" and "GET" carry no resourceVersion (a quorum read of etcd, as kubectl issues them: issue 7's rows); "resourceVersion=0" LISTs are served from the watch cache (what informers list with). Server CPU is the process' user+system CPU from /proc (10 ms ticks) over ${LIST_REPS} LISTs or ${GET_REPS} GETs after warm-ups, divided by their number; each figure is the median of ${ROUNDS} interleaved rounds (the machine is shared).`,
    "Both formats read etcd the same way. A LIST reads keys and their revisions only (a keys-only range) and takes each value from the watch cache's object at exactly that revision: JSON serves that object's stored bytes with the resourceVersion spliced in, protobuf its message bytes, encoded once per object version and kept with it. A GET reads the key's value: JSON serves etcd's bytes with the resourceVersion spliced in, protobuf the kept message of the cache's object at that revision. At resourceVersion=0 both formats serve bytes kept per cached object. So in the steady state neither format encodes anything per request: what differs is the body assembly (the encoding table's \"stored-bytes JSON\" and \"kept protobuf bytes\" columns) and the bytes written to the socket; the rest (the etcd read and its gRPC decoding, request handling) costs both formats the same.",
    'Where the formats differ is cold encoding, when an object version is served for the first time: the encoding table\'s "JSON.stringify → bytes" and "protobuf encode" columns, with the targets checked on them below it. Kubernetes\' protobuf carries managedFields[].fieldsV1 as the same JSON text that JSON responses embed (FieldsV1 is raw JSON bytes in both formats), so those bytes and the work of writing them are the same in both; the "managedFields left out" rows measure the rest of each object, the part the formats encode differently.',
    `The first protobuf LIST after every object was written encodes all ${OBJECTS} items once: server CPU ${firstListCpuMs['spec only'].toFixed(0)} ms (spec only; also the server's first protobuf request, so it includes compiling the encoders) and ${firstListCpuMs['with status'].toFixed(0)} ms (with status), one request each; the rows above are the steady state after that.`,
    `Data: "spec only" is each Deployment as created (spec, labels, annotations, one managedFields entry); "with status" adds the status Kubernetes 1.26's deployment controller writes for an available 3-replica Deployment (observedGeneration, replicas, updated/ready/available replicas, Available and Progressing conditions with their times), PUT to /status with fieldManager=kube-controller-manager (a second managedFields entry, subresource status). Nothing else is added (a real cluster's controller also sets the deployment.kubernetes.io/revision annotation, which this bench does not). Targets are stated for every row above, both data sets.`,
    'Encoding: this process, the same lists and objects as parsed objects, each result as the bytes written to the socket; µs per call of the fastest of 15 interleaved batches. "JSON.stringify" and "protobuf encode" both start from the parsed object; "stored-bytes JSON" and "kept protobuf bytes" are what the server does on its fast paths (splicing stored JSON bytes; assembling the envelope around kept item messages).',
  ];
  const section = [
    `## Protobuf responses (${new Date().toISOString().slice(0, 16)}Z)`,
    '',
    'Command: `make bench` (step `node dist/test/bench/protobuf.js`). Machine:',
    '',
    ...machineDescription(),
    '',
    ...servedTable(served),
    '',
    ...targetLines(served),
    '',
    ...encodingTable(encoding),
    '',
    ...encodingTargetLines(encoding, SPEED_TARGET, SIZE_TARGET),
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ].join('\n');
  process.stdout.write(`\n${section}\n`);
  if (WRITE_DOCS) prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), section);
}

runBench(main);

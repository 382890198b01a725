// `make bench` (protobuf): LIST of 5,000 Deployments and GET of one, JSON vs protobuf: response bytes, apiserver CPU
// per request (a child process, CPU read from /proc), and in-process encoding time of the same bodies. Prints a table.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { startEmbeddedEtcd, type EmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { httpRequest } from './http-load';
import { asStoredObjects, measureListEncoding, measureObjectEncoding, type EncodingResult } from './protobuf-encoding';
import { startServerProcess, type ServerProcess } from './server-process';
import { processCpuMs } from './stats';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';

const OBJECTS = Number(process.env['BENCH_PROTOBUF_OBJECTS'] ?? 5000);
const LIST_REPS = Number(process.env['BENCH_PROTOBUF_LIST_REPS'] ?? 30);
const GET_REPS = Number(process.env['BENCH_PROTOBUF_GET_REPS'] ?? 3000);
const CREATE_CONCURRENCY = 32;
const PROTOBUF = 'application/vnd.orch.protobuf';
const SPEED_TARGET = 1.5;
const SIZE_TARGET = 0.3;

/** Stops what main started, last started first (also on SIGINT/SIGTERM). */
const stops: Array<() => Promise<void> | void> = [];
let serverProcess: ServerProcess | undefined;

function log(line: string): void {
  process.stderr.write(`[bench protobuf] ${line}\n`);
}

async function stopAll(): Promise<void> {
  for (let stop = stops.pop(); stop; stop = stops.pop()) await Promise.resolve(stop()).catch(() => undefined);
}

async function startServer(): Promise<ServerProcess> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-bench-protobuf-'));
  stops.push(() => rmSync(dir, { recursive: true, force: true }));
  const etcd: EmbeddedEtcd = await startEmbeddedEtcd(join(dir, 'etcd'));
  stops.push(() => etcd.stop());
  serverProcess = await startServerProcess(etcd.clientUrl);
  stops.push(() => serverProcess?.stop());
  return serverProcess;
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
  workload: string;
  format: string;
  bytes: number;
  serverCpuMs: number;
  wallMs: number;
}

/** Sequential requests on one keep-alive connection; server CPU and wall time per request. */
async function measureServed(agent: Agent, srv: ServerProcess, workload: string, path: string, accept: string, reps: number): Promise<ServedResult> {
  const warmups = Math.max(3, Math.ceil(reps / 10));
  let bytes = 0;
  for (let i = 0; i < warmups; i++) bytes = (await get(agent, srv.url, path, accept)).bytes.length;
  const cpu0 = processCpuMs(srv.pid) ?? Number.NaN;
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < reps; i++) {
    const res = await get(agent, srv.url, path, accept);
    if (res.status !== 200) throw new Error(`${workload} ${accept}: ${res.status}`);
  }
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6 / reps;
  const serverCpuMs = ((processCpuMs(srv.pid) ?? Number.NaN) - cpu0) / reps;
  return { workload, format: accept === PROTOBUF ? 'protobuf' : 'JSON', bytes, serverCpuMs, wallMs };
}

async function createDeployments(url: string): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CREATE_CONCURRENCY });
  const ns = await httpRequest(agent, url, 'POST', '/api/v1/namespaces', namespaceBody);
  if (ns.status !== 201 && ns.status !== 409) throw new Error(`creating namespace: ${ns.status} ${ns.body}`);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < OBJECTS) {
      const name = `pb-${String(next++).padStart(5, '0')}`;
      const res = await httpRequest(agent, url, 'POST', DEPLOYMENTS, deploymentBody(name));
      if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${res.body}`);
    }
  };
  await Promise.all(Array.from({ length: CREATE_CONCURRENCY }, worker));
  agent.destroy();
}

const f1 = (n: number): string => n.toFixed(n < 10 ? 3 : 1);

function servedTable(rows: ServedResult[]): string[] {
  return [
    '| request | format | response bytes | server CPU ms/request | wall ms/request |',
    '|---|---|---:|---:|---:|',
    ...rows.map((r) => `| ${r.workload} | ${r.format} | ${r.bytes} | ${f1(r.serverCpuMs)} | ${f1(r.wallMs)} |`),
  ];
}

function encodingTable(rows: Array<[string, EncodingResult]>): string[] {
  return [
    '| body | JSON.stringify (text) µs | JSON.stringify → bytes µs | stored-bytes JSON → bytes µs | protobuf encode µs | JSON → bytes ÷ protobuf | JSON bytes | protobuf bytes | smaller by |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(([name, r]) => `| ${name} | ${f1(r.jsonTextUs)} | ${f1(r.jsonStringifyUs)} | ${f1(r.storedJsonUs)} | ${f1(r.protobufUs)} | ${(r.jsonStringifyUs / r.protobufUs).toFixed(2)}× | ${r.jsonBytes} | ${r.protobufBytes} | ${((1 - r.protobufBytes / r.jsonBytes) * 100).toFixed(1)}% |`),
  ];
}

async function main(): Promise<void> {
  const server = await startServer();
  log(`apiserver pid ${server.pid}; creating ${OBJECTS} Deployments`);
  await createDeployments(server.url);

  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const one = `${DEPLOYMENTS}/pb-00000`;
  const served: ServedResult[] = [];
  for (const accept of ['application/json', PROTOBUF]) served.push(await measureServed(agent, server, `LIST ${OBJECTS} Deployments`, DEPLOYMENTS, accept, LIST_REPS));
  for (const accept of ['application/json', PROTOBUF]) served.push(await measureServed(agent, server, 'GET 1 Deployment', one, accept, GET_REPS));
  const list = JSON.parse((await get(agent, server.url, DEPLOYMENTS, 'application/json')).bytes.toString('utf8')) as { kind: string; apiVersion: string; metadata: unknown; items: ApiObject[] };
  agent.destroy();
  await stopAll();

  log('encoding the same bodies in this process');
  const items = asStoredObjects(list.items, list.apiVersion, 'Deployment');
  const first = items[0];
  if (!first) throw new Error('empty list');
  const encoding: Array<[string, EncodingResult]> = [
    [`DeploymentList (${items.length} items)`, measureListEncoding(list, items, Math.max(1, Math.ceil(LIST_REPS / 3)))],
    ['Deployment', measureObjectEncoding(first, GET_REPS)],
  ];

  const targets = encoding.map(([name, r]) => {
    const speed = r.jsonStringifyUs / r.protobufUs;
    const smaller = 1 - r.protobufBytes / r.jsonBytes;
    return `- ${name}: protobuf encoding ${speed.toFixed(2)}× as fast as JSON.stringify → bytes (${(r.jsonTextUs / r.protobufUs).toFixed(2)}× against the text alone) (target ≥ ${SPEED_TARGET}×: ${speed >= SPEED_TARGET ? 'PASS' : 'FAIL'}), ${(smaller * 100).toFixed(1)}% smaller (target ≥ ${SIZE_TARGET * 100}%: ${smaller >= SIZE_TARGET ? 'PASS' : 'FAIL'})`;
  });
  const notes = [
    'Served: the apiserver is a child process on a fresh local etcd; requests are sequential on one keep-alive connection; server CPU is the process\' user+system CPU from /proc (10 ms ticks) over all repetitions, divided by their number. The JSON paths of GET and LIST copy etcd\'s stored bytes with the resourceVersion spliced in and never parse the objects; protobuf has to parse them (JSON in etcd) and encode.',
    'Encoding: this process, the same list and object as parsed objects, each result as the bytes written to the socket (JSON text → UTF-8 Buffer); µs per call of the fastest of 15 interleaved batches (the machine is shared). "stored-bytes JSON" is the server\'s JSON fast path (splicing remembered stored bytes); "JSON.stringify" is JSON from the parsed object, which the protobuf encoder (also from the parsed object) is compared with.',
  ];
  process.stdout.write(`\n${servedTable(served).join('\n')}\n\n${encodingTable(encoding).join('\n')}\n\n${targets.join('\n')}\n\n${notes.join('\n')}\n`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stopAll().finally(() => process.exit(130)));
process.on('exit', () => serverProcess?.killNow());

main()
  .catch((err: unknown) => {
    process.stderr.write(`bench failed: ${err instanceof Error ? err.stack : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());

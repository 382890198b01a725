// In-process cost of a Deployment create's own pipeline, stage by stage (decode, defaults, managedFields, validation,
// stored form, etcd codec, the response body, the watch's decode): CPU µs and heap kB allocated per create. No etcd, no HTTP: what the
// server's code does per create, free of the shared machine's noise (Buffers: the ArrayBuffer bytes outside V8's heap). `node dist/test/bench/create-pipeline.js`;
// run it under `node --max-semi-space-size=512 --min-semi-space-size=512` for exact heap figures (no GC in a batch).
// `--baseline <another build's dist/>`: an A/B run in one process, the two builds' stages alternating batch by batch;
// each stage's CPU is then its fastest batch (the least disturbed by the machine's other load), its heap the median,
// with both builds' response bodies checked equal first.
import { dirname, join, resolve } from 'node:path';
import * as protobuf from 'protobufjs';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { deploymentBody } from './workloads';

const OBJECTS = Number(process.env['BENCH_PIPELINE_OBJECTS'] ?? 3000);
const BATCH = 50;
const ROUNDS = Number(process.env['BENCH_PIPELINE_ROUNDS'] ?? 8);
const WARMUP_ROUNDS = 3;

interface Encoded {
  obj: ApiObject;
  json: string;
  request?: Buffer;
}

const TxnRequest = protobuf
  .loadSync(join(dirname(require.resolve('etcd3')), '..', 'proto', 'rpc.proto'))
  .lookupType('etcdserverpb.TxnRequest');

type Stage = [string, (v: unknown) => unknown];

const asObject = (v: unknown): ApiObject => v as ApiObject;
const asEncoded = (v: unknown): Encoded => v as Encoded;

/** A build's module, by its path under dist/ (this build's own when `root` is this script's dist/). */
function loader(root: string): <T>(path: string) => T {
  // Resolved at run time from a build directory, so tsc does not follow it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return <T>(path: string): T => require(resolve(root, path)) as T;
}

/** The create's steps in order, from the build under `root`; each takes the previous one's result. */
function stagesOf(root: string): Stage[] {
  const load = loader(root);
  const { updateManagedFields } = load<typeof import('../../lib/apimachinery/managed-fields')>(
    'lib/apimachinery/managed-fields',
  );
  const { decodeBody } = load<typeof import('../../lib/endpoints/decode-body')>('lib/endpoints/decode-body');
  const { resourceDefinitions } = load<typeof import('../../lib/registry/install')>('lib/registry/install');
  const codec = load<typeof import('../../lib/storage/etcd/codec')>('lib/storage/etcd/codec');
  const { encodeBody } = load<typeof import('../../lib/endpoints/handlers/write-response')>(
    'lib/endpoints/handlers/write-response',
  );
  const { deploymentScope } = load<typeof import('../../lib/apimachinery/managed-fields/testing/deployment-scope')>(
    'lib/apimachinery/managed-fields/testing/deployment-scope',
  );
  const kvUnary = load<Partial<typeof import('../../lib/storage/etcd/kv-unary')>>('lib/storage/etcd/kv-unary');
  const { frame } = load<typeof import('../../lib/storage/etcd/h2-member')>('lib/storage/etcd/h2-member');
  const key = Buffer.from('/registry/deployments/bench/pipeline');
  // A build without createIfAbsentRequest copied the JSON into a Buffer, encoded the Txn with protobufjs, then framed it.
  const etcdRequest = (json: string): Buffer =>
    kvUnary.createIfAbsentRequest
      ? kvUnary.createIfAbsentRequest(key, json, 0)
      : frame(
          Buffer.from(
            TxnRequest.encode({
              compare: [{ key, target: 1, result: 0, createRevision: 0 }],
              success: [{ requestPut: { key, value: Buffer.from(json), lease: 0 } }],
            }).finish(),
          ),
        );
  const def = resourceDefinitions({}).find((d) => d.group === 'apps' && d.kind === 'Deployment');
  if (!def) throw new Error(`no Deployment definition in ${root}`);
  // A fixed clock: the A/B check compares the two builds' response bytes.
  const scope = deploymentScope('2026-11-27T00:00:00Z');
  return [
    ['decode body (schema walk)', (b) => decodeBody(b as Buffer, 'json', def, () => true, 'Strict').object],
    ['defaults', (o) => (def.strategy.applyDefaults(asObject(o)), o)],
    ['managedFields', (o) => updateManagedFields(undefined, asObject(o), 'wrk', scope)],
    [
      'validation',
      (v) => {
        const o = asObject(v);
        o.metadata.uid = '6f1c3c2e-2b41-4a53-9d1a-0c7f3b0d9a11';
        o.metadata.creationTimestamp = '2026-11-27T00:00:00Z';
        def.strategy.prepareForCreate(o);
        const errors = def.strategy.validate(o);
        if (errors.length > 0) throw new Error(`invalid bench Deployment: ${JSON.stringify(errors)}`);
        return o;
      },
    ],
    ['stored form (Go shape)', (o) => codec.storedForm(asObject(o))],
    ['encode (JSON)', (o) => ({ obj: asObject(o), json: codec.encodeObject(asObject(o)) })],
    ['etcd request (framed Txn)', (e) => ({ ...asEncoded(e), request: etcdRequest(asEncoded(e).json) })],
    [
      'stored object (resourceVersion)',
      (e) => ({ ...asEncoded(e), obj: codec.withStoredJson(asEncoded(e).obj, asEncoded(e).json, 77) }),
    ],
    [
      'response body',
      (e) => {
        const { body } = encodeBody(asEncoded(e).obj, { mediaType: 'application/json' }, false);
        if (Buffer.byteLength(body) === 0) throw new Error('empty response body');
        return { ...asEncoded(e), body };
      },
    ],
    // The event's value arrives from etcd in a Buffer of its own and goes into the watch cache as a compact object.
    ['watch event decode', (e) => codec.decodeCompact('/k', Buffer.from(asEncoded(e).json), 78)],
  ];
}

/** Per stage, one figure per batch (or one sum): its median read back. */
class Samples {
  readonly #values = new Map<string, number[]>();

  add(name: string, value: number, perBatch: boolean): void {
    const values = this.#values.get(name) ?? [];
    if (perBatch || values.length === 0) values.push(value);
    else values[0] = (values[0] as number) + value;
    this.#values.set(name, values);
  }

  get median(): Map<string, number> {
    const out = new Map<string, number>();
    for (const [name, values] of this.#values)
      out.set(name, [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)] as number);
    return out;
  }
}

/**
 * One build's figures: CPU µs, heap kB and Buffer kB (ArrayBuffers outside V8's heap: Buffer.from, allocUnsafe and
 * their 8 KiB pool) per create of each stage. Sums over the batches, or with `fastest` the fastest batch's CPU and the
 * median batch's heap and Buffers (a batch in which a GC ran shows less than it allocated).
 */
class Figures {
  readonly cpuUs = new Map<string, number>();
  readonly #heaps = new Samples();
  readonly #buffers = new Samples();

  add(name: string, cpuUs: number, heapKb: number, bufferKb: number, fastest: boolean): void {
    const cpu = this.cpuUs.get(name);
    this.cpuUs.set(name, cpu === undefined ? cpuUs : fastest ? Math.min(cpu, cpuUs) : cpu + cpuUs);
    this.#heaps.add(name, heapKb, fastest);
    this.#buffers.add(name, bufferKb, fastest);
  }

  get heapKb(): Map<string, number> {
    return this.#heaps.median;
  }

  get bufferKb(): Map<string, number> {
    return this.#buffers.median;
  }
}

/** Runs one batch of `values` through every stage, adding each stage's per-create figures. */
function runBatch(
  stages: Stage[],
  values: unknown[],
  figures: Figures | undefined,
  per: number,
  fastest: boolean,
): void {
  for (const [name, step] of stages) {
    const before = process.memoryUsage();
    const cpu = process.cpuUsage();
    for (let i = 0; i < values.length; i++) values[i] = step(values[i]);
    const used = process.cpuUsage(cpu);
    const after = process.memoryUsage();
    // A batch in which a GC ran shows less (or negative); see the header for flags that prevent that.
    const allocated = Math.max(0, after.heapUsed - before.heapUsed);
    const buffers = Math.max(0, after.arrayBuffers - before.arrayBuffers);
    figures?.add(name, (used.user + used.system) / per, allocated / 1024 / per, buffers / 1024 / per, fastest);
  }
}

/** Both builds must answer a create with the same bytes, or the comparison means nothing. */
function assertSameResponse(builds: Stage[][], body: Buffer): void {
  const outputs = builds.map((stages) => {
    let v: unknown = Buffer.from(body);
    for (const [name, step] of stages) {
      if (name === 'watch event decode') break;
      v = step(v);
    }
    return String((v as { body: string | Buffer }).body);
  });
  if (!outputs.every((o) => o === outputs[0]))
    throw new Error(`the builds' response bodies differ:\n${outputs.join('\n')}`);
}

function main(): void {
  const at = process.argv.indexOf('--baseline');
  const baseline = at >= 0 ? process.argv[at + 1] : undefined;
  const builds = [stagesOf(resolve(__dirname, '..', '..')), ...(baseline ? [stagesOf(resolve(baseline))] : [])];
  const fastest = builds.length > 1;
  const bodies = Array.from({ length: OBJECTS }, (_, i) => Buffer.from(deploymentBody(`pipeline-${i}`)));
  if (fastest) assertSameResponse(builds, bodies[0] as Buffer);
  const figures = builds.map(() => new Figures());
  const measured = (ROUNDS - WARMUP_ROUNDS) * OBJECTS;
  for (let round = 0; round < ROUNDS; round++) {
    for (let at = 0; at < OBJECTS; at += BATCH) {
      builds.forEach((stages, k) => {
        const values: unknown[] = bodies.slice(at, at + BATCH);
        const per = fastest ? values.length : measured;
        runBatch(stages, values, round < WARMUP_ROUNDS ? undefined : figures[k], per, fastest);
      });
    }
  }
  const names = (builds[0] as Stage[]).map(([name]) => name);
  const total = (f: Figures, m: Map<string, number>): number => names.reduce((s, n) => s + (m.get(n) ?? 0), 0);
  const [mine, base] = figures as [Figures, Figures | undefined];
  const f1 = (m: Map<string, number>, n: string): string => (m.get(n) ?? 0).toFixed(1);
  const cells = (f: Figures, n: string): string => `${f1(f.cpuUs, n)} | ${f1(f.heapKb, n)} | ${f1(f.bufferKb, n)}`;
  const lines = base
    ? [
        '| Stage | baseline CPU µs | this CPU µs | baseline heap kB | this heap kB | baseline Buffers kB | this Buffers kB |',
        '|---|---:|---:|---:|---:|---:|---:|',
        ...names.map(
          (n) =>
            `| ${n} | ${f1(base.cpuUs, n)} | ${f1(mine.cpuUs, n)} | ${f1(base.heapKb, n)} | ${f1(mine.heapKb, n)} | ${f1(base.bufferKb, n)} | ${f1(mine.bufferKb, n)} |`,
        ),
        `| total | ${total(base, base.cpuUs).toFixed(1)} | ${total(mine, mine.cpuUs).toFixed(1)} | ${total(base, base.heapKb).toFixed(1)} | ${total(mine, mine.heapKb).toFixed(1)} | ${total(base, base.bufferKb).toFixed(1)} | ${total(mine, mine.bufferKb).toFixed(1)} |`,
        '',
        `per create: the fastest of ${(ROUNDS - WARMUP_ROUNDS) * (OBJECTS / BATCH)} batches of ${BATCH} per build (builds alternating), after ${WARMUP_ROUNDS} warm-up rounds; heap and Buffers: the median batch`,
      ]
    : [
        `| Stage | CPU µs/create | heap kB/create | Buffers kB/create |`,
        '|---|---:|---:|---:|',
        ...names.map((n) => `| ${n} | ${cells(mine, n)} |`),
        `| total | ${total(mine, mine.cpuUs).toFixed(1)} | ${total(mine, mine.heapKb).toFixed(1)} | ${total(mine, mine.bufferKb).toFixed(1)} |`,
      ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();

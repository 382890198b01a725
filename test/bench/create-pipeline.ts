// In-process cost of a Deployment create's own pipeline, stage by stage (decode, defaults, managedFields, validation,
// stored form, etcd codec, the response body, the watch's decode): CPU µs and heap kB allocated per create. No etcd, no HTTP: what the
// server's code does per create, free of the shared machine's noise. `node dist/test/bench/create-pipeline.js`;
// run it under `node --max-semi-space-size=512 --min-semi-space-size=512` for exact heap figures (no GC in a batch).
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { updateManagedFields } from '../../lib/apimachinery/managed-fields';
import { decodeBody } from '../../lib/endpoints/decode-body';
import { resourceDefinitions } from '../../lib/registry/install';
import { decodeObject, encodeObject, storedForm, withStoredJson } from '../../lib/storage/etcd/codec';
import { encodeBody } from '../../lib/endpoints/handlers/write-response';
import { deploymentBody } from './workloads';
import { deploymentScope } from '../../lib/apimachinery/managed-fields/testing/deployment-scope';

const OBJECTS = Number(process.env['BENCH_PIPELINE_OBJECTS'] ?? 3000);
const BATCH = 50;
const ROUNDS = 8;
const WARMUP_ROUNDS = 3;

const found = resourceDefinitions({}).find((d) => d.group === 'apps' && d.kind === 'Deployment');
if (!found) throw new Error('no Deployment definition');
const def = found;
const scope = deploymentScope();

interface Encoded {
  obj: ApiObject;
  json: string;
  value?: Buffer;
}

const asObject = (v: unknown): ApiObject => v as ApiObject;
const asEncoded = (v: unknown): Encoded => v as Encoded;

/** The create's steps in order; each takes the previous one's result. */
const STAGES: Array<[string, (v: unknown) => unknown]> = [
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
  ['stored form (Go shape)', (o) => storedForm(asObject(o))],
  ['encode (JSON)', (o) => ({ obj: asObject(o), json: encodeObject(asObject(o)) })],
  ['value bytes', (e) => ({ ...asEncoded(e), value: Buffer.from(asEncoded(e).json) })],
  [
    'stored object (resourceVersion)',
    (e) => ({ ...asEncoded(e), obj: withStoredJson(asEncoded(e).obj, asEncoded(e).json, 77) }),
  ],
  [
    'response body',
    (e) => {
      const { body } = encodeBody(asEncoded(e).obj, { mediaType: 'application/json' }, false);
      if (Buffer.byteLength(body) === 0) throw new Error('empty response body');
      return e;
    },
  ],
  ['watch event decode', (e) => decodeObject('/k', asEncoded(e).value as Buffer, 78)],
];

function main(): void {
  const bodies = Array.from({ length: OBJECTS }, (_, i) => Buffer.from(deploymentBody(`pipeline-${i}`)));
  const cpuUs = new Map<string, number>();
  const heapKb = new Map<string, number>();
  const measured = (ROUNDS - WARMUP_ROUNDS) * OBJECTS;
  for (let round = 0; round < ROUNDS; round++) {
    for (let at = 0; at < OBJECTS; at += BATCH) {
      const values: unknown[] = bodies.slice(at, at + BATCH);
      for (const [name, step] of STAGES) {
        const heap = process.memoryUsage().heapUsed;
        const cpu = process.cpuUsage();
        for (let i = 0; i < values.length; i++) values[i] = step(values[i]);
        const used = process.cpuUsage(cpu);
        const allocated = process.memoryUsage().heapUsed - heap;
        if (round < WARMUP_ROUNDS) continue;
        cpuUs.set(name, (cpuUs.get(name) ?? 0) + (used.user + used.system) / measured);
        // A batch in which a GC ran shows less (or negative); see the header for flags that prevent that.
        heapKb.set(name, (heapKb.get(name) ?? 0) + Math.max(0, allocated) / 1024 / measured);
      }
    }
  }
  const rows = STAGES.map(([name]) => [name, cpuUs.get(name) ?? 0, heapKb.get(name) ?? 0] as const);
  const totalCpu = rows.reduce((s, [, c]) => s + c, 0);
  const totalHeap = rows.reduce((s, [, , h]) => s + h, 0);
  const lines = [
    `| Stage | CPU µs/create | heap kB/create |`,
    '|---|---:|---:|',
    ...rows.map(([name, c, h]) => `| ${name} | ${c.toFixed(1)} | ${h.toFixed(1)} |`),
    `| total | ${totalCpu.toFixed(1)} | ${totalHeap.toFixed(1)} |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();

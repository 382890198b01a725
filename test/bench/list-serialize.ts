// `node dist/test/bench/list-serialize.js`: in process, what serializing a LIST of N watch-cache objects (compact
// objects, as the cache fill makes them) as pretty JSON, YAML and a Table costs, walking the compact objects'
// accessors (A: session 9's list path) against throw-away copies decoded from their kept bytes (B: detachedCopy, the
// list path since session 10): CPU time per object and how much the old space grows while the body is produced,
// the two ways alternating per round. Run with `--expose-gc` for a full GC before each measurement (the Makefile
// target does). BENCH_SERIALIZE_OBJECTS (default 20,000), BENCH_SERIALIZE_ROUNDS (default 3).
import { getHeapSpaceStatistics } from 'node:v8';
import { compactFromStored, detachedCopy } from '../../lib/apimachinery/serializers/compact-object';
import { jsonDocumentChunks, mapped, type ListDocument } from '../../lib/apimachinery/serializers/list-document';
import { jsonToYamlChunks } from '../../lib/apimachinery/json/json-to-yaml';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { utf8Batches } from '../../lib/endpoints/handlers/streamed-body';
import { tableDocument } from '../../lib/endpoints/table';
import { deploymentTable } from '../../lib/registry/apps/deployments/table';
import { runBench } from './bench-server';
import { LOAD_AT_START, machineDescription, prependSection } from './report';
import { bigDeployment } from './workloads';
import { join } from 'node:path';

const OBJECTS = Number(process.env['BENCH_SERIALIZE_OBJECTS'] ?? 20_000);
const ROUNDS = Number(process.env['BENCH_SERIALIZE_ROUNDS'] ?? 3);
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';

type Form = 'pretty JSON' | 'YAML' | 'Table';
type Way = 'A: accessors' | 'B: detached copies';

/** A stored Deployment as the server writes it (with managedFields and status, like one created through the API). */
function storedValue(i: number): Buffer {
  const obj = JSON.parse(bigDeployment(`d-${i}`)) as Record<string, Record<string, unknown>>;
  const metadata = obj['metadata'] ?? {};
  Object.assign(metadata, {
    namespace: 'bench',
    uid: `0d0c4f8e-1a2b-4c3d-9e8f-${String(i).padStart(12, '0')}`,
    generation: 1,
    creationTimestamp: '2026-11-27T12:00:00Z',
    managedFields: [
      {
        manager: 'kubectl',
        operation: 'Update',
        apiVersion: 'apps/v1',
        time: '2026-11-27T12:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': {} } } } },
      },
    ],
  });
  obj['status'] = { replicas: 2, readyReplicas: 2, observedGeneration: 1 };
  return Buffer.from(JSON.stringify(obj));
}

function listItem(obj: ApiObject): unknown {
  const { kind: _kind, apiVersion: _apiVersion, ...rest } = obj;
  return rest;
}

function documentText(form: Form, objects: Iterable<ApiObject>, count: number): Iterable<string> {
  const listMeta = { resourceVersion: '5' };
  if (form === 'Table')
    return jsonDocumentChunks(
      tableDocument(objects, count, deploymentTable, listMeta, {
        request: { group: 'meta.k8s.io', version: 'v1' },
        includeObject: 'Metadata',
      }),
      false,
    );
  const doc: ListDocument = {
    envelope: { kind: 'DeploymentList', apiVersion: 'apps/v1', metadata: listMeta, items: [] },
    field: 'items',
    count,
    elements: mapped(objects, listItem),
  };
  return form === 'YAML' ? jsonToYamlChunks(doc) : jsonDocumentChunks(doc, true);
}

const oldSpace = (): number => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;

interface Sample {
  bytes: number;
  cpuMs: number;
  oldGrowth: number;
}

/** One body produced in 64 KiB batches (as the list handler writes it), its bytes dropped as they come. */
function measureOnce(form: Form, way: Way, cache: readonly ApiObject[]): Sample {
  (globalThis as { gc?: () => void }).gc?.();
  const base = oldSpace();
  let peak = base;
  let bytes = 0;
  const objects = way === 'A: accessors' ? cache : mapped(cache, detachedCopy);
  const cpu = process.cpuUsage();
  for (const batch of utf8Batches(documentText(form, objects, cache.length))) {
    bytes += batch.length;
    peak = Math.max(peak, oldSpace());
  }
  const used = process.cpuUsage(cpu);
  return { bytes, cpuMs: (used.user + used.system) / 1000, oldGrowth: peak - base };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const mib = (n: number): string => (n / 2 ** 20).toFixed(1);

async function main(): Promise<void> {
  const cache = Array.from({ length: OBJECTS }, (_, i) => compactFromStored(storedValue(i), String(1000 + i)));
  if (cache.some((o) => o === undefined)) throw new Error('stored values not in the compact layout');
  const objects = cache as ApiObject[];
  const rows: string[] = [];
  for (const form of ['pretty JSON', 'YAML', 'Table'] as const) {
    const samples = new Map<Way, Sample[]>([
      ['A: accessors', []],
      ['B: detached copies', []],
    ]);
    for (let round = 0; round < ROUNDS; round++)
      for (const [way, list] of samples) {
        list.push(measureOnce(form, way, objects));
        await new Promise((resolve) => setImmediate(resolve));
      }
    for (const [way, list] of samples) {
      const s = list[0] as Sample;
      const line = `| ${form} | ${way} | ${mib(s.bytes)} MiB | ${((median(list.map((x) => x.cpuMs)) * 1000) / OBJECTS).toFixed(1)} µs | ${mib(median(list.map((x) => x.oldGrowth)))} MiB | ${(median(list.map((x) => x.oldGrowth)) / s.bytes).toFixed(2)}× |`;
      process.stderr.write(`${line}\n`);
      rows.push(line);
    }
  }
  const section = [
    `## Serializing cached objects for pretty JSON / YAML / Table LISTs, in process (${new Date().toISOString().slice(0, 16)}Z)${LOAD_AT_START > 2 ? ' — NOISY' : ''}`,
    '',
    `Command: \`node --expose-gc dist/test/bench/list-serialize.js\` (\`make bench-list-serialize\`; BENCH_SERIALIZE_OBJECTS=${OBJECTS}, BENCH_SERIALIZE_ROUNDS=${ROUNDS}). Machine:`,
    '',
    ...machineDescription(),
    '',
    `${OBJECTS} compact Deployments (as the watch cache holds them) serialized into one body each round, produced in 64 KiB batches and dropped; A walks the compact objects' accessors (session 9's list path), B throw-away copies decoded from their kept bytes (detachedCopy), alternating per round. CPU: process CPU time (user + system) per object, median of ${ROUNDS} rounds; old-space growth: V8's old space at its largest while the body is produced, over its size after a full GC just before.`,
    '',
    '| Form | Way | body | CPU per object | old-space growth | growth ÷ body |',
    '|---|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (WRITE_DOCS) prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), section);
}

runBench(main);

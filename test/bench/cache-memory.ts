// Watch cache memory and fill time, in process, on a real etcd: N Deployments of ~2.3 KiB written with raw etcd puts
// in the server's stored form, then a Cacher fills from etcd. Heap bytes per cached object (after gc), the fill time
// beside a raw etcd range + JSON decode of the same keys, and CPU per GET and per LIST of 10,000 from the cache.
// Run: `node --expose-gc dist/test/bench/cache-memory.js` (BENCH_CACHE_OBJECTS, default 100000); the figures are
// printed and prepended to docs/benchmarks.md (BENCH_NO_DOCS=1: printed only). A/B: BENCH_CACHE_BUILD=<other dist>
// measures that build's Cacher, storage and serializers with this script.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Etcd3 } from 'etcd3';
import pino from 'pino';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import type { Cacher } from '../../lib/storage/cacher/cacher';
import { encodeObject } from '../../lib/storage/etcd/codec';
import type { EtcdStorage } from '../../lib/storage/etcd/store';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { machineDescription, prependSection, LOAD_AT_START } from './report';

const OBJECTS = Number(process.env['BENCH_CACHE_OBJECTS'] ?? 100_000);
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';
/** The dist/ directory whose cache is measured (this build's by default). */
const BUILD = resolve(process.env['BENCH_CACHE_BUILD'] ?? join(__dirname, '..', '..'));

async function measured(): Promise<{
  Cacher: typeof Cacher;
  EtcdStorage: typeof EtcdStorage;
  served: typeof import('../../lib/apimachinery/serializers/served-json');
  fillsSettled: () => Promise<void>;
}> {
  const { Cacher } = (await import(
    join(BUILD, 'lib/storage/cacher/cacher.js')
  )) as typeof import('../../lib/storage/cacher/cacher');
  const { EtcdStorage } = (await import(
    join(BUILD, 'lib/storage/etcd/store.js')
  )) as typeof import('../../lib/storage/etcd/store');
  const served = (await import(
    join(BUILD, 'lib/apimachinery/serializers/served-json.js')
  )) as typeof import('../../lib/apimachinery/serializers/served-json');
  // Builds whose fill leaves work for after ready (objects moved off the pages' responses) say when it is done.
  const fill = (await import(join(BUILD, 'lib/storage/cacher/cache-fill.js'))) as {
    fillsSettled?: () => Promise<void>;
  };
  return { Cacher, EtcdStorage, served, fillsSettled: fill.fillsSettled ?? (() => Promise.resolve()) };
}

const PER_NAMESPACE = 10_000;
export const PREFIX = '/registry/apps/deployments/';

let served: Awaited<ReturnType<typeof measured>>['served'];

function log(line: string): void {
  process.stderr.write(`[bench cache-memory] ${line}\n`);
}

/** A Deployment as the server stores it after a create and a status update (~2.3 KiB). */
export function storedDeployment(namespace: string, name: string, i: number): ApiObject {
  const time = new Date(Date.UTC(2026, 0, 1, 0, 0, i % 60)).toISOString().replace('.000', '');
  const labels = { app: name, tier: i % 2 === 0 ? 'web' : 'worker', team: `team-${i % 7}` };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace,
      uid: `0f8c6a0e-${(i % 65536).toString(16).padStart(4, '0')}-4c1e-9a53-${i.toString(16).padStart(12, '0')}`,
      generation: 1,
      creationTimestamp: time,
      labels,
      annotations: { 'deployment.kubernetes.io/revision': '1', 'bench.orch.io/notes': 'n'.repeat(300) },
      managedFields: [
        {
          manager: 'kubectl-client-side-apply',
          operation: 'Update',
          apiVersion: 'apps/v1',
          time,
          fieldsType: 'FieldsV1',
          fieldsV1: {
            'f:metadata': { 'f:labels': { '.': {}, 'f:app': {}, 'f:team': {}, 'f:tier': {} } },
            'f:spec': {
              'f:progressDeadlineSeconds': {},
              'f:replicas': {},
              'f:selector': {},
              'f:template': { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
            },
          },
        },
        {
          manager: 'kube-controller-manager',
          operation: 'Update',
          apiVersion: 'apps/v1',
          time,
          fieldsType: 'FieldsV1',
          fieldsV1: { 'f:status': { 'f:availableReplicas': {}, 'f:conditions': {}, 'f:replicas': {} } },
          subresource: 'status',
        },
      ],
    },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { creationTimestamp: null, labels: { app: name } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.25.3',
              ports: [{ containerPort: 80, protocol: 'TCP' }],
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
            },
          ],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    },
    status: {
      observedGeneration: 1,
      replicas: 3,
      updatedReplicas: 3,
      readyReplicas: 3,
      availableReplicas: 3,
      conditions: [
        {
          type: 'Available',
          status: 'True',
          lastUpdateTime: time,
          lastTransitionTime: time,
          reason: 'MinimumReplicasAvailable',
          message: 'Deployment has minimum availability.',
        },
        {
          type: 'Progressing',
          status: 'True',
          lastUpdateTime: time,
          lastTransitionTime: time,
          reason: 'NewReplicaSetAvailable',
          message: `ReplicaSet "${name}-7d9c6b8f5d" has successfully progressed.`,
        },
      ],
    },
  } as unknown as ApiObject;
}

export function nsOf(i: number): string {
  return `bench-${Math.floor(i / PER_NAMESPACE)}`;
}

export function nameOf(i: number): string {
  return `d-${String(i).padStart(6, '0')}`;
}

/** Writes the objects with raw etcd puts (128 per txn, 8 txns in flight); returns the JSON bytes written. */
export async function writeObjects(client: Etcd3, count = OBJECTS): Promise<number> {
  let bytes = 0;
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const from = next;
      next = Math.min(count, next + 128);
      const success = [];
      for (let i = from; i < next; i++) {
        const value = Buffer.from(encodeObject(storedDeployment(nsOf(i), nameOf(i), i)));
        bytes += value.length;
        success.push({ request_put: { key: Buffer.from(`${PREFIX}${nsOf(i)}/${nameOf(i)}`), value } });
      }
      await client.kv.txn({ compare: [], success, failure: [] });
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return bytes;
}

function settle(): NodeJS.MemoryUsage {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage();
}

/** Bytes per object of heap and of off-heap buffers between two settled points. */
function perObject(before: NodeJS.MemoryUsage, after: NodeJS.MemoryUsage): { heap: number; buffers: number } {
  return {
    heap: (after.heapUsed - before.heapUsed) / OBJECTS,
    buffers: (after.external - before.external) / OBJECTS,
  };
}

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

/** CPU µs per GET-from-cache (lookup + served JSON) over `rounds` keys, and per LIST of one namespace (10,000). */
function serveFromCache(cacher: Cacher, rounds: number): { getUs: number; listMs: number } {
  let sink = 0;
  const t0 = cpuUs();
  for (let r = 0; r < rounds; r++) {
    const i = (r * 7919) % OBJECTS;
    const obj = cacher.get(`${PREFIX}${nsOf(i)}/${nameOf(i)}`);
    if (obj === undefined) throw new Error(`missing ${nameOf(i)}`);
    sink += Buffer.byteLength(served.servedJson(obj) ?? JSON.stringify(obj)); // flattens the string, as a socket write does
  }
  const getUs = (cpuUs() - t0) / rounds;
  const lists = 10;
  const t1 = cpuUs();
  for (let r = 0; r < lists; r++) {
    const { items } = cacher.list(`${PREFIX}${nsOf((r * PER_NAMESPACE) % OBJECTS)}/`);
    const parts: Buffer[] = [];
    for (const item of items) parts.push(served.servedItemBytes(item) ?? Buffer.from(JSON.stringify(item)));
    sink += Buffer.concat(parts).length;
  }
  const listMs = (cpuUs() - t1) / lists / 1000;
  if (sink === 0) log('nothing served');
  return { getUs, listMs };
}

/** The baselines: every key read from etcd in ranges of 10,000, decoded or as raw bytes (dropped page by page). */
async function rangeAndDecode(storage: EtcdStorage, raw: boolean): Promise<{ ms: number; cpuMs: number }> {
  const started = performance.now();
  const cpu0 = cpuUs();
  let count = 0;
  let startKey: string | undefined;
  for (;;) {
    const page = await storage.list(PREFIX, {
      limit: PER_NAMESPACE,
      raw,
      ...(startKey === undefined ? {} : { startKey }),
    });
    count += page.raw?.length ?? page.items.length;
    if (page.lastKey === undefined) break;
    startKey = `${page.lastKey}\u0000`;
  }
  if (count !== OBJECTS) throw new Error(`listed ${count} objects`);
  return { ms: performance.now() - started, cpuMs: (cpuUs() - cpu0) / 1000 };
}

/** Heap per object of a second decoded copy of every cached object (what the decoded object graph costs). */
function decodedGraphBytes(cacher: Cacher): number {
  const m0 = settle();
  const copies: unknown[] = [];
  for (let i = 0; i < OBJECTS; i++)
    copies.push(JSON.parse(served.servedJson(cacher.get(`${PREFIX}${nsOf(i)}/${nameOf(i)}`) as ApiObject) ?? 'null'));
  const m1 = settle();
  if (copies.length !== OBJECTS) log('copies lost');
  return (m1.heapUsed - m0.heapUsed) / OBJECTS;
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-bench-cache-'));
  const etcd = await startEmbeddedEtcd(dir);
  const client = newEtcdClient(etcd.clientUrl);
  const rows: string[] = [];
  const { Cacher, EtcdStorage, served: build, fillsSettled } = await measured();
  served = build;
  try {
    log(`writing ${OBJECTS} Deployments`);
    const jsonBytes = await writeObjects(client);
    const jsonPerObject = jsonBytes / OBJECTS;
    log(`written: ${(jsonBytes / 1e6).toFixed(1)} MB of JSON, ${jsonPerObject.toFixed(0)} B per object`);
    const storage = new EtcdStorage(client);

    const bytesOnly = await rangeAndDecode(storage, true);
    const decoded = await rangeAndDecode(storage, false);
    log(`etcd ranges: ${bytesOnly.ms.toFixed(0)} ms raw, ${decoded.ms.toFixed(0)} ms with decode`);

    settle();
    await new Promise((r) => setTimeout(r, 500)); // buffers freed by the last gc are released after it
    const m0 = settle();
    const rss0 = m0.rss;
    const cacher = new Cacher({
      storage,
      prefix: PREFIX,
      keyOf: (o) => `${PREFIX}${o.metadata.namespace ?? ''}/${o.metadata.name}`,
      capacity: 1000,
      minAgeMs: 75_000,
      bookmarkIntervalMs: 60_000,
      log: pino({ level: 'info' }, pino.destination(2)),
    });
    const started = performance.now();
    const cpu0 = cpuUs();
    cacher.start();
    await cacher.waitReady();
    const fillMs = performance.now() - started;
    const fillCpuMs = (cpuUs() - cpu0) / 1000;
    await fillsSettled(); // memory is measured as the fill leaves it
    const settledMs = performance.now() - started;
    const settledCpuMs = (cpuUs() - cpu0) / 1000;
    const m1 = settle();
    const filled = perObject(m0, m1);
    log(
      `filled in ${fillMs.toFixed(0)} ms; heap ${filled.heap.toFixed(0)} B, buffers ${filled.buffers.toFixed(0)} B per object`,
    );

    const cold = serveFromCache(cacher, 10_000);
    // Every object served once as a GET and as a list item: the kept served encodings.
    for (let i = 0; i < OBJECTS; i++) {
      const obj = cacher.get(`${PREFIX}${nsOf(i)}/${nameOf(i)}`) as ApiObject;
      Buffer.byteLength(served.servedJson(obj) ?? '');
      served.servedItemBytes(obj);
    }
    const m2 = settle();
    const afterServing = perObject(m0, m2);
    const warm = serveFromCache(cacher, 10_000);
    log(
      `after serving every object: heap ${afterServing.heap.toFixed(0)} B, buffers ${afterServing.buffers.toFixed(0)} B per object`,
    );
    const rssPerObject = (m2.rss - rss0) / OBJECTS;
    const graph = decodedGraphBytes(cacher);
    await cacher.stop();

    const ratio = (n: number): string => `${(n / jsonPerObject).toFixed(2)}×`;
    const total = (p: { heap: number; buffers: number }): number => p.heap + p.buffers;
    const figure = (r: { ms: number; cpuMs: number }): string => `${r.ms.toFixed(0)} ms (CPU ${r.cpuMs.toFixed(0)} ms)`;
    rows.push(
      `| objects | JSON per object | etcd ranges of 10,000, raw bytes | etcd ranges + JSON decode | cache fill | GET from cache (CPU) | LIST 10,000 from cache (CPU) |`,
      `|---|---|---|---|---|---|---|`,
      `| ${OBJECTS} | ${jsonPerObject.toFixed(0)} B | ${figure(bytesOnly)} | ${figure(decoded)} | ${figure({ ms: fillMs, cpuMs: fillCpuMs })} | ${cold.getUs.toFixed(1)} µs cold, ${warm.getUs.toFixed(1)} µs warm | ${cold.listMs.toFixed(1)} ms cold, ${warm.listMs.toFixed(1)} ms warm |`,
      '',
      `| memory per object (heap + buffers, after gc) | bytes | × JSON |`,
      `|---|---|---|`,
      `| cache filled (heap ${filled.heap.toFixed(0)} + buffers ${filled.buffers.toFixed(0)}) | ${total(filled).toFixed(0)} | ${ratio(total(filled))} |`,
      `| after every object was served as GET and list item (heap ${afterServing.heap.toFixed(0)} + buffers ${afterServing.buffers.toFixed(0)}) | ${total(afterServing).toFixed(0)} | ${ratio(total(afterServing))} |`,
      `| RSS growth per object after serving | ${rssPerObject.toFixed(0)} | ${ratio(rssPerObject)} |`,
      `| a fully decoded copy of each object, for comparison (JSON.parse) | ${graph.toFixed(0)} | ${ratio(graph)} |`,
    );
    process.stdout.write(`${rows.join('\n')}\n`);
    if (WRITE_DOCS) {
      const perObjectRatio = total(filled) / jsonPerObject;
      const section = [
        `## Watch cache memory and fill (${new Date().toISOString().replace(/\.\d+Z$/, 'Z')})${LOAD_AT_START > 2 ? ' — NOISY' : ''}`,
        '',
        `Command: \`node --expose-gc dist/test/bench/cache-memory.js\` (\`make bench-cache-memory\`), build measured: ${BUILD}. In process on a local etcd: ${OBJECTS} Deployments written with raw puts, then one Cacher fills from etcd (10 pages of 10,000, progress logged per page). Memory is heap + off-heap buffers per object after gc; CPU is this process's.`,
        '',
        'Machine:',
        '',
        ...machineDescription(),
        '',
        ...rows,
        '',
        `- **${perObjectRatio <= 2 ? 'PASS' : 'FAIL'}** per cached object ≤ 2× its JSON (issue 20): ${perObjectRatio.toFixed(2)}×`,
        `- **${fillMs < 5000 ? 'PASS' : 'FAIL'}** fill of ${OBJECTS} < 5 s (issue 20): ${fillMs.toFixed(0)} ms (CPU ${fillCpuMs.toFixed(0)} ms); objects on bytes of their own (after ready) at ${settledMs.toFixed(0)} ms (CPU ${settledCpuMs.toFixed(0)} ms)`,
        '',
      ].join('\n');
      prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), section);
    }
  } finally {
    client.close();
    await etcd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module)
  void main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  });

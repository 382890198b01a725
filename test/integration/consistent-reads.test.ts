// Consistent reads from the watch cache (KEP-2340, feature gate ConsistentListFromCache): GET and LIST without a
// resourceVersion. Property: under concurrent writers, a write acknowledged before a read starts is always in it,
// and every list equals etcd's own range at the list's resourceVersion. The cache serves them (etcd sees no
// list calls); with the gate off, etcd does.
import type { Etcd3 } from 'etcd3';
import {
  startServerWithEtcdClient,
  stopServerWithEtcdClient,
  startTestServer,
  createNamespace,
  type TestServer,
} from '../helpers/test-server';
import { etcdRequestCount } from '../helpers/etcd-request-count';
import { aDeployment, anHpa } from '../helpers/fixtures';
import { seededRandom } from '../helpers/seeded-random';
import { answersInOrder } from '../../lib/storage/etcd/watch-progress';

const NS = 'consistent';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const PREFIX = `/registry/apps/deployments/${NS}/`;
const HPAS = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;

let ts: TestServer;
let etcd: Etcd3;
beforeAll(async () => {
  ({ ts, etcd } = await startServerWithEtcdClient(NS));
});
afterAll(() => stopServerWithEtcdClient(ts, etcd));

function etcdListCalls(server: TestServer): Promise<number> {
  return etcdRequestCount(server, 'list', 'deployments.apps');
}

/** name → resourceVersion as etcd holds the namespace's Deployments at `revision`. */
async function etcdAt(revision: string): Promise<Map<string, string>> {
  const kvs = await etcd.getAll().prefix(PREFIX).revision(revision).exec();
  return new Map(kvs.kvs.map((kv) => [kv.key.toString().slice(PREFIX.length), kv.mod_revision.toString()]));
}

describe('consistent reads from the cache', () => {
  it('always show a write acknowledged before the read, and equal etcd at their resourceVersion', async () => {
    const random = seededRandom(20);
    const writers = 3;
    const rounds = 25;
    const checks: Promise<void>[] = [];
    await Promise.all(
      Array.from({ length: writers }, async (_, w) => {
        const live = new Map<string, string>();
        for (let i = 0; i < rounds; i++) {
          // Each writer owns its names, so what it last acknowledged for them is exactly what a read must show.
          const name = `w${w}-${Math.floor(random() * 4)}`;
          let gone: string | undefined;
          if (!live.has(name)) {
            const res = await ts.api.post(DEPLOYMENTS, aDeployment(name));
            expect(res.status).toBe(201);
            live.set(name, res.body.metadata.resourceVersion);
          } else if (random() < 0.3) {
            expect((await ts.api.delete(`${DEPLOYMENTS}/${name}`)).status).toBe(200);
            live.delete(name);
            gone = name;
          } else {
            const res = await ts.api.patch(`${DEPLOYMENTS}/${name}`, { spec: { replicas: i } });
            expect(res.status).toBe(200);
            live.set(name, res.body.metadata.resourceVersion);
          }
          const acked = new Map(live);

          const [list, get] = await Promise.all([ts.api.get(DEPLOYMENTS), ts.api.get(`${DEPLOYMENTS}/${name}`)]);
          expect(list.status).toBe(200);
          const listed = new Map<string, string>(
            list.body.items.map((o: { metadata: { name: string; resourceVersion: string } }) => [
              o.metadata.name,
              o.metadata.resourceVersion,
            ]),
          );
          for (const [n, rv] of acked) {
            // Another round of this writer cannot have run yet: its own names are exactly as acknowledged.
            expect(listed.get(n)).toBe(rv);
            expect(Number(list.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
          }
          if (gone !== undefined) {
            expect(listed.has(gone)).toBe(false);
            expect(get.status).toBe(404);
          } else {
            expect(get.status).toBe(200);
            expect(get.body.metadata.resourceVersion).toBe(acked.get(name));
          }
          checks.push(etcdAt(list.body.metadata.resourceVersion).then((quorum) => expect(listed).toEqual(quorum)));
        }
      }),
    );
    await Promise.all(checks);
  }, 120_000);

  it('are answered by the cache: quiet lists make no etcd list calls', async () => {
    const before = await etcdListCalls(ts);
    for (let i = 0; i < 10; i++) expect((await ts.api.get(DEPLOYMENTS)).status).toBe(200);
    expect(await etcdListCalls(ts)).toBe(before);
  });

  it('count in apiserver_watch_cache_consistent_read_total whether the cache answered or etcd (fallback)', async () => {
    const counts = async (): Promise<{ cache: number; fallback: number }> => {
      const text = (await ts.api.get('/metrics')).text;
      const value = (success: string, fallback: string): number => {
        const prefix = `apiserver_watch_cache_consistent_read_total{resource="deployments.apps",success="${success}",fallback="${fallback}"} `;
        const line = text.split('\n').find((l) => l.startsWith(prefix));
        return line === undefined ? NaN : Number(line.slice(prefix.length));
      };
      return { cache: value('true', 'false'), fallback: value('false', 'true') };
    };
    const quiet = await counts();
    for (let i = 0; i < 5; i++) expect((await ts.api.get(DEPLOYMENTS)).status).toBe(200);
    const afterQuiet = await counts();
    expect(afterQuiet.cache).toBe(quiet.cache + 5);
    expect(afterQuiet.fallback).toBe(quiet.fallback);

    // Deployments stay quiet while HorizontalPodAutoscalers are written: every read is counted once, either way.
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) expect((await ts.api.post(HPAS, anHpa(`busy-${i}`))).status).toBe(201);
    })();
    for (let i = 0; i < 10; i++) expect((await ts.api.get(DEPLOYMENTS)).status).toBe(200);
    writing = false;
    await writer;
    const afterBusy = await counts();
    expect(afterBusy.cache - afterQuiet.cache + afterBusy.fallback - afterQuiet.fallback).toBe(10);
    // On any etcd the HorizontalPodAutoscalers' cache accounts for the revisions in between (revision-ledger.ts), so
    // the quiet Deployments are served from their cache (10 of 10 here; a write outside every cache would be a gap).
    expect(afterBusy.cache - afterQuiet.cache).toBeGreaterThanOrEqual(5);
    const { version } = await etcd.maintenance.status();
    // From etcd 3.4.31 / 3.5.13 a progress request brings the quiet cache up to date (watch-progress.ts).
    if (answersInOrder(version)) expect(afterBusy.cache - afterQuiet.cache).toBe(10);
  });
});

describe('with --feature-gates=ConsistentListFromCache=false', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer(['--feature-gates=ConsistentListFromCache=false']);
    await createNamespace(off.api, NS);
  });
  afterAll(() => off.stop());

  it('reads etcd for every list without resourceVersion', async () => {
    const before = await etcdListCalls(off);
    for (let i = 0; i < 3; i++) expect((await off.api.get(DEPLOYMENTS)).status).toBe(200);
    expect(await etcdListCalls(off)).toBe(before + 3);
  });
});

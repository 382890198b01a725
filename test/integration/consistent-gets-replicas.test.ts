// Read-your-writes across servers for GET without resourceVersion (consistent reads from the watch cache, with several
// etcd revision reads in flight at once: lib/storage/cacher/shared-revision-read.ts). Two servers on one etcd: while
// a background load keeps server B's revision reads busy, each write acknowledged by server A, or made straight in
// etcd by another client, is in B's next GET, answered by B's watch cache.
import { Etcd3 } from 'etcd3';
import {
  createNamespace,
  startServerOnEtcd,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../helpers/test-server';
import { anHpa } from '../helpers/fixtures';

const NS = 'consistent-replicas';
const HPAS = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;
const ROUNDS = 40;

let a: TestServer;
let b: { server: TestServer['server']; api: ApiClient };
let etcd: Etcd3;
beforeAll(async () => {
  a = await startTestServer();
  b = await startServerOnEtcd([a.etcd.clientUrl]);
  etcd = new Etcd3({ hosts: a.etcd.clientUrl });
  await createNamespace(a.api, NS);
}, 30_000);
afterAll(async () => {
  etcd.close();
  await b.server.shutdown();
  await a.stop();
});

/**
 * HPA reads from the cache (`true`) or fallen back to etcd, from /metrics (one registry for both in-process servers;
 * only B serves GETs).
 */
async function consistentReads(api: ApiClient, fromCache: boolean): Promise<number> {
  const labels = `resource="horizontalpodautoscalers.autoscaling",success="${fromCache}",fallback="${!fromCache}"`;
  const line = (await api.get('/metrics')).text
    .split('\n')
    .find((l) => l.startsWith(`apiserver_watch_cache_consistent_read_total{${labels}}`));
  return Number(line?.slice(line.lastIndexOf(' ') + 1) ?? 0);
}

/** GETs on B in a loop (8 at a time) until stop(), which returns how many: they keep B's revision reads in flight. */
function backgroundGets(api: ApiClient, path: string): { stop: () => Promise<number> } {
  let stopped = false;
  let count = 0;
  const loops = Array.from({ length: 8 }, async () => {
    for (; !stopped; count++) expect((await api.get(path)).status).toBe(200);
  });
  return {
    stop: async () => {
      stopped = true;
      await Promise.all(loops);
      return count;
    },
  };
}

describe('GET without resourceVersion on another server', () => {
  it('shows every update acknowledged by server A, under concurrent GETs on B, from its cache', async () => {
    const created = await a.api.post(HPAS, anHpa('shared'));
    expect(created.status).toBe(201);
    expect((await a.api.post(HPAS, anHpa('busy'))).status).toBe(201);
    const [fromCacheBefore, fellBackBefore] = [await consistentReads(b.api, true), await consistentReads(b.api, false)];
    const load = backgroundGets(b.api, `${HPAS}/busy`);
    let obj = created.body;
    let background = 0;
    try {
      for (let i = 1; i <= ROUNDS; i++) {
        obj.spec.maxReplicas = i + 3;
        const put = await a.api.put(`${HPAS}/shared`, obj);
        expect(put.status).toBe(200);
        obj = put.body;
        const got = await b.api.get(`${HPAS}/shared`);
        expect(got.status).toBe(200);
        expect(got.body.spec.maxReplicas).toBe(i + 3);
        expect(got.body.metadata.resourceVersion).toBe(obj.metadata.resourceVersion);
      }
    } finally {
      background = await load.stop();
    }
    // B's cache answered nearly all of the GETs: the property above held on the cache path.
    expect(background).toBeGreaterThan(4 * ROUNDS);
    const fromCache = (await consistentReads(b.api, true)) - fromCacheBefore;
    const fellBack = (await consistentReads(b.api, false)) - fellBackBefore;
    expect(fromCache + fellBack).toBeGreaterThanOrEqual(ROUNDS + background);
    expect(fromCache).toBeGreaterThan(0.9 * (ROUNDS + background));
  }, 60_000);

  it('shows a delete made straight in etcd by another client', async () => {
    expect((await a.api.post(HPAS, anHpa('raw-deleted'))).status).toBe(201);
    expect((await b.api.get(`${HPAS}/raw-deleted`)).status).toBe(200);
    const load = backgroundGets(b.api, `${HPAS}/busy`);
    try {
      await etcd.delete().key(`/registry/autoscaling/horizontalpodautoscalers/${NS}/raw-deleted`).exec();
      expect((await b.api.get(`${HPAS}/raw-deleted`)).status).toBe(404);
    } finally {
      await load.stop();
    }
  }, 30_000);
});

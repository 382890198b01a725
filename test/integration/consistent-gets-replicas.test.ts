// Read-your-writes across servers for GET without resourceVersion (consistent reads from the watch cache, with several
// etcd revision reads in flight at once: lib/storage/cacher/shared-revision-read.ts). Two servers on one etcd: while
// a background load keeps server B's revision reads busy, each write acknowledged by server A, or made straight in
// etcd by another client, is in B's next GET.
import { Etcd3 } from 'etcd3';
import {
  createNamespace,
  startServerOnEtcd,
  startTestServer,
  type ApiClient,
  type TestServer,
} from '../helpers/test-server';
import { etcdRequestCount } from '../helpers/etcd-request-count';
import { aDeployment } from '../helpers/fixtures';

const NS = 'consistent-replicas';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
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
  it('shows every update acknowledged by server A, under concurrent GETs on B, mostly from its cache', async () => {
    const created = await a.api.post(DEPLOYMENTS, aDeployment('shared'));
    expect(created.status).toBe(201);
    expect((await a.api.post(DEPLOYMENTS, aDeployment('busy'))).status).toBe(201);
    const load = backgroundGets(b.api, `${DEPLOYMENTS}/busy`);
    const etcdGetsBefore = await etcdRequestCount({ api: b.api } as TestServer, 'get', 'deployments.apps');
    let obj = created.body;
    let background = 0;
    try {
      for (let i = 1; i <= ROUNDS; i++) {
        obj.spec.replicas = i;
        const put = await a.api.put(`${DEPLOYMENTS}/shared`, obj);
        expect(put.status).toBe(200);
        obj = put.body;
        const got = await b.api.get(`${DEPLOYMENTS}/shared`);
        expect(got.status).toBe(200);
        expect(got.body.spec.replicas).toBe(i);
        expect(got.body.metadata.resourceVersion).toBe(obj.metadata.resourceVersion);
      }
    } finally {
      background = await load.stop();
    }
    // B's cache answered the GETs (no etcd get per GET; those right after A's write may read etcd when A's
    // controllers wrote other resources in between): the property above held with the cache answering.
    const etcdGets = (await etcdRequestCount({ api: b.api } as TestServer, 'get', 'deployments.apps')) - etcdGetsBefore;
    expect(background).toBeGreaterThan(4 * ROUNDS);
    expect(etcdGets).toBeLessThan((background + ROUNDS) / 4);
  }, 60_000);

  it('shows a delete made straight in etcd by another client', async () => {
    expect((await a.api.post(DEPLOYMENTS, aDeployment('raw-deleted'))).status).toBe(201);
    expect((await b.api.get(`${DEPLOYMENTS}/raw-deleted`)).status).toBe(200);
    const load = backgroundGets(b.api, `${DEPLOYMENTS}/busy`);
    try {
      await etcd.delete().key(`/registry/apps/deployments/${NS}/raw-deleted`).exec();
      expect((await b.api.get(`${DEPLOYMENTS}/raw-deleted`)).status).toBe(404);
    } finally {
      await load.stop();
    }
  }, 30_000);
});

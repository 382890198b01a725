// --event-ttl: events are stored with an etcd lease and vanish when it expires, seen by watches (through the
// watch cache) as DELETED, with no sweeper writing anything.
import { Etcd3 } from 'etcd3';
import { startTestServer, createNamespace, uniqueName, eventually, type TestServer } from '../helpers/test-server';
import { openWatch } from '../helpers/watch-client';

let ts: TestServer;
let etcd: Etcd3;
const ns = uniqueName('ttl');
beforeAll(async () => {
  ts = await startTestServer(['--event-ttl=2s']);
  etcd = new Etcd3({ hosts: ts.etcd.clientUrl });
  await createNamespace(ts.api, ns);
});
afterAll(async () => {
  etcd.close();
  await ts.stop();
});

const coreEvent = (name: string) => ({
  metadata: { name },
  involvedObject: { kind: 'Namespace', name: ns, namespace: ns },
  reason: 'Test',
  message: name,
  type: 'Normal',
});

describe('--event-ttl', () => {
  it('stores events with a lease of the TTL that etcd expires; watches see DELETED and both APIs lose them', async () => {
    const created = await ts.api.post(`/api/v1/namespaces/${ns}/events`, coreEvent('short-lived'));
    expect(created.status).toBe(201);
    const key = `/registry/events/${ns}/short-lived`;
    const stored = await etcd.getAll().prefix(key).exec();
    const lease = stored.kvs[0]?.lease;
    expect(lease).toBeDefined();
    expect(lease).not.toBe('0');
    const ttl = await etcd.leaseClient.leaseTimeToLive({ ID: lease as string, keys: false });
    expect(Number(ttl.grantedTTL)).toBe(2);
    // A namespace (no TTL) is stored without a lease.
    expect((await etcd.getAll().prefix(`/registry/namespaces/${ns}`).exec()).kvs[0]?.lease).toBe('0');

    const watch = await openWatch(
      ts.url,
      `/apis/events.k8s.io/v1/namespaces/${ns}/events?watch=true&resourceVersion=${created.body.metadata.resourceVersion}`,
    );
    try {
      const [deleted] = await watch.next(1, 20_000).catch(async (err: Error) => {
        const left = (await etcd.getAll().prefix(key).exec()).kvs.length;
        const ttlNow = await etcd.leaseClient.leaseTimeToLive({ ID: lease as string, keys: true });
        const api = (await ts.api.get(`/api/v1/namespaces/${ns}/events/short-lived`)).status;
        const cached = (await ts.api.get(`/api/v1/namespaces/${ns}/events?resourceVersion=0`)).body.items.map(
          (i: { metadata: { name: string } }) => i.metadata.name,
        );
        throw new Error(
          `${err.message}; etcd keys left ${left}, lease ${JSON.stringify(ttlNow)}, api ${api}, cached ${JSON.stringify(cached)}`,
        );
      });
      expect(deleted?.type).toBe('DELETED');
      expect(deleted?.object.metadata.name).toBe('short-lived');
    } finally {
      watch.close();
    }
    expect((await ts.api.get(`/api/v1/namespaces/${ns}/events/short-lived`)).status).toBe(404);
    expect((await ts.api.get(`/apis/events.orch.io/v1/namespaces/${ns}/events/short-lived`)).status).toBe(404);
    await eventually(
      async () => (await ts.api.get(`/api/v1/namespaces/${ns}/events?resourceVersion=0`)).body.items.length === 0,
      5000,
      'watch cache to drop the event',
    );
  });

  it('writes within the reuse window of a longer TTL share one lease (5% of the TTL, as Kubernetes reuses leases)', async () => {
    const longer = await startTestServer(['--event-ttl=1m']);
    const client = new Etcd3({ hosts: longer.etcd.clientUrl });
    try {
      const space = uniqueName('ttl-shared');
      await createNamespace(longer.api, space);
      for (const n of ['a', 'b', 'c'])
        expect(
          (
            await longer.api.post(`/api/v1/namespaces/${space}/events`, {
              ...coreEvent(n),
              involvedObject: { kind: 'Namespace', name: space, namespace: space },
            })
          ).status,
        ).toBe(201);
      const kvs = (await client.getAll().prefix(`/registry/events/${space}/`).exec()).kvs;
      expect(kvs).toHaveLength(3);
      expect(new Set(kvs.map((kv) => kv.lease)).size).toBe(1);
      // Granted for the TTL plus the 3 s reuse window.
      const ttl = await client.leaseClient.leaseTimeToLive({ ID: kvs[0]?.lease as string, keys: false });
      expect(Number(ttl.grantedTTL)).toBe(63);
    } finally {
      client.close();
      await longer.stop();
    }
  });
});

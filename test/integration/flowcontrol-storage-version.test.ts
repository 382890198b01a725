// FlowSchema and PriorityLevelConfiguration are written to etcd as v1beta2, Kubernetes 1.26's storage and preferred
// version (kubernetes/kubernetes#112512; spec Versioning 4b), while the strategies work on v1beta3.
import type { Etcd3 } from 'etcd3';
import { storageVersionHash } from '../../lib/endpoints/discovery/storage-version-hash';
import { aPriorityLevel, FLOWCONTROL } from '../helpers/fixtures';
import { type TestServer, startServerWithEtcdClient, stopServerWithEtcdClient } from '../helpers/test-server';
import { openWatch } from '../helpers/watch-client';

const GROUP = 'flowcontrol.apiserver.orch.io';
const V1BETA2 = `/apis/${GROUP}/v1beta2`;
let ts: TestServer;
let etcd: Etcd3;

beforeAll(async () => ({ ts, etcd } = await startServerWithEtcdClient('fc-storage')));
afterAll(() => stopServerWithEtcdClient(ts, etcd));

async function stored(resource: string, name: string): Promise<Record<string, any>> {
  const text = await etcd.get(`/registry/${GROUP}/${resource}/${name}`).string();
  if (text === null) throw new Error(`nothing stored for ${resource}/${name}`);
  return JSON.parse(text);
}

describe('flowcontrol storage version', () => {
  it('writes a PriorityLevelConfiguration created through v1beta3 as v1beta2 (assuredConcurrencyShares) and serves it in both versions', async () => {
    expect((await ts.api.post(`${FLOWCONTROL}/prioritylevelconfigurations`, aPriorityLevel('stored-pl'))).status).toBe(
      201,
    );
    const inEtcd = await stored('prioritylevelconfigurations', 'stored-pl');
    expect(inEtcd.apiVersion).toBe(`${GROUP}/v1beta2`);
    expect(inEtcd.spec.limited).toMatchObject({ assuredConcurrencyShares: 10 });
    expect(inEtcd.spec.limited.nominalConcurrencyShares).toBeUndefined();
    const v1beta3 = await ts.api.get(`${FLOWCONTROL}/prioritylevelconfigurations/stored-pl`);
    expect(v1beta3.body.apiVersion).toBe(`${GROUP}/v1beta3`);
    expect(v1beta3.body.spec.limited.nominalConcurrencyShares).toBe(10);
    const v1beta2 = await ts.api.get(`${V1BETA2}/prioritylevelconfigurations/stored-pl`);
    expect(v1beta2.body.spec.limited.assuredConcurrencyShares).toBe(10);
    expect(v1beta2.body.metadata.resourceVersion).toBe(v1beta3.body.metadata.resourceVersion);
    const listed = await ts.api.get(`${FLOWCONTROL}/prioritylevelconfigurations`);
    expect(
      listed.body.items.find((i: any) => i.metadata.name === 'stored-pl').spec.limited.nominalConcurrencyShares,
    ).toBe(10);
    const listedRv0 = await ts.api.get(`${FLOWCONTROL}/prioritylevelconfigurations?resourceVersion=0`);
    expect(
      listedRv0.body.items.find((i: any) => i.metadata.name === 'stored-pl').spec.limited.nominalConcurrencyShares,
    ).toBe(10);
  });

  it('keeps updates, patches and watches in the hub form while etcd holds v1beta2', async () => {
    const created = (await ts.api.post(`${FLOWCONTROL}/prioritylevelconfigurations`, aPriorityLevel('watched-pl')))
      .body;
    const watch = await openWatch(
      ts.url,
      `${FLOWCONTROL}/prioritylevelconfigurations?watch=1&resourceVersion=${created.metadata.resourceVersion}&fieldSelector=metadata.name%3Dwatched-pl`,
    );
    try {
      const patched = await ts.api.patch(
        `${FLOWCONTROL}/prioritylevelconfigurations/watched-pl`,
        { spec: { limited: { nominalConcurrencyShares: 25 } } },
        'application/merge-patch+json',
      );
      expect(patched.status).toBe(200);
      expect(patched.body.spec.limited.nominalConcurrencyShares).toBe(25);
      expect((await stored('prioritylevelconfigurations', 'watched-pl')).spec.limited.assuredConcurrencyShares).toBe(
        25,
      );
      const [event] = await watch.next(1);
      if (event === undefined) throw new Error('no watch event');
      expect(event.type).toBe('MODIFIED');
      expect(event.object.apiVersion).toBe(`${GROUP}/v1beta3`);
      expect(event.object.spec.limited.nominalConcurrencyShares).toBe(25);
    } finally {
      watch.close();
    }
  });

  it('prints the same table cells through either version (columns read the hub form)', async () => {
    await ts.api.post(`${FLOWCONTROL}/prioritylevelconfigurations`, aPriorityLevel('table-pl'));
    const accept = { accept: 'application/json;as=Table;g=meta.orch.io;v=v1' };
    for (const base of [FLOWCONTROL, V1BETA2]) {
      const table = await ts.api.get(`${base}/prioritylevelconfigurations/table-pl`, accept);
      const shares = table.body.columnDefinitions.findIndex((c: any) => c.name === 'NominalConcurrencyShares');
      expect(shares).toBeGreaterThan(0);
      expect(table.body.rows[0].cells[shares]).toBe(10);
    }
  });

  it('names v1beta2 the preferred version of the group, as 1.26 does (the version kubectl reads)', async () => {
    const group = await ts.api.get(`/apis/${GROUP}`);
    expect(group.body.preferredVersion).toEqual({ groupVersion: `${GROUP}/v1beta2`, version: 'v1beta2' });
    expect(group.body.versions.map((v: any) => v.version)).toEqual(['v1beta2', 'v1beta3']);
  });

  it("reports the v1beta2 storageVersionHash in both versions' discovery", async () => {
    const expected = storageVersionHash(GROUP, 'v1beta2', 'PriorityLevelConfiguration');
    for (const path of [FLOWCONTROL, V1BETA2]) {
      const doc = await ts.api.get(path);
      expect(doc.body.resources.find((r: any) => r.name === 'prioritylevelconfigurations').storageVersionHash).toBe(
        expected,
      );
    }
  });
});

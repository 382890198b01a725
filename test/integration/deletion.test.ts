import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { aDeployment, aFlowSchema, anHpa, FLOWCONTROL } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'del';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

function withFinalizer(name: string): Record<string, any> {
  const obj = aDeployment(name);
  obj['metadata'].finalizers = ['example.com/keep'];
  return obj;
}

describe('deletion', () => {
  it('marks an object with finalizers terminating, keeps it readable, and removes it when finalizers empty', async () => {
    await ts.api.post(DEPLOYMENTS, withFinalizer('held'));
    const del = await ts.api.delete(`${DEPLOYMENTS}/held`);
    expect(del.status).toBe(200);
    expect(del.body.kind).toBe('Deployment');
    expect(del.body.metadata.deletionTimestamp).toMatch(/Z$/);
    expect(del.body.metadata.deletionGracePeriodSeconds).toBe(0);
    expect(del.body.metadata.generation).toBe(2);

    const read = await ts.api.get(`${DEPLOYMENTS}/held`);
    expect(read.status).toBe(200);
    expect(read.body.metadata.deletionTimestamp).toBe(del.body.metadata.deletionTimestamp);

    const again = await ts.api.delete(`${DEPLOYMENTS}/held`);
    expect(again.status).toBe(200);
    expect(again.body.metadata.resourceVersion).toBe(read.body.metadata.resourceVersion);

    const added = await ts.api.patch(`${DEPLOYMENTS}/held`, {
      metadata: { finalizers: ['example.com/keep', 'example.com/more'] },
    });
    expect(added.status).toBe(422);
    expect(added.body.message).toContain(
      'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/more"}',
    );

    const released = await ts.api.patch(`${DEPLOYMENTS}/held`, { metadata: { finalizers: [] } });
    expect(released.status).toBe(200);
    expect((await ts.api.get(`${DEPLOYMENTS}/held`)).status).toBe(404);
  });

  it('answers 202 when orphanDependents=false keeps the object', async () => {
    await ts.api.post(DEPLOYMENTS, withFinalizer('accepted'));
    const del = await ts.api.delete(`${DEPLOYMENTS}/accepted`, {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      orphanDependents: false,
    });
    expect(del.status).toBe(202);
  });

  it('honours a uid precondition with 409 on mismatch', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('pre'));
    const res = await ts.api.delete(`${DEPLOYMENTS}/pre`, {
      kind: 'DeleteOptions',
      apiVersion: 'v1',
      preconditions: { uid: 'not-it' },
    });
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(
      /^Operation cannot be fulfilled on Deployment\.apps "pre": the UID in the precondition \(not-it\) does not match the UID in record \([0-9a-f-]+\)\. The object might have been deleted and then recreated$/,
    );
    expect(res.body.details).toMatchObject({ name: 'pre', group: 'apps', kind: 'Deployment' });
    expect((await ts.api.get(`${DEPLOYMENTS}/pre`)).status).toBe(200);
  });

  it('honours a resourceVersion precondition given as a query parameter', async () => {
    const created = (await ts.api.post(DEPLOYMENTS, aDeployment('prerv'))).body;
    const stale = await ts.api.delete(`${DEPLOYMENTS}/prerv?resourceVersion=1`);
    expect(stale.status).toBe(409);
    expect(stale.body.message).toContain(
      `the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${created.metadata.resourceVersion})`,
    );
    const ok = await ts.api.delete(`${DEPLOYMENTS}/prerv?resourceVersion=${created.metadata.resourceVersion}`);
    expect(ok.status).toBe(200);
  });

  it('refuses an unknown propagationPolicy with 422 on DeleteOptions', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('pp'));
    const res = await ts.api.delete(`${DEPLOYMENTS}/pp?propagationPolicy=Sideways`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'DeleteOptions.meta.orch.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
  });

  it('changes nothing on a dry-run delete, even with finalizers', async () => {
    await ts.api.post(DEPLOYMENTS, withFinalizer('drydel'));
    const res = await ts.api.delete(`${DEPLOYMENTS}/drydel?dryRun=All`);
    expect(res.status).toBe(200);
    const read = await ts.api.get(`${DEPLOYMENTS}/drydel`);
    expect(read.body.metadata.deletionTimestamp).toBeUndefined();
    await ts.api.post(DEPLOYMENTS, aDeployment('drydel2'));
    await ts.api.delete(`${DEPLOYMENTS}/drydel2?dryRun=All`);
    expect((await ts.api.get(`${DEPLOYMENTS}/drydel2`)).status).toBe(200);
  });

  it('deletes a cluster-scoped object and reports the Status with group and uid', async () => {
    const created = (await ts.api.post(`${FLOWCONTROL}/flowschemas`, aFlowSchema('fs-del'))).body;
    const res = await ts.api.delete(`${FLOWCONTROL}/flowschemas/fs-del`);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: {
        name: 'fs-del',
        group: 'flowcontrol.apiserver.orch.io',
        kind: 'flowschemas',
        uid: created.metadata.uid,
      },
    });
  });

  it('deletes a collection by label and answers with the list as read', async () => {
    for (const [name, tier] of [
      ['c1', 'a'],
      ['c2', 'a'],
      ['c3', 'b'],
    ] as const) {
      const obj = aDeployment(name);
      obj['metadata'].labels.tier = tier;
      await ts.api.post(DEPLOYMENTS, obj);
    }
    const res = await ts.api.delete(`${DEPLOYMENTS}?labelSelector=tier%3Da`);
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('DeploymentList');
    expect(res.body.items.map((i: any) => i.metadata.name).sort()).toEqual(['c1', 'c2']);
    expect((await ts.api.get(`${DEPLOYMENTS}/c1`)).status).toBe(404);
    expect((await ts.api.get(`${DEPLOYMENTS}/c3`)).status).toBe(200);
  });

  describe('propagation policies (the server plays the garbage collector)', () => {
    const HPAS = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;

    async function ownerWithDependent(name: string): Promise<{ owner: any; dependent: string }> {
      const owner = (await ts.api.post(DEPLOYMENTS, aDeployment(name))).body;
      const hpa = anHpa(`${name}-hpa`);
      hpa['metadata'].ownerReferences = [
        { apiVersion: 'apps/v1', kind: 'Deployment', name, uid: owner.metadata.uid, blockOwnerDeletion: true },
      ];
      expect((await ts.api.post(HPAS, hpa)).status).toBe(201);
      return { owner, dependent: `${HPAS}/${name}-hpa` };
    }

    it('Orphan: removes the object and leaves its dependents without the owner reference', async () => {
      const { dependent } = await ownerWithDependent('orphaner');
      const del = await ts.api.delete(`${DEPLOYMENTS}/orphaner?propagationPolicy=Orphan`);
      expect(del.status).toBe(200);
      expect(del.body.metadata.finalizers).toEqual(['orphan']);
      await eventually(
        async () => (await ts.api.get(`${DEPLOYMENTS}/orphaner`)).status === 404,
        10_000,
        'owner removal',
      );
      const left = await ts.api.get(dependent);
      expect(left.status).toBe(200);
      expect(left.body.metadata.ownerReferences ?? []).toEqual([]);
    });

    it('Foreground: deletes the dependents first, then the object', async () => {
      const { dependent } = await ownerWithDependent('foreground');
      const del = await ts.api.delete(`${DEPLOYMENTS}/foreground`, {
        kind: 'DeleteOptions',
        apiVersion: 'v1',
        propagationPolicy: 'Foreground',
      });
      expect(del.body.metadata.finalizers).toEqual(['foregroundDeletion']);
      await eventually(
        async () => (await ts.api.get(`${DEPLOYMENTS}/foreground`)).status === 404,
        10_000,
        'owner removal',
      );
      expect((await ts.api.get(dependent)).status).toBe(404);
    });
  });
});

describe('the garbage collector without a watch cache (--watch-cache=false: etcd watches)', () => {
  let plain: TestServer;
  beforeAll(async () => {
    plain = await startTestServer(['--watch-cache=false']);
    await createNamespace(plain.api, NS);
  });
  afterAll(() => plain.stop());

  it('still orphans dependents and removes the owner', async () => {
    const hpas = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;
    const owner = (await plain.api.post(DEPLOYMENTS, aDeployment('plain-owner'))).body;
    const hpa = anHpa('plain-hpa');
    hpa['metadata'].ownerReferences = [
      { apiVersion: 'apps/v1', kind: 'Deployment', name: 'plain-owner', uid: owner.metadata.uid },
    ];
    expect((await plain.api.post(hpas, hpa)).status).toBe(201);
    expect((await plain.api.delete(`${DEPLOYMENTS}/plain-owner?propagationPolicy=Orphan`)).status).toBe(200);
    await eventually(
      async () => (await plain.api.get(`${DEPLOYMENTS}/plain-owner`)).status === 404,
      10_000,
      'owner removal',
    );
    expect((await plain.api.get(`${hpas}/plain-hpa`)).body.metadata.ownerReferences ?? []).toEqual([]);
  });
});

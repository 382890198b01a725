import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'scaling';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

describe('deployments/scale', () => {
  it('reads a Deployment as an autoscaling/v1 Scale', async () => {
    const dep = aDeployment('web');
    dep['spec'].replicas = 2;
    dep['spec'].selector = {
      matchLabels: { app: 'web' },
      matchExpressions: [{ key: 'tier', operator: 'In', values: ['b', 'a'] }],
    };
    dep['spec'].template.metadata.labels = { app: 'web', tier: 'a' };
    const created = (await ts.api.post(DEPLOYMENTS, dep)).body;
    const res = await ts.api.get(`${DEPLOYMENTS}/web/scale`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: 'web',
        namespace: NS,
        uid: created.metadata.uid,
        resourceVersion: created.metadata.resourceVersion,
        creationTimestamp: created.metadata.creationTimestamp,
      },
      spec: { replicas: 2 },
      status: { replicas: 0, selector: 'app=web,tier in (a,b)' },
    });
  });

  it('changes only replicas on PUT, bumping generation', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('put'));
    const scale = (await ts.api.get(`${DEPLOYMENTS}/put/scale`)).body;
    const res = await ts.api.put(`${DEPLOYMENTS}/put/scale`, {
      ...scale,
      spec: { replicas: 4 },
      status: { replicas: 99 },
    });
    expect(res.status).toBe(200);
    expect(res.body.spec.replicas).toBe(4);
    const dep = (await ts.api.get(`${DEPLOYMENTS}/put`)).body;
    expect(dep.spec.replicas).toBe(4);
    expect(dep.metadata.generation).toBe(2);
    expect(dep.status?.replicas ?? 0).toBe(0);
  });

  it('treats a stale resourceVersion on the Scale as a 409 precondition', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('stale'));
    const scale = (await ts.api.get(`${DEPLOYMENTS}/stale/scale`)).body;
    await ts.api.put(`${DEPLOYMENTS}/stale/scale`, { ...scale, spec: { replicas: 2 } });
    const res = await ts.api.put(`${DEPLOYMENTS}/stale/scale`, { ...scale, spec: { replicas: 3 } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Operation cannot be fulfilled on deployments.apps "stale": the object has been modified; please apply your changes to the latest version and try again',
    );
  });

  it('refuses negative replicas with 422 on Scale.autoscaling', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('neg'));
    const res = await ts.api.patch(`${DEPLOYMENTS}/neg/scale`, { spec: { replicas: -1 } });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'Scale.autoscaling "neg" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    );
  });

  it('patches replicas with a merge patch and answers 404 for a missing Deployment', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('patchme'));
    const res = await ts.api.patch(`${DEPLOYMENTS}/patchme/scale`, { spec: { replicas: 5 } });
    expect(res.body.spec.replicas).toBe(5);
    const missing = await ts.api.get(`${DEPLOYMENTS}/ghost/scale`);
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('deployments.apps "ghost" not found');
  });

  it('is listed in discovery as an autoscaling/v1 Scale', async () => {
    const res = await ts.api.get('/apis/apps/v1');
    expect(res.body.resources).toContainEqual({
      name: 'deployments/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
  });
});

describe('deployments/scale as a Table and as PartialObjectMetadata (kubectl get --subresource=scale)', () => {
  const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';

  it("prints the Scale's columns: Name, Desired, Available, Age", async () => {
    const dep = aDeployment('tabled');
    dep['spec'].replicas = 3;
    await ts.api.post(DEPLOYMENTS, dep);
    const res = await ts.api.get(`${DEPLOYMENTS}/tabled/scale?includeObject=None`, { Accept: TABLE });
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('Table');
    expect(res.body.apiVersion).toBe('meta.k8s.io/v1');
    expect(
      res.body.columnDefinitions.map((c: { name: string; type: string; format: string }) => [c.name, c.type, c.format]),
    ).toEqual([
      ['Name', 'string', ''],
      ['Desired', 'integer', ''],
      ['Available', 'integer', ''],
      ['Age', 'string', ''],
    ]);
    expect(res.body.rows).toHaveLength(1);
    expect(res.body.rows[0].cells.slice(0, 3)).toEqual(['tabled', 3, 0]);
    expect(res.body.rows[0].object).toBeUndefined();
  });

  it('answers PartialObjectMetadata of the Scale', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}/tabled/scale`, {
      Accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kind: 'PartialObjectMetadata', metadata: { name: 'tabled', namespace: NS } });
  });
});

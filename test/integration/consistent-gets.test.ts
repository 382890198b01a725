// GET without resourceVersion answered by the watch cache once it has caught up with etcd (consistent reads,
// KEP-2340, feature gate ConsistentListFromCache): the same object and NotFound as etcd's, without an etcd read;
// with the gate off every such GET reads etcd. (Writes acknowledged before a GET are always in it: the property test
// in consistent-reads.test.ts.) The cache has caught up once etcd's progress notification (every 5 s here) or an
// answered progress request has brought it past the server's own start-up writes to other resources.
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { etcdRequestCount } from '../helpers/etcd-request-count';
import { aDeployment } from '../helpers/fixtures';

const NS = 'consistent-gets';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

function etcdGetCalls(server: TestServer): Promise<number> {
  return etcdRequestCount(server, 'get', 'deployments.apps');
}

describe('GET without resourceVersion, consistent reads on (the default)', () => {
  let ts: TestServer;
  let created: { metadata: { resourceVersion: string; uid: string } };
  beforeAll(async () => {
    ts = await startTestServer();
    await createNamespace(ts.api, NS);
    const res = await ts.api.post(DEPLOYMENTS, aDeployment('cached'));
    expect(res.status).toBe(201);
    created = res.body;
    // Served from the cache for a whole second: the server's own start-up writes (FlowSchemas…) are over.
    let hitsSince: number | undefined;
    await eventually(
      async () => {
        const before = await etcdGetCalls(ts);
        expect((await ts.api.get(`${DEPLOYMENTS}/cached`)).status).toBe(200);
        if ((await etcdGetCalls(ts)) !== before) hitsSince = undefined;
        else hitsSince ??= Date.now();
        return hitsSince !== undefined && Date.now() - hitsSince > 1000;
      },
      20_000,
      'the Deployment cache to catch up with etcd',
    );
  }, 30_000);
  afterAll(() => ts.stop());

  it('answers from the cache: the object as written, in JSON, YAML and as a Table, with no etcd get', async () => {
    const before = await etcdGetCalls(ts);
    for (let i = 0; i < 5; i++) {
      const res = await ts.api.get(`${DEPLOYMENTS}/cached`);
      expect(res.status).toBe(200);
      expect(res.body.metadata.resourceVersion).toBe(created.metadata.resourceVersion);
      expect(res.body.metadata.uid).toBe(created.metadata.uid);
      expect(res.body.kind).toBe('Deployment');
      expect(res.body.apiVersion).toBe('apps/v1');
    }
    const yaml = await ts.api.get(`${DEPLOYMENTS}/cached`, { accept: 'application/yaml' });
    expect(yaml.status).toBe(200);
    expect(yaml.text).toContain(`resourceVersion: "${created.metadata.resourceVersion}"`);
    const table = await ts.api.get(`${DEPLOYMENTS}/cached`, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.status).toBe(200);
    expect(table.body.kind).toBe('Table');
    expect(table.body.rows[0].cells[0]).toBe('cached');
    expect(await etcdGetCalls(ts)).toBe(before);
  });

  it('answers 404 NotFound for a name the caught-up cache does not hold, with no etcd get', async () => {
    const before = await etcdGetCalls(ts);
    const res = await ts.api.get(`${DEPLOYMENTS}/missing`);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'NotFound',
      message: 'deployments.apps "missing" not found',
      details: { name: 'missing', group: 'apps', kind: 'deployments' },
      code: 404,
    });
    expect(await etcdGetCalls(ts)).toBe(before);
  });

  it('sees a delete acknowledged before it', async () => {
    expect((await ts.api.post(DEPLOYMENTS, aDeployment('gone'))).status).toBe(201);
    expect((await ts.api.get(`${DEPLOYMENTS}/gone`)).status).toBe(200);
    expect((await ts.api.delete(`${DEPLOYMENTS}/gone`)).status).toBe(200);
    expect((await ts.api.get(`${DEPLOYMENTS}/gone`)).status).toBe(404);
  });
});

describe('GET without resourceVersion, --feature-gates=ConsistentListFromCache=false', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer(['--feature-gates=ConsistentListFromCache=false']);
    await createNamespace(off.api, NS);
    expect((await off.api.post(DEPLOYMENTS, aDeployment('read-etcd'))).status).toBe(201);
  });
  afterAll(() => off.stop());

  it('reads etcd for every GET', async () => {
    const before = await etcdGetCalls(off);
    for (let i = 0; i < 3; i++) expect((await off.api.get(`${DEPLOYMENTS}/read-etcd`)).status).toBe(200);
    expect(await etcdGetCalls(off)).toBe(before + 3);
  });
});

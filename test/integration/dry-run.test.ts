// dryRun=All on every verb over HTTP: the normal answer, and etcd (read directly) holding exactly what it held before.
import { Etcd3 } from 'etcd3';
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
let etcd: Etcd3;
const NS = 'dry';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const PREFIX = `/registry/apps/deployments/${NS}/`;

beforeAll(async () => {
  ts = await startTestServer();
  etcd = new Etcd3({ hosts: ts.etcd.clientUrl });
  await createNamespace(ts.api, NS);
  for (const name of ['a', 'b', 'c'])
    expect(
      (await ts.api.post(DEPLOYMENTS, aDeployment(name, { metadata: { name, labels: { group: 'abc' } } }))).status,
    ).toBe(201);
  const held = aDeployment('held');
  held['metadata'].finalizers = ['example.com/keep'];
  expect((await ts.api.post(DEPLOYMENTS, held)).status).toBe(201);
});
afterAll(async () => {
  etcd.close();
  await ts.stop();
});

/** Every key of the namespace's deployments with its value and mod revision. */
async function snapshot(): Promise<Array<[string, string, string]>> {
  const res = await etcd.getAll().prefix(PREFIX).exec();
  return res.kvs.map((kv) => [kv.key.toString(), kv.value.toString(), kv.mod_revision]);
}

/** Runs `request` as a dry run and checks that etcd did not change. */
async function dryRun<T>(request: () => Promise<T>): Promise<T> {
  const before = await snapshot();
  const result = await request();
  expect(await snapshot()).toEqual(before);
  return result;
}

const stored = async (name: string): Promise<Record<string, any> | null> => {
  const raw = await etcd.get(`${PREFIX}${name}`).string();
  return raw === null ? null : JSON.parse(raw);
};

describe('dryRun=All', () => {
  it('create answers 201 with generated name, uid and creationTimestamp, none of which reach etcd', async () => {
    const obj = aDeployment('x');
    obj['metadata'] = { generateName: 'gen-', labels: { app: 'x' } };
    const res = await dryRun(() => ts.api.post(`${DEPLOYMENTS}?dryRun=All`, obj));
    expect(res.status).toBe(201);
    expect(res.body.metadata.name).toMatch(/^gen-[a-z0-9]{5}$/);
    expect(res.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body.metadata.creationTimestamp).toMatch(/Z$/);
    expect(res.body.metadata.generation).toBe(1);
    expect(res.body.spec.strategy.type).toBe('RollingUpdate');
    expect(res.body.metadata.managedFields?.[0]).toMatchObject({ operation: 'Update' });
    expect(await stored(res.body.metadata.name)).toBeNull();
    expect((await ts.api.get(`${DEPLOYMENTS}/${res.body.metadata.name}`)).status).toBe(404);
  });

  it('create still runs validation and the existence check', async () => {
    const invalid = aDeployment('bad');
    invalid['spec'].replicas = -1;
    const refused = await dryRun(() => ts.api.post(`${DEPLOYMENTS}?dryRun=All`, invalid));
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    const exists = await dryRun(() => ts.api.post(`${DEPLOYMENTS}?dryRun=All`, aDeployment('a')));
    expect(exists.status).toBe(409);
    expect(exists.body.reason).toBe('AlreadyExists');
  });

  it('update answers 200 with the new object; etcd keeps the old one', async () => {
    const current = (await ts.api.get(`${DEPLOYMENTS}/a`)).body;
    const res = await dryRun(() =>
      ts.api.put(`${DEPLOYMENTS}/a?dryRun=All`, { ...current, spec: { ...current.spec, replicas: 7 } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.spec.replicas).toBe(7);
    expect(res.body.metadata.generation).toBe(2);
    expect(res.body.metadata.resourceVersion).toBe(current.metadata.resourceVersion);
    expect((await stored('a'))?.['spec'].replicas).toBe(1);
    const stale = await dryRun(() =>
      ts.api.put(`${DEPLOYMENTS}/a?dryRun=All`, {
        ...current,
        metadata: { ...current.metadata, resourceVersion: '1' },
      }),
    );
    expect(stale.status).toBe(409);
  });

  it.each([
    ['application/json-patch+json', [{ op: 'replace', path: '/spec/replicas', value: 4 }], ''],
    ['application/merge-patch+json', { spec: { replicas: 4 } }, ''],
    ['application/strategic-merge-patch+json', { spec: { replicas: 4 } }, ''],
    [
      'application/apply-patch+yaml',
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: b\nspec:\n  replicas: 4\n',
      '&fieldManager=dry-applier&force=true',
    ],
  ])('patch %s answers 200 with the patched object; etcd unchanged', async (contentType, body, extra) => {
    const res = await dryRun(() =>
      ts.api.request('PATCH', `${DEPLOYMENTS}/b?dryRun=All${extra}`, body, { 'Content-Type': contentType }),
    );
    expect(res.status).toBe(200);
    expect(res.body.spec.replicas).toBe(4);
    expect((await stored('b'))?.['spec'].replicas).toBe(1);
  });

  it('apply still reports conflicts with the other managers', async () => {
    const yaml = 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: b\nspec:\n  replicas: 4\n';
    const res = await dryRun(() =>
      ts.api.request('PATCH', `${DEPLOYMENTS}/b?dryRun=All&fieldManager=dry-applier`, yaml, {
        'Content-Type': 'application/apply-patch+yaml',
      }),
    );
    expect(res.status).toBe(409);
    expect(res.body.message).toMatch(
      /^Apply failed with 1 conflict: conflict with ".+" using apps\/v1: \.spec\.replicas$/,
    );
  });

  it('apply of a missing object answers 201 and creates nothing', async () => {
    const yaml = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: applied\nspec:\n  selector:\n    matchLabels: {app: ap}\n  template:\n    metadata:\n      labels: {app: ap}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n`;
    const res = await dryRun(() =>
      ts.api.request('PATCH', `${DEPLOYMENTS}/applied?dryRun=All&fieldManager=m`, yaml, {
        'Content-Type': 'application/apply-patch+yaml',
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.metadata.uid).toBeDefined();
    expect(await stored('applied')).toBeNull();
  });

  it('delete answers the Success status and leaves the object', async () => {
    const uid = (await stored('c'))?.['metadata'].uid;
    const res = await dryRun(() => ts.api.delete(`${DEPLOYMENTS}/c?dryRun=All`));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'c', group: 'apps', kind: 'deployments', uid },
    });
    const viaBody = await dryRun(() =>
      ts.api.delete(`${DEPLOYMENTS}/c`, { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] }),
    );
    expect(viaBody.status).toBe(200);
    expect(await stored('c')).not.toBeNull();
  });

  it('delete of an object with finalizers answers it with deletionTimestamp set; etcd has none', async () => {
    const res = await dryRun(() => ts.api.delete(`${DEPLOYMENTS}/held?dryRun=All`));
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('Deployment');
    expect(res.body.metadata.deletionTimestamp).toMatch(/Z$/);
    expect(res.body.metadata.deletionGracePeriodSeconds).toBe(0);
    expect((await stored('held'))?.['metadata'].deletionTimestamp).toBeUndefined();
  });

  it('deletecollection answers the list of what it would delete and deletes nothing', async () => {
    const res = await dryRun(() => ts.api.delete(`${DEPLOYMENTS}?dryRun=All&labelSelector=group%3Dabc`));
    expect(res.status).toBe(200);
    expect(res.body.kind).toBe('DeploymentList');
    expect(res.body.items.map((d: Record<string, any>) => d['metadata'].name)).toEqual(['a', 'b', 'c']);
    for (const name of ['a', 'b', 'c']) expect(await stored(name)).not.toBeNull();
  });

  it('the /status and /scale subresources persist nothing either', async () => {
    const current = (await ts.api.get(`${DEPLOYMENTS}/a`)).body;
    const status = await dryRun(() =>
      ts.api.put(`${DEPLOYMENTS}/a/status?dryRun=All`, { ...current, status: { replicas: 3 } }),
    );
    expect(status.status).toBe(200);
    expect(status.body.status.replicas).toBe(3);
    const scale = await dryRun(() => ts.api.patch(`${DEPLOYMENTS}/a/scale?dryRun=All`, { spec: { replicas: 9 } }));
    expect(scale.status).toBe(200);
    expect(scale.body.spec.replicas).toBe(9);
  });
});

describe('dryRun values', () => {
  it.each([
    ['POST', DEPLOYMENTS, 'CreateOptions'],
    ['PUT', `${DEPLOYMENTS}/a`, 'UpdateOptions'],
    ['PATCH', `${DEPLOYMENTS}/a`, 'PatchOptions'],
    ['DELETE', `${DEPLOYMENTS}/a`, 'DeleteOptions'],
    ['DELETE', DEPLOYMENTS, 'DeleteOptions'],
  ])('%s %s refuses dryRun=foo with 422 on %s', async (method, path, kind) => {
    const body = method === 'DELETE' ? undefined : method === 'PATCH' ? { metadata: {} } : aDeployment('a');
    const headers: Record<string, string> =
      method === 'PATCH' ? { 'Content-Type': 'application/merge-patch+json' } : {};
    const res = await dryRun(() => ts.api.request(method, `${path}?dryRun=All&dryRun=foo`, body, headers));
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Invalid',
      code: 422,
      message: `${kind}.meta.orch.io "" is invalid: dryRun: Unsupported value: []string{"All", "foo"}: supported values: "All"`,
      details: {
        group: 'meta.orch.io',
        kind,
        causes: [
          {
            reason: 'FieldValueNotSupported',
            message: 'Unsupported value: []string{"All", "foo"}: supported values: "All"',
            field: 'dryRun',
          },
        ],
      },
    });
  });

  it('a bare dryRun is no dry run: the write persists', async () => {
    const res = await ts.api.post(`${DEPLOYMENTS}?dryRun`, aDeployment('bare'));
    expect(res.status).toBe(201);
    expect(await stored('bare')).not.toBeNull();
  });
});

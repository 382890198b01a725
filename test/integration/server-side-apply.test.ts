// Server-side apply and managedFields over HTTP on real etcd: create/update via apply, conflicts, force, tracking on every write, reset, dry-run.
import type { Etcd3 } from 'etcd3';
import { type TestServer, startServerWithEtcdClient, stopServerWithEtcdClient } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
let etcd: Etcd3;
const NS = 'ssa';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const APPLY = 'application/apply-patch+yaml';

beforeAll(async () => ({ ts, etcd } = await startServerWithEtcdClient(NS)));
afterAll(() => stopServerWithEtcdClient(ts, etcd));

const stored = async (name: string): Promise<Record<string, any> | null> => {
  const raw = await etcd.get(`/registry/apps/deployments/${NS}/${name}`).string();
  return raw === null ? null : JSON.parse(raw);
};
const apply = (name: string, body: unknown, query: string) =>
  ts.api.request('PATCH', `${DEPLOYMENTS}/${name}?${query}`, body, { 'Content-Type': APPLY });
const managers = (obj: Record<string, any>): Array<[string, string, string | undefined]> =>
  (obj['metadata'].managedFields ?? []).map((e: Record<string, string>) => [
    e['manager'],
    e['operation'],
    e['subresource'],
  ]);

describe('server-side apply', () => {
  it('creates with 201, then updates with 200, owning only the applied fields', async () => {
    const yaml = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n  selector:\n    matchLabels: {app: web}\n  template:\n    metadata:\n      labels: {app: web}\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.25\n`;
    const created = await apply('web', yaml, 'fieldManager=alice');
    expect(created.status).toBe(201);
    expect(created.body.metadata.managedFields).toEqual([
      {
        manager: 'alice',
        operation: 'Apply',
        apiVersion: 'apps/v1',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': {
            'f:replicas': {},
            'f:selector': {},
            'f:template': {
              'f:metadata': { 'f:labels': { 'f:app': {} } },
              'f:spec': { 'f:containers': { 'k:{"name":"nginx"}': { '.': {}, 'f:image': {}, 'f:name': {} } } },
            },
          },
        },
      },
    ]);
    expect((await stored('web'))?.['spec'].strategy.type).toBe('RollingUpdate');
    const updated = await apply('web', yaml.replace('replicas: 2', 'replicas: 3'), 'fieldManager=alice');
    expect(updated.status).toBe(200);
    expect((await stored('web'))?.['spec'].replicas).toBe(3);
  });

  it('a different applier with another value gets 409 with the Kubernetes body; force takes ownership', async () => {
    const body = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 7 } };
    const refused = await apply('web', body, 'fieldManager=bob');
    expect(refused.status).toBe(409);
    expect(refused.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Apply failed with 1 conflict: conflict with "alice": .spec.replicas',
      reason: 'Conflict',
      details: {
        causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "alice"', field: '.spec.replicas' }],
      },
      code: 409,
    });
    const forced = await apply('web', body, 'fieldManager=bob&force=true');
    expect(forced.status).toBe(200);
    expect(forced.body.spec.replicas).toBe(7);
    const alice = forced.body.metadata.managedFields.find((e: Record<string, string>) => e['manager'] === 'alice');
    expect(JSON.stringify(alice.fieldsV1)).not.toContain('f:replicas');
  });

  it('refuses a configuration with a field the schema does not declare with 400 (Kubernetes: a bare 500)', async () => {
    const yaml = `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: undeclared\nspec:\n  foo: 1\n  selector:\n    matchLabels: {app: u}\n  template:\n    metadata:\n      labels: {app: u}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n`;
    const res = await apply('undeclared', yaml, 'fieldManager=alice&fieldValidation=Ignore');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(res.body.message).toContain('.spec.foo: field not declared in schema');
    expect(await stored('undeclared')).toBeNull();
  });

  it('requires fieldManager, refuses managedFields in the body, and refuses force on other patches', async () => {
    const noManager = await apply('web', { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' } }, '');
    expect(noManager.status).toBe(422);
    expect(noManager.body.message).toBe(
      'PatchOptions.meta.orch.io "" is invalid: fieldManager: Required value: is required for apply patch',
    );
    const withManaged = await apply(
      'web',
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', managedFields: [] } },
      'fieldManager=x',
    );
    expect(withManaged.status).toBe(400);
    expect(withManaged.body.message).toBe('metadata.managedFields must be nil');
    const forceMerge = await ts.api.request(
      'PATCH',
      `${DEPLOYMENTS}/web?force=true`,
      { metadata: {} },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(forceMerge.status).toBe(422);
    expect(forceMerge.body.message).toBe(
      'PatchOptions.meta.orch.io "" is invalid: force: Forbidden: may not be specified for non-apply patch',
    );
  });

  it('dry-run apply answers the result and persists nothing', async () => {
    const before = await stored('web');
    const res = await apply(
      'web',
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec: { replicas: 9 } },
      'fieldManager=bob&dryRun=All',
    );
    expect(res.status).toBe(200);
    expect(res.body.spec.replicas).toBe(9);
    expect(await stored('web')).toEqual(before);
    const create = await apply(
      'ghost',
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ghost' }, spec: aDeployment('ghost')['spec'] },
      'fieldManager=bob&dryRun=All',
    );
    expect(create.status).toBe(201);
    expect(await stored('ghost')).toBeNull();
  });
});

describe('managedFields on every write', () => {
  it('create, PUT, merge patch and status update record Update entries per manager', async () => {
    const created = await ts.api.request('POST', `${DEPLOYMENTS}?fieldManager=creator`, aDeployment('tracked'));
    expect(managers(created.body)).toEqual([['creator', 'Update', undefined]]);
    const put = { ...created.body, spec: { ...created.body.spec, replicas: 4 } };
    const updated = await ts.api.request('PUT', `${DEPLOYMENTS}/tracked`, put, {
      'User-Agent': 'my-controller/v1.2 (linux)',
    });
    expect(managers(updated.body)).toEqual([
      ['creator', 'Update', undefined],
      ['my-controller', 'Update', undefined],
    ]);
    const patched = await ts.api.request(
      'PATCH',
      `${DEPLOYMENTS}/tracked?fieldManager=patcher`,
      { metadata: { labels: { extra: 'yes' } } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(managers(patched.body).map((m) => m[0])).toContain('patcher');
    const status = await ts.api.request('PUT', `${DEPLOYMENTS}/tracked/status?fieldManager=ctrl`, {
      ...patched.body,
      status: { observedGeneration: 1, replicas: 1 },
    });
    expect(status.status).toBe(200);
    const entry = status.body.metadata.managedFields.find((e: Record<string, string>) => e['manager'] === 'ctrl');
    expect(entry).toMatchObject({
      operation: 'Update',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:observedGeneration': {}, 'f:replicas': {} } },
    });
    expect((await stored('tracked'))?.['metadata'].managedFields).toHaveLength(4);
  });

  it('[{}] clears managedFields; an empty list keeps them', async () => {
    const kept = await ts.api.request(
      'PATCH',
      `${DEPLOYMENTS}/tracked`,
      { metadata: { managedFields: [] } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(kept.body.metadata.managedFields).toHaveLength(4);
    const reset = await ts.api.request(
      'PATCH',
      `${DEPLOYMENTS}/tracked`,
      { metadata: { managedFields: [{}] } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(reset.status).toBe(200);
    expect(reset.body.metadata.managedFields).toBeUndefined();
    expect((await stored('tracked'))?.['metadata'].managedFields).toBeUndefined();
  });

  it('[{}] also resets through JSON patch, strategic merge patch and PUT', async () => {
    const reset = async (
      name: string,
      write: (current: Record<string, any>) => Promise<{ status: number; body: any }>,
    ): Promise<void> => {
      const created = await ts.api.request('POST', `${DEPLOYMENTS}?fieldManager=creator`, aDeployment(name));
      expect(created.body.metadata.managedFields).toHaveLength(1);
      const res = await write(created.body);
      expect(res.status).toBe(200);
      expect(res.body.metadata.managedFields).toBeUndefined();
      expect((await stored(name))?.['metadata'].managedFields).toBeUndefined();
    };
    await reset('reset-json', () =>
      ts.api.request(
        'PATCH',
        `${DEPLOYMENTS}/reset-json`,
        [{ op: 'replace', path: '/metadata/managedFields', value: [{}] }],
        { 'Content-Type': 'application/json-patch+json' },
      ),
    );
    await reset('reset-smp', () =>
      ts.api.request(
        'PATCH',
        `${DEPLOYMENTS}/reset-smp`,
        { metadata: { managedFields: [{}] } },
        { 'Content-Type': 'application/strategic-merge-patch+json' },
      ),
    );
    await reset('reset-put', (current) =>
      ts.api.request('PUT', `${DEPLOYMENTS}/reset-put`, {
        ...current,
        metadata: { ...current['metadata'], managedFields: [{}] },
      }),
    );
  });

  it('apply through /status records an Apply entry with subresource status and owns only status fields', async () => {
    await ts.api.request('POST', `${DEPLOYMENTS}?fieldManager=creator`, aDeployment('status-applied'));
    const res = await ts.api.request(
      'PATCH',
      `${DEPLOYMENTS}/status-applied/status?fieldManager=status-applier&force=true`,
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'status-applied' },
        status: { observedGeneration: 1, replicas: 2 },
      },
      { 'Content-Type': APPLY },
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toMatchObject({ observedGeneration: 1, replicas: 2 });
    const entry = res.body.metadata.managedFields.find(
      (e: Record<string, string>) => e['manager'] === 'status-applier',
    );
    expect(entry).toMatchObject({
      operation: 'Apply',
      subresource: 'status',
      fieldsV1: { 'f:status': { 'f:observedGeneration': {}, 'f:replicas': {} } },
    });
    expect(JSON.stringify(entry)).not.toContain('f:spec');
  });

  it('the first apply to an untracked object records the existing fields under before-first-apply', async () => {
    const res = await apply(
      'tracked',
      { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'tracked', labels: { team: 'a' } } },
      'fieldManager=applier',
    );
    expect(res.status).toBe(200);
    expect(managers(res.body)).toEqual([
      ['applier', 'Apply', undefined],
      ['before-first-apply', 'Update', undefined],
    ]);
  });
});

describe('managedFields through /scale', () => {
  const yaml = (replicas: number): string =>
    `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: scaled\nspec:\n  replicas: ${replicas}\n  selector:\n    matchLabels: {app: s}\n  template:\n    metadata:\n      labels: {app: s}\n    spec:\n      containers:\n      - name: c\n        image: nginx\n`;
  const SCALE = `${DEPLOYMENTS}/scaled/scale`;
  const entryOf = (obj: Record<string, any> | null, manager: string): Record<string, unknown> | undefined =>
    obj?.['metadata'].managedFields.find((e: Record<string, string>) => e['manager'] === manager);
  const replicasOnly = { 'f:spec': { 'f:replicas': {} } };

  it('a PUT of the Scale takes spec.replicas from its owner under an Update entry with subresource scale', async () => {
    expect((await apply('scaled', yaml(2), 'fieldManager=alice')).status).toBe(201);
    const scale = (await ts.api.get(SCALE)).body;
    expect(scale.metadata.managedFields).toBeUndefined();
    const res = await ts.api.request('PUT', `${SCALE}?fieldManager=scaler`, { ...scale, spec: { replicas: 5 } });
    expect(res.status).toBe(200);
    expect(res.body.metadata.managedFields).toBeUndefined();
    const dep = await stored('scaled');
    expect(dep?.['spec'].replicas).toBe(5);
    expect(entryOf(dep, 'scaler')).toEqual({
      manager: 'scaler',
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: replicasOnly,
      subresource: 'scale',
    });
    expect(JSON.stringify(entryOf(dep, 'alice'))).not.toContain('f:replicas');
  });

  it('the applier of the parent now conflicts with the scale owner', async () => {
    const res = await apply('scaled', yaml(2), 'fieldManager=alice');
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale" using apps/v1: .spec.replicas',
    );
  });

  it('apply to the Scale conflicts as the Scale sees it, and force moves ownership to an Apply entry', async () => {
    const config = { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'scaled' }, spec: { replicas: 6 } };
    const refused = await ts.api.request('PATCH', `${SCALE}?fieldManager=hpa`, config, { 'Content-Type': APPLY });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Apply failed with 1 conflict: conflict with "scaler" with subresource "scale" using autoscaling/v1: .spec.replicas',
    );
    const forced = await ts.api.request('PATCH', `${SCALE}?fieldManager=hpa&force=true`, config, {
      'Content-Type': APPLY,
    });
    expect(forced.status).toBe(200);
    expect(forced.body).toMatchObject({ kind: 'Scale', spec: { replicas: 6 } });
    const dep = await stored('scaled');
    expect(dep?.['spec'].replicas).toBe(6);
    expect(entryOf(dep, 'hpa')).toEqual({
      manager: 'hpa',
      operation: 'Apply',
      apiVersion: 'apps/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: replicasOnly,
      subresource: 'scale',
    });
    expect(entryOf(dep, 'scaler')).toBeUndefined();
  });

  it('a merge patch of the Scale records its manager; a dry-run one changes nothing in etcd', async () => {
    const before = await stored('scaled');
    const dry = await ts.api.request(
      'PATCH',
      `${SCALE}?fieldManager=patcher&dryRun=All`,
      { spec: { replicas: 8 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(dry.status).toBe(200);
    expect(dry.body.spec.replicas).toBe(8);
    expect(await stored('scaled')).toEqual(before);
    const res = await ts.api.request(
      'PATCH',
      `${SCALE}?fieldManager=patcher`,
      { spec: { replicas: 8 } },
      { 'Content-Type': 'application/merge-patch+json' },
    );
    expect(res.status).toBe(200);
    const dep = await stored('scaled');
    expect(entryOf(dep, 'patcher')).toMatchObject({
      operation: 'Update',
      apiVersion: 'apps/v1',
      fieldsV1: replicasOnly,
      subresource: 'scale',
    });
    expect(entryOf(dep, 'hpa')).toBeUndefined();
  });
});

// RBAC authorization: 403 texts and details as Kubernetes, verbs/subresources/resourceNames/non-resource URLs, apply and
// dry-run rules, bootstrap policy and aggregation, and a second replica seeing a role change within 1 s.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startTestServer, eventually, ApiClient, type ApiResponse, type TestServer } from '../helpers/test-server';
import { parseCommandLine } from '../../lib/server/options/options';
import { ApiServer } from '../../lib/server/server';
import { aDeployment } from '../helpers/fixtures';

const dir = mkdtempSync(join(tmpdir(), 'orch-authz-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(
  tokenFile,
  [
    'admin-token,admin,uid-admin,system:masters',
    'alice-token,alice,uid-a',
    'bob-token,bob,uid-b',
    'carol-token,carol,uid-c,devs',
    'dave-token,dave,uid-d',
  ].join('\n'),
);

const RBAC = '/apis/rbac.authorization.orch.io/v1';
const NS = 'authz';
let ts: TestServer;
const as = (token: string | undefined) => {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  return {
    get: (path: string, extra: Record<string, string> = {}) => ts.api.get(path, { ...headers, ...extra }),
    post: (path: string, body: unknown, extra: Record<string, string> = {}) =>
      ts.api.post(path, body, { ...headers, ...extra }),
    patch: (path: string, body: unknown, contentType: string) =>
      ts.api.request('PATCH', path, typeof body === 'string' ? body : JSON.stringify(body), {
        ...headers,
        'Content-Type': contentType,
      }),
    delete: (path: string) => ts.api.request('DELETE', path, undefined, headers),
  };
};
const admin = as('admin-token');

async function mustCreate(path: string, body: unknown): Promise<ApiResponse> {
  const res = await admin.post(path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res;
}

const role = (name: string, rules: unknown[], kind = 'Role') => ({
  apiVersion: 'rbac.authorization.orch.io/v1',
  kind,
  metadata: { name },
  rules,
});
const bindUser = (name: string, roleKind: string, roleName: string, users: string[], kind = 'RoleBinding') => ({
  apiVersion: 'rbac.authorization.orch.io/v1',
  kind,
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: roleKind, name: roleName },
  subjects: users.map((u) =>
    u.startsWith('group:')
      ? { kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: u.slice(6) }
      : { kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: u },
  ),
});

function expectForbidden(
  res: ApiResponse,
  message: string,
  details: Record<string, string> | Record<string, never>,
): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 403,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: 'Forbidden',
      details,
      code: 403,
    },
  });
}

beforeAll(async () => {
  ts = await startTestServer([`--token-auth-file=${tokenFile}`, '--authorization-mode=RBAC']);
  await mustCreate('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await mustCreate('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${NS}-other` } });
  await mustCreate(`/apis/apps/v1/namespaces/${NS}/deployments`, aDeployment('web'));
  await mustCreate(`/apis/apps/v1/namespaces/${NS}/deployments`, aDeployment('api'));
  await mustCreate(
    `${RBAC}/namespaces/${NS}/roles`,
    role('deploy-reader', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] }]),
  );
  await mustCreate(
    `${RBAC}/namespaces/${NS}/rolebindings`,
    bindUser('alice-reads', 'Role', 'deploy-reader', ['alice']),
  );
  await mustCreate(
    `${RBAC}/namespaces/${NS}/roles`,
    role('web-only', [
      { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['get'] },
    ]),
  );
  await mustCreate(`${RBAC}/namespaces/${NS}/rolebindings`, bindUser('devs-web', 'Role', 'web-only', ['group:devs']));
  await mustCreate(
    `${RBAC}/clusterroles`,
    role(`${NS}-patcher`, [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] }], 'ClusterRole'),
  );
  await mustCreate(
    `${RBAC}/namespaces/${NS}/rolebindings`,
    bindUser('dave-patches', 'ClusterRole', `${NS}-patcher`, ['dave']),
  );
  await mustCreate(
    `${RBAC}/namespaces/${NS}/rolebindings`,
    bindUser('bob-missing', 'ClusterRole', 'no-such-role', ['bob']),
  );
}, 60_000);
afterAll(async () => ts?.stop());

describe('anonymous requests under RBAC', () => {
  it.each(['/healthz', '/livez', '/readyz', '/version'])('may read %s (system:public-info-viewer)', async (path) => {
    expect((await as(undefined).get(path)).status).toBe(200);
  });

  it('may not read resources, discovery or metrics', async () => {
    expectForbidden(
      await as(undefined).get('/api/v1/namespaces'),
      'namespaces is forbidden: User "system:anonymous" cannot list resource "namespaces" in API group "" at the cluster scope',
      { kind: 'namespaces' },
    );
    expectForbidden(await as(undefined).get('/apis'), 'forbidden: User "system:anonymous" cannot get path "/apis"', {});
    expectForbidden(
      await as(undefined).get('/metrics'),
      'forbidden: User "system:anonymous" cannot get path "/metrics"',
      {},
    );
  });
});

describe('authenticated users', () => {
  it('read discovery (system:discovery) but nothing else without a binding', async () => {
    const bob = as('bob-token');
    expect((await bob.get('/apis')).status).toBe(200);
    expect((await bob.get('/openapi/v2')).status).toBe(200);
    expectForbidden(await bob.get('/metrics'), 'forbidden: User "bob" cannot get path "/metrics"', {});
  });

  it('names the missing role of a binding in the reason', async () => {
    expectForbidden(
      await as('bob-token').get(`/apis/apps/v1/namespaces/${NS}/deployments/web`),
      `deployments.apps "web" is forbidden: User "bob" cannot get resource "deployments" in API group "apps" in the namespace "${NS}": RBAC: clusterrole.rbac.authorization.orch.io "no-such-role" not found`,
      { name: 'web', group: 'apps', kind: 'deployments' },
    );
  });

  it('system:masters may do anything', async () => {
    expect((await admin.get('/metrics')).status).toBe(200);
    expect((await admin.get('/apis/apps/v1/deployments')).status).toBe(200);
  });
});

describe('a namespaced Role (alice: get/list/watch deployments)', () => {
  const alice = as('alice-token');
  it.each([
    ['get', `/apis/apps/v1/namespaces/${NS}/deployments/web`],
    ['list', `/apis/apps/v1/namespaces/${NS}/deployments`],
    ['watch', `/apis/apps/v1/namespaces/${NS}/deployments?watch=true&timeoutSeconds=1`],
  ])('allows %s', async (_verb, path) => {
    expect((await alice.get(path)).status).toBe(200);
  });

  it("refuses other verbs, namespaces, the cluster scope and subresources with Kubernetes' texts", async () => {
    expectForbidden(
      await alice.post(`/apis/apps/v1/namespaces/${NS}/deployments`, aDeployment('new')),
      `deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "${NS}"`,
      { group: 'apps', kind: 'deployments' },
    );
    expectForbidden(
      await alice.delete(`/apis/apps/v1/namespaces/${NS}/deployments`),
      `deployments.apps is forbidden: User "alice" cannot deletecollection resource "deployments" in API group "apps" in the namespace "${NS}"`,
      { group: 'apps', kind: 'deployments' },
    );
    expectForbidden(
      await alice.get(`/apis/apps/v1/namespaces/${NS}-other/deployments`),
      `deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" in the namespace "${NS}-other"`,
      { group: 'apps', kind: 'deployments' },
    );
    expectForbidden(
      await alice.get('/apis/apps/v1/deployments'),
      'deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" at the cluster scope',
      { group: 'apps', kind: 'deployments' },
    );
    expectForbidden(
      await alice.get(`/apis/apps/v1/namespaces/${NS}/deployments/web/scale`),
      `deployments.apps "web" is forbidden: User "alice" cannot get resource "deployments/scale" in API group "apps" in the namespace "${NS}"`,
      { name: 'web', group: 'apps', kind: 'deployments' },
    );
    expectForbidden(
      await alice.get(`/apis/apps/v1/namespaces/${NS}-other/deployments?watch=1`),
      `deployments.apps is forbidden: User "alice" cannot watch resource "deployments" in API group "apps" in the namespace "${NS}-other"`,
      { group: 'apps', kind: 'deployments' },
    );
  });

  it('answers 403 in the negotiated format', async () => {
    const res = await alice.get(`/apis/apps/v1/namespaces/${NS}-other/deployments`, { Accept: 'application/yaml' });
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});

describe('resourceNames and subresources (group devs: get web, get deployments/scale)', () => {
  const carol = as('carol-token');
  it('allows the named object, its list narrowed by metadata.name, and the subresource', async () => {
    expect((await carol.get(`/apis/apps/v1/namespaces/${NS}/deployments/web`)).status).toBe(200);
    expect(
      (await carol.get(`/apis/apps/v1/namespaces/${NS}/deployments?fieldSelector=metadata.name%3Dweb`)).status,
    ).toBe(200);
    expect((await carol.get(`/apis/apps/v1/namespaces/${NS}/deployments/api/scale`)).status).toBe(200);
  });

  it('refuses other names and the unnarrowed list', async () => {
    expectForbidden(
      await carol.get(`/apis/apps/v1/namespaces/${NS}/deployments/api`),
      `deployments.apps "api" is forbidden: User "carol" cannot get resource "deployments" in API group "apps" in the namespace "${NS}"`,
      { name: 'api', group: 'apps', kind: 'deployments' },
    );
    expect((await carol.get(`/apis/apps/v1/namespaces/${NS}/deployments`)).status).toBe(403);
  });
});

describe('patch, apply and dry-run', () => {
  const dave = as('dave-token');
  it('patch allows merge patches and apply to an existing object', async () => {
    expect(
      (
        await dave.patch(
          `/apis/apps/v1/namespaces/${NS}/deployments/web`,
          { metadata: { labels: { patched: 'yes' } } },
          'application/merge-patch+json',
        )
      ).status,
    ).toBe(200);
    const apply = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web', labels: { applied: 'yes' } } };
    expect(
      (
        await dave.patch(
          `/apis/apps/v1/namespaces/${NS}/deployments/web?fieldManager=dave`,
          apply,
          'application/apply-patch+yaml',
        )
      ).status,
    ).toBe(200);
  });

  it('apply that would create needs create too, also on dry-run; nothing is written', async () => {
    const apply = aDeployment('applied');
    for (const dry of ['', '&dryRun=All']) {
      expectForbidden(
        await dave.patch(
          `/apis/apps/v1/namespaces/${NS}/deployments/applied?fieldManager=dave${dry}`,
          apply,
          'application/apply-patch+yaml',
        ),
        `deployments.apps "applied" is forbidden: User "dave" cannot create resource "deployments" in API group "apps" in the namespace "${NS}"`,
        { name: 'applied', group: 'apps', kind: 'deployments' },
      );
    }
    expect((await admin.get(`/apis/apps/v1/namespaces/${NS}/deployments/applied`)).status).toBe(404);
    await mustCreate(
      `${RBAC}/namespaces/${NS}/roles`,
      role('dave-creates', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['create'] }]),
    );
    await mustCreate(
      `${RBAC}/namespaces/${NS}/rolebindings`,
      bindUser('dave-creates', 'Role', 'dave-creates', ['dave']),
    );
    await eventually(
      async () =>
        (
          await dave.patch(
            `/apis/apps/v1/namespaces/${NS}/deployments/applied?fieldManager=dave`,
            apply,
            'application/apply-patch+yaml',
          )
        ).status === 201,
      3000,
      'apply creates',
    );
  });

  it('dry-run needs the same permission as the real request', async () => {
    const alice = as('alice-token');
    expect((await alice.post(`/apis/apps/v1/namespaces/${NS}/deployments?dryRun=All`, aDeployment('dry'))).status).toBe(
      403,
    );
  });
});

describe('bootstrap policy', () => {
  it('creates the bootstrap roles and bindings with their label and annotation', async () => {
    for (const name of [
      'cluster-admin',
      'system:discovery',
      'system:basic-user',
      'system:public-info-viewer',
      'admin',
      'edit',
      'view',
    ]) {
      const res = await admin.get(`${RBAC}/clusterroles/${name}`);
      expect(res.status).toBe(200);
      expect(res.body.metadata.labels['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
      expect(res.body.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate']).toBe('true');
    }
    const crb = await admin.get(`${RBAC}/clusterrolebindings/cluster-admin`);
    expect(crb.body.subjects).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'system:masters' },
    ]);
  });

  it('aggregates view into edit into admin, and picks up a new labelled ClusterRole', async () => {
    await eventually(
      async () => {
        const view = (await admin.get(`${RBAC}/clusterroles/view`)).body;
        const adminRole = (await admin.get(`${RBAC}/clusterroles/admin`)).body;
        return (
          JSON.stringify(view.rules ?? []).includes('deployments') &&
          JSON.stringify(adminRole.rules ?? []).includes('rolebindings') &&
          JSON.stringify(adminRole.rules ?? []).includes('"get"')
        );
      },
      5000,
      'aggregated rules',
    );
    await mustCreate(`${RBAC}/clusterroles`, {
      ...role('extra-view', [{ apiGroups: ['example.io'], resources: ['widgets'], verbs: ['get'] }], 'ClusterRole'),
      metadata: { name: 'extra-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
    });
    await eventually(
      async () => JSON.stringify((await admin.get(`${RBAC}/clusterroles/admin`)).body.rules).includes('widgets'),
      5000,
      'widgets aggregated up to admin',
    );
  });

  it('gives view-bound users read access to deployments', async () => {
    await mustCreate(
      `${RBAC}/namespaces/${NS}-other/rolebindings`,
      bindUser('bob-views', 'ClusterRole', 'view', ['bob']),
    );
    await eventually(
      async () => (await as('bob-token').get(`/apis/apps/v1/namespaces/${NS}-other/deployments`)).status === 200,
      3000,
      'bob can list',
    );
    expect(
      (await as('bob-token').post(`/apis/apps/v1/namespaces/${NS}-other/deployments`, aDeployment('x'))).status,
    ).toBe(403);
  });
});

describe('a second replica', () => {
  it('sees a new binding within 1 s', async () => {
    const parsed = parseCommandLine([
      '--port=0',
      `--etcd-servers=${ts.etcd.clientUrl}`,
      `--token-auth-file=${tokenFile}`,
      '--authorization-mode=RBAC',
    ]);
    if (parsed.help) throw new Error('help');
    const second = await ApiServer.start(parsed.options, pino({ level: 'silent' }));
    try {
      const api = new ApiClient(second.url);
      const path = `/apis/apps/v1/namespaces/${NS}-other/deployments`;
      const headers = { Authorization: 'Bearer carol-token' };
      expect((await api.get(path, headers)).status).toBe(403);
      await mustCreate(
        `${RBAC}/namespaces/${NS}-other/rolebindings`,
        bindUser('devs-view', 'ClusterRole', 'view', ['group:devs']),
      );
      const started = Date.now();
      await eventually(async () => (await api.get(path, headers)).status === 200, 5000, 'second replica allows');
      expect(Date.now() - started).toBeLessThan(1000);
      expect((await admin.delete(`${RBAC}/namespaces/${NS}-other/rolebindings/devs-view`)).status).toBe(200);
      const removed = Date.now();
      await eventually(async () => (await api.get(path, headers)).status === 403, 5000, 'second replica denies again');
      expect(Date.now() - removed).toBeLessThan(1000);
    } finally {
      await second.shutdown();
    }
  });
});

describe('escalation prevention', () => {
  const alice = as('alice-token');
  beforeAll(async () => {
    await mustCreate(
      `${RBAC}/namespaces/${NS}/roles`,
      role('rbac-editor', [
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'update'] },
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          resourceNames: ['edit'],
          verbs: ['bind'],
        },
      ]),
    );
    await mustCreate(`${RBAC}/namespaces/${NS}/rolebindings`, bindUser('alice-rbac', 'Role', 'rbac-editor', ['alice']));
    await eventually(
      async () =>
        (
          await alice.post(
            `${RBAC}/namespaces/${NS}/roles?dryRun=All`,
            role('probe', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }]),
          )
        ).status === 201,
      3000,
      'alice may create roles',
    );
  });

  it('lets a user grant what it holds', async () => {
    expect(
      (
        await alice.post(
          `${RBAC}/namespaces/${NS}/roles`,
          role('subset', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }]),
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await alice.post(
          `${RBAC}/namespaces/${NS}/rolebindings`,
          bindUser('bob-reads', 'Role', 'deploy-reader', ['bob']),
        )
      ).status,
    ).toBe(201);
  });

  it("refuses a role with permissions the user lacks, with Kubernetes' text", async () => {
    const res = await alice.post(
      `${RBAC}/namespaces/${NS}/roles`,
      role('too-much', [
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'delete', 'patch'] },
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get'] },
      ]),
    );
    expectForbidden(
      res,
      'roles.rbac.authorization.orch.io "too-much" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["namespaces"], Verbs:["get"]}\n{APIGroups:["apps"], Resources:["deployments"], Verbs:["delete" "patch"]}',
      { name: 'too-much', group: 'rbac.authorization.orch.io', kind: 'roles' },
    );
    expect((await admin.get(`${RBAC}/namespaces/${NS}/roles/too-much`)).status).toBe(404);
  });

  it('refuses an escalating update and binding, allows bind on a named ClusterRole', async () => {
    const current = (await admin.get(`${RBAC}/namespaces/${NS}/roles/subset`)).body;
    const widened = await ts.api.put(
      `${RBAC}/namespaces/${NS}/roles/subset`,
      { ...current, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] },
      { Authorization: 'Bearer alice-token' },
    );
    expect(widened.status).toBe(403);
    const admins = await alice.post(
      `${RBAC}/namespaces/${NS}/rolebindings`,
      bindUser('alice-admin', 'ClusterRole', 'cluster-admin', ['alice']),
    );
    expectForbidden(
      admins,
      'rolebindings.rbac.authorization.orch.io "alice-admin" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
      { name: 'alice-admin', group: 'rbac.authorization.orch.io', kind: 'rolebindings' },
    );
    expect(
      (await alice.post(`${RBAC}/namespaces/${NS}/rolebindings`, bindUser('bob-edits', 'ClusterRole', 'edit', ['bob'])))
        .status,
    ).toBe(201);
  });

  it('lets system:masters grant anything', async () => {
    expect(
      (
        await admin.post(
          `${RBAC}/namespaces/${NS}/rolebindings`,
          bindUser('bob-admin', 'ClusterRole', 'cluster-admin', ['bob']),
        )
      ).status,
    ).toBe(201);
  });
});

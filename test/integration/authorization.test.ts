// RBAC authorization of requests: 403 texts and details as Kubernetes, verbs/subresources/resourceNames/non-resource
// URLs, and the apply and dry-run rules.
import { eventually } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';
import {
  admin,
  as,
  bindUser,
  expectForbidden,
  mustCreate,
  role,
  useAuthzServer,
  NS,
  RBAC,
} from './authorization-fixture';

useAuthzServer();

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

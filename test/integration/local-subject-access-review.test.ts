// The review kinds in discovery and OpenAPI (create only, as kube-apiserver 1.26 lists its authentication and
// authorization groups) and LocalSubjectAccessReview: namespaced, answered by the authorizer, with 1.26's texts.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, startTestServer, type TestServer } from '../helpers/test-server';

const dir = mkdtempSync(join(tmpdir(), 'orch-lsar-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(
  tokenFile,
  ['admin-token,admin,uid-admin,system:masters', 'alice-token,alice,uid-a', 'bob-token,bob,uid-b'].join('\n'),
);
const admin = { Authorization: 'Bearer admin-token' };
const alice = { Authorization: 'Bearer alice-token' };
const bob = { Authorization: 'Bearer bob-token' };
const NS = 'lsar';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer([`--token-auth-file=${tokenFile}`, '--authorization-mode=RBAC']);
  await eventually(async () => (await ts.api.get('/readyz', admin)).status === 200, 20_000, 'the server is ready');
  expect((await ts.api.post('/api/v1/namespaces', { metadata: { name: NS } }, admin)).status).toBe(201);
  // alice administers the namespace (the aggregated `admin` role grants create localsubjectaccessreviews), bob only reads.
  const binding = (name: string, user: string, role: string) => ({
    metadata: { name },
    subjects: [{ kind: 'User', name: user, apiGroup: 'rbac.authorization.k8s.io' }],
    roleRef: { kind: 'ClusterRole', name: role, apiGroup: 'rbac.authorization.k8s.io' },
  });
  for (const [name, user, role] of [
    ['alice-admin', 'alice', 'admin'],
    ['bob-view', 'bob', 'view'],
  ] as const)
    expect(
      (
        await ts.api.post(
          `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`,
          binding(name, user, role),
          admin,
        )
      ).status,
    ).toBe(201);
  await eventually(
    async () => (await ts.api.get(`/apis/apps/v1/namespaces/${NS}/deployments`, bob)).status === 200,
    10_000,
    'the bindings are in effect',
  );
});
afterAll(async () => ts?.stop());

const lsarPath = (group: string, ns = NS) => `/apis/${group}/v1/namespaces/${ns}/localsubjectaccessreviews`;
const lsar = (group: string, spec: unknown, metadata: Record<string, unknown> = {}) => ({
  apiVersion: `${group}/v1`,
  kind: 'LocalSubjectAccessReview',
  metadata,
  spec,
});
const canBobList = (namespace: string) => ({
  user: 'bob',
  resourceAttributes: { verb: 'list', group: 'apps', resource: 'deployments', namespace },
});

describe('discovery', () => {
  it('lists authentication.orch.io and authorization.orch.io after events.orch.io, as 1.26 orders its groups', async () => {
    const groups = (await ts.api.get('/apis', admin)).body.groups.map((g: { name: string }) => g.name);
    expect(groups.filter((g: string) => !g.endsWith('.k8s.io')).slice(0, 4)).toEqual([
      'apps',
      'events.orch.io',
      'authentication.orch.io',
      'authorization.orch.io',
    ]);
    expect(groups).toContain('autoscaling');
    const root = (await ts.api.get('/', admin)).body.paths;
    expect(root).toEqual(expect.arrayContaining(['/apis/authorization.orch.io/v1', '/apis/authentication.orch.io']));
    expect((await ts.api.get('/apis/authorization.orch.io', admin)).body).toMatchObject({
      kind: 'APIGroup',
      name: 'authorization.orch.io',
      preferredVersion: { groupVersion: 'authorization.orch.io/v1', version: 'v1' },
    });
  });

  it('lists the review kinds with verb create only and their scope', async () => {
    const authz = (await ts.api.get('/apis/authorization.orch.io/v1', admin)).body;
    expect(authz).toEqual({
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: 'authorization.orch.io/v1',
      resources: [
        ['localsubjectaccessreviews', true, 'LocalSubjectAccessReview'],
        ['selfsubjectaccessreviews', false, 'SelfSubjectAccessReview'],
        ['selfsubjectrulesreviews', false, 'SelfSubjectRulesReview'],
        ['subjectaccessreviews', false, 'SubjectAccessReview'],
      ].map(([name, namespaced, kind]) => ({ name, singularName: '', namespaced, kind, verbs: ['create'] })),
    });
    const authn = (await ts.api.get('/apis/authentication.orch.io/v1', admin)).body;
    expect(authn.resources).toEqual([
      { name: 'tokenreviews', singularName: '', namespaced: false, kind: 'TokenReview', verbs: ['create'] },
    ]);
  });
});

describe('OpenAPI', () => {
  it('documents each review as one POST in /openapi/v2, with its schema and group-version-kinds', async () => {
    const doc = (await ts.api.get('/openapi/v2', admin)).body;
    const post = doc.paths['/apis/authorization.orch.io/v1/namespaces/{namespace}/localsubjectaccessreviews'];
    expect(Object.keys(post).sort()).toEqual(['parameters', 'post']);
    expect(post.post).toMatchObject({
      operationId: 'createAuthorizationV1NamespacedLocalSubjectAccessReview',
      description: 'create a LocalSubjectAccessReview',
      tags: ['authorization_v1'],
      'x-kubernetes-action': 'post',
      'x-kubernetes-group-version-kind': {
        group: 'authorization.orch.io',
        kind: 'LocalSubjectAccessReview',
        version: 'v1',
      },
    });
    expect(Object.keys(post.post.responses)).toEqual(['200', '201', '202', '401']);
    expect(post.post.parameters.map((p: { name: string }) => p.name)).toEqual([
      'body',
      'dryRun',
      'fieldManager',
      'fieldValidation',
    ]);
    expect(doc.paths['/apis/authentication.orch.io/v1/tokenreviews'].post.operationId).toBe(
      'createAuthenticationV1TokenReview',
    );
    expect(doc.paths['/apis/authorization.orch.io/v1/selfsubjectaccessreviews'].post.operationId).toBe(
      'createAuthorizationV1SelfSubjectAccessReview',
    );
    expect(doc.paths['/apis/authorization.orch.io/v1/selfsubjectaccessreviews/{name}']).toBeUndefined();
    const ssar = doc.definitions['io.k8s.api.authorization.v1.SelfSubjectAccessReview'];
    expect(ssar.required).toEqual(['spec']);
    expect(ssar['x-kubernetes-group-version-kind']).toEqual([
      { group: 'authorization.orch.io', kind: 'SelfSubjectAccessReview', version: 'v1' },
      { group: 'authorization.k8s.io', kind: 'SelfSubjectAccessReview', version: 'v1' },
    ]);
    expect(doc.definitions['io.k8s.api.authorization.v1.ResourceAttributes'].properties.verb.description).toMatch(
      /verb/i,
    );
    expect(doc.definitions['io.k8s.api.authentication.v1.TokenReviewStatus'].properties.user.$ref).toBe(
      '#/definitions/io.k8s.api.authentication.v1.UserInfo',
    );
    // Every group-version's scheme registers DeleteOptions, as kube-apiserver's do.
    expect(
      doc.definitions['io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions']['x-kubernetes-group-version-kind'],
    ).toEqual(
      expect.arrayContaining([
        { group: 'authentication.orch.io', kind: 'DeleteOptions', version: 'v1' },
        { group: 'authorization.orch.io', kind: 'DeleteOptions', version: 'v1' },
      ]),
    );
  });

  it('serves /openapi/v3/apis/authorization.orch.io/v1 from the v3 root', async () => {
    const root = (await ts.api.get('/openapi/v3', admin)).body.paths;
    const entry = root['apis/authorization.orch.io/v1'];
    expect(entry.serverRelativeURL).toMatch(/^\/openapi\/v3\/apis\/authorization\.orch\.io\/v1\?hash=[0-9A-F]{128}$/);
    expect(root['apis/authentication.orch.io/v1']).toBeDefined();
    const doc = (await ts.api.get(entry.serverRelativeURL, admin)).body;
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/apis/authorization.orch.io/v1/namespaces/{namespace}/localsubjectaccessreviews',
      '/apis/authorization.orch.io/v1/selfsubjectaccessreviews',
      '/apis/authorization.orch.io/v1/selfsubjectrulesreviews',
      '/apis/authorization.orch.io/v1/subjectaccessreviews',
    ]);
    const schemas = doc.components.schemas;
    expect(schemas['io.k8s.api.authorization.v1.SubjectRulesReviewStatus'].required).toEqual([
      'resourceRules',
      'nonResourceRules',
      'incomplete',
    ]);
  });
});

describe('LocalSubjectAccessReview', () => {
  it.each(['authorization.orch.io', 'authorization.k8s.io'])(
    'answers for the user in the spec, in the path namespace, at /apis/%s/v1',
    async (group) => {
      const yes = await ts.api.post(lsarPath(group), lsar(group, canBobList(NS)), alice);
      expect(yes.status).toBe(201);
      expect(yes.body).toMatchObject({
        apiVersion: `${group}/v1`,
        kind: 'LocalSubjectAccessReview',
        metadata: { namespace: NS },
        spec: canBobList(NS),
        status: { allowed: true },
      });
      expect(yes.body.status.reason).toMatch(/RBAC: allowed by RoleBinding "bob-view\/lsar"/);
      const no = await ts.api.post(
        lsarPath(group),
        lsar(group, {
          ...canBobList(NS),
          resourceAttributes: { ...canBobList(NS).resourceAttributes, verb: 'delete' },
        }),
        alice,
      );
      expect(no.status).toBe(201);
      expect(no.body.status).toEqual({ allowed: false });
    },
  );

  it('takes the namespace from the path and refuses a body naming another one (400)', async () => {
    const named = await ts.api.post(
      lsarPath('authorization.k8s.io'),
      lsar('authorization.k8s.io', canBobList(NS), { namespace: NS }),
      alice,
    );
    expect(named.status).toBe(201);
    const other = await ts.api.post(
      lsarPath('authorization.k8s.io'),
      lsar('authorization.k8s.io', canBobList(NS), { namespace: 'default' }),
      alice,
    );
    expect(other.status).toBe(400);
    expect(other.body).toMatchObject({
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });

  it('refuses attributes about another namespace, non-resource attributes and metadata (422, 1.26 texts)', async () => {
    const group = 'authorization.k8s.io';
    const elsewhere = await ts.api.post(lsarPath(group), lsar(group, canBobList('default')), alice);
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toMatchObject({
      reason: 'Invalid',
      message:
        'LocalSubjectAccessReview.authorization.orch.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "default": must match metadata.namespace',
      details: {
        kind: 'LocalSubjectAccessReview',
        causes: [
          {
            reason: 'FieldValueInvalid',
            message: 'Invalid value: "default": must match metadata.namespace',
            field: 'spec.resourceAttributes.namespace',
          },
        ],
      },
    });
    const nonResource = await ts.api.post(
      lsarPath(group),
      lsar(group, { user: 'bob', nonResourceAttributes: { verb: 'get', path: '/healthz' } }),
      alice,
    );
    expect(nonResource.status).toBe(422);
    expect(nonResource.body.message).toBe(
      'LocalSubjectAccessReview.authorization.orch.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/healthz", Verb:"get"}: disallowed on this kind of request',
    );
    const named = await ts.api.post(lsarPath(group), lsar(group, canBobList(NS), { name: 'x' }), alice);
    expect(named.status).toBe(422);
    expect(named.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: "v1.ObjectMeta": must be empty except for namespace',
        field: 'metadata',
      },
    ]);
    const nobody = await ts.api.post(lsarPath(group), lsar(group, { resourceAttributes: { namespace: NS } }), alice);
    expect(nobody.status).toBe(422);
    expect(nobody.body.details.causes[0]).toMatchObject({
      field: 'spec.user',
      message: 'Invalid value: "": at least one of user or group must be specified',
    });
  });

  it('is authorized per namespace: create localsubjectaccessreviews (admin has it, view does not)', async () => {
    const denied = await ts.api.post(
      lsarPath('authorization.k8s.io'),
      lsar('authorization.k8s.io', canBobList(NS)),
      bob,
    );
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(
      `localsubjectaccessreviews.authorization.k8s.io is forbidden: User "bob" cannot create resource "localsubjectaccessreviews" in API group "authorization.k8s.io" in the namespace "${NS}"`,
    );
  });

  it('is served only at its namespaced collection, for POST only', async () => {
    const cluster = await ts.api.post(
      '/apis/authorization.k8s.io/v1/localsubjectaccessreviews',
      lsar('authorization.k8s.io', canBobList(NS)),
      admin,
    );
    expect(cluster.status).toBe(404);
    const get = await ts.api.get(lsarPath('authorization.k8s.io'), admin);
    expect(get.status).toBe(405);
    const namespacedSelf = await ts.api.post(
      `/apis/authorization.k8s.io/v1/namespaces/${NS}/selfsubjectaccessreviews`,
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectAccessReview', spec: canBobList(NS) },
      admin,
    );
    expect(namespacedSelf.status).toBe(404);
  });
});

describe('the create handler before a review', () => {
  it('drops system metadata and a namespace on a cluster-scoped review, as WipeObjectMetaSystemFields does', async () => {
    const res = await ts.api.post(
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        metadata: { namespace: 'default', uid: 'u-1', creationTimestamp: '2020-01-01T00:00:00Z', selfLink: '/x' },
        spec: { nonResourceAttributes: { verb: 'get', path: '/healthz' } },
      },
      alice,
    );
    expect(res.status).toBe(201);
    expect(res.body.metadata.namespace).toBeUndefined();
    expect(res.body.metadata.uid).toBeUndefined();
    expect(res.body.status.allowed).toBe(true);
    // Both bootstrap roles allow /healthz to the authenticated; RBAC names whichever binding it found first.
    expect(res.body.status.reason).toMatch(
      /^RBAC: allowed by ClusterRoleBinding "system:(discovery|public-info-viewer)" of ClusterRole "system:(discovery|public-info-viewer)" to Group "system:authenticated"$/,
    );
  });

  it("records the request fields as the manager's Update, in Go's field order (as 1.26 answers kubectl)", async () => {
    const res = await ts.api.request(
      'POST',
      '/apis/authorization.k8s.io/v1/selfsubjectaccessreviews',
      {
        apiVersion: 'authorization.k8s.io/v1',
        kind: 'SelfSubjectAccessReview',
        spec: { resourceAttributes: { namespace: NS, verb: 'list', resource: 'pods' } },
      },
      { ...alice, 'User-Agent': 'kubectl/v1.27.0 (linux/amd64) kubernetes/abc' },
    );
    expect(res.status).toBe(201);
    expect(res.text).toMatch(
      /^\{"kind":"SelfSubjectAccessReview","apiVersion":"authorization\.k8s\.io\/v1","metadata":\{"creationTimestamp":null,"managedFields":\[/,
    );
    expect(res.body.metadata.managedFields).toEqual([
      {
        manager: 'kubectl',
        operation: 'Update',
        apiVersion: 'authorization.k8s.io/v1',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/),
        fieldsType: 'FieldsV1',
        fieldsV1: {
          'f:spec': { 'f:resourceAttributes': { '.': {}, 'f:namespace': {}, 'f:resource': {}, 'f:verb': {} } },
        },
      },
    ]);
    const rules = await ts.api.post(
      '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews?fieldManager=me',
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: NS } },
      alice,
    );
    // The rules review answers a new object (selfsubjectrulesreview.REST): nothing of the request comes back.
    expect(rules.text).toMatch(
      /^\{"kind":"SelfSubjectRulesReview","apiVersion":"authorization\.k8s\.io\/v1","metadata":\{"creationTimestamp":null\},"spec":\{\},"status"/,
    );
  });
});

// rbac.authorization.orch.io/v1 Role, ClusterRole, RoleBinding, ClusterRoleBinding: validation, printing, and the
// rbac.authorization.k8s.io path and apiVersion typed clients use (same objects; JSON, YAML and protobuf bodies).
import { startTestServer, createNamespace, uniqueName, type TestServer } from '../helpers/test-server';
import { encodeProtobufResponse } from '../../lib/apimachinery/serializers/protobuf';
import { decodeProtobufJson } from '../helpers/protobuf-decoder';

const ORCH = '/apis/rbac.authorization.orch.io/v1';
const K8S = '/apis/rbac.authorization.k8s.io/v1';
const PROTOBUF = 'application/vnd.kubernetes.protobuf';

let ts: TestServer;
const ns = uniqueName('rbac');
beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, ns);
});
afterAll(async () => ts?.stop());

const role = (
  name: string,
  apiVersion = 'rbac.authorization.orch.io/v1',
  rules: unknown[] = [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }],
) => ({ apiVersion, kind: 'Role', metadata: { name }, rules });

describe('serving under both group names', () => {
  it('creates through the k8s.io path with the k8s.io apiVersion and reads it back under both names', async () => {
    const created = await ts.api.post(`${K8S}/namespaces/${ns}/roles`, role('via-k8s', 'rbac.authorization.k8s.io/v1'));
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('rbac.authorization.k8s.io/v1');
    const viaOrch = await ts.api.get(`${ORCH}/namespaces/${ns}/roles/via-k8s`);
    expect(viaOrch.status).toBe(200);
    expect(viaOrch.body.apiVersion).toBe('rbac.authorization.orch.io/v1');
    expect(viaOrch.body.rules).toEqual([{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }]);
    const list = await ts.api.get(`${K8S}/namespaces/${ns}/roles`);
    expect(list.body.apiVersion).toBe('rbac.authorization.k8s.io/v1');
    expect(list.body.kind).toBe('RoleList');
    expect(list.body.items.map((i: any) => i.metadata.name)).toContain('via-k8s');
  });

  it('accepts either group name in a JSON or YAML body on either path', async () => {
    expect(
      (await ts.api.post(`${ORCH}/namespaces/${ns}/roles`, role('orch-path-k8s-body', 'rbac.authorization.k8s.io/v1')))
        .status,
    ).toBe(201);
    expect((await ts.api.post(`${K8S}/namespaces/${ns}/roles`, role('k8s-path-orch-body'))).status).toBe(201);
    const yaml =
      'apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata:\n  name: yaml-' +
      ns +
      '\nrules:\n- nonResourceURLs: ["/healthz"]\n  verbs: ["get"]\n';
    const res = await ts.api.post(`${ORCH}/clusterroles`, yaml, { 'Content-Type': 'application/yaml' });
    expect(res.status).toBe(201);
    expect(res.body.rules).toEqual([{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]);
  });

  it('speaks protobuf on the k8s.io path', async () => {
    const body = encodeProtobufResponse({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: `pb-${ns}` },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
    } as any);
    const res = await fetch(`${ts.url}${K8S}/clusterrolebindings`, {
      method: 'POST',
      headers: { 'Content-Type': PROTOBUF, Accept: PROTOBUF },
      body,
    });
    expect(res.status).toBe(201);
    const decoded = decodeProtobufJson(new Uint8Array(await res.arrayBuffer())) as any;
    expect(decoded.apiVersion).toBe('rbac.authorization.k8s.io/v1');
    expect(decoded.subjects).toEqual([{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }]);
  });

  it('lists the Kubernetes name in discovery, then the orch.io group, with the same resources', async () => {
    const groups = (await ts.api.get('/apis')).body.groups.map((g: any) => g.name);
    expect(groups.indexOf('rbac.authorization.k8s.io')).toBeGreaterThanOrEqual(0);
    expect(groups.indexOf('rbac.authorization.orch.io')).toBe(groups.indexOf('rbac.authorization.k8s.io') + 1);
    for (const group of ['rbac.authorization.orch.io', 'rbac.authorization.k8s.io']) {
      const list = (await ts.api.get(`/apis/${group}/v1`)).body;
      expect(list.groupVersion).toBe(`${group}/v1`);
      expect(list.resources.map((r: any) => `${r.name}/${r.namespaced}`).sort()).toEqual([
        'clusterrolebindings/false',
        'clusterroles/false',
        'rolebindings/true',
        'roles/true',
      ]);
    }
  });
});

describe('validation as Kubernetes 1.26', () => {
  it.each([
    [
      'a namespaced rule with non-resource URLs',
      'roles',
      role('nonres', undefined, [{ nonResourceURLs: ['/metrics'], verbs: ['get'] }]),
      'Role.rbac.authorization.orch.io "nonres" is invalid: rules[0].nonResourceURLs: Invalid value: []string{"/metrics"}: namespaced rules cannot apply to non-resource URLs',
    ],
    [
      'a rule without verbs, groups or resources',
      'roles',
      role('empty', undefined, [{}]),
      'Role.rbac.authorization.orch.io "empty" is invalid: [rules[0].verbs: Required value: verbs must contain at least one value, rules[0].apiGroups: Required value: resource rules must supply at least one api group, rules[0].resources: Required value: resource rules must supply at least one resource]',
    ],
    [
      'a name with a slash-free percent',
      'roles',
      role('a%b'),
      'Role.rbac.authorization.orch.io "a%b" is invalid: metadata.name: Invalid value: "a%b": may not contain \'%\'',
    ],
    [
      'a binding to an unsupported kind and subject',
      'rolebindings',
      {
        apiVersion: 'rbac.authorization.orch.io/v1',
        kind: 'RoleBinding',
        metadata: { name: 'bad' },
        roleRef: { kind: 'Pod', name: 'x' },
        subjects: [{ kind: 'Robot', name: 'r' }],
      },
      'RoleBinding.rbac.authorization.orch.io "bad" is invalid: [roleRef.kind: Unsupported value: "Pod": supported values: "Role", "ClusterRole", subjects[0].kind: Unsupported value: "Robot": supported values: "ServiceAccount", "User", "Group"]',
    ],
  ])('refuses %s with 422', async (_what, resource, body, message) => {
    const res = await ts.api.post(`${ORCH}/namespaces/${ns}/${resource}`, body);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(message);
  });

  it("requires a namespace for a ClusterRoleBinding's service account and a clusterRoleSelector in an aggregationRule", async () => {
    const crb = await ts.api.post(`${ORCH}/clusterrolebindings`, {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'ClusterRoleBinding',
      metadata: { name: 'sa-no-ns' },
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'x' },
      subjects: [{ kind: 'ServiceAccount', name: 'default' }],
    });
    expect(crb.status).toBe(422);
    expect(crb.body.message).toBe(
      'ClusterRoleBinding.rbac.authorization.orch.io "sa-no-ns" is invalid: [roleRef.kind: Unsupported value: "Role": supported values: "ClusterRole", subjects[0].namespace: Required value]',
    );
    const cr = await ts.api.post(`${ORCH}/clusterroles`, {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'ClusterRole',
      metadata: { name: 'agg-empty' },
      aggregationRule: {},
    });
    expect(cr.status).toBe(422);
    expect(cr.body.message).toBe(
      'ClusterRole.rbac.authorization.orch.io "agg-empty" is invalid: aggregationRule.clusterRoleSelectors: Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    );
  });

  it('defaults the roleRef and User subject API group and refuses a roleRef change', async () => {
    const created = await ts.api.post(`${ORCH}/namespaces/${ns}/rolebindings`, {
      apiVersion: 'rbac.authorization.orch.io/v1',
      kind: 'RoleBinding',
      metadata: { name: 'rb' },
      roleRef: { kind: 'Role', name: 'via-k8s' },
      subjects: [
        { kind: 'User', name: 'bob' },
        { kind: 'ServiceAccount', name: 'robot', namespace: ns },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.roleRef).toEqual({ apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'via-k8s' });
    expect(created.body.subjects[0]).toEqual({ kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: 'bob' });
    expect(created.body.subjects[1]).toEqual({ kind: 'ServiceAccount', name: 'robot', namespace: ns });
    const changed = await ts.api.put(`${ORCH}/namespaces/${ns}/rolebindings/rb`, {
      ...created.body,
      roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: 'Role', name: 'other' },
    });
    expect(changed.status).toBe(422);
    expect(changed.body.message).toBe(
      'RoleBinding.rbac.authorization.orch.io "rb" is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"rbac.authorization.orch.io", Kind:"Role", Name:"other"}: cannot change roleRef',
    );
  });
});

describe('printer columns', () => {
  it('prints a RoleBinding as Name, Role, Age and the wide subject columns', async () => {
    const res = await ts.api.get(`${ORCH}/namespaces/${ns}/rolebindings/rb`, {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(res.status).toBe(200);
    expect(res.body.columnDefinitions.map((c: any) => `${c.name}:${c.priority}`)).toEqual([
      'Name:0',
      'Role:0',
      'Age:0',
      'Users:1',
      'Groups:1',
      'ServiceAccounts:1',
    ]);
    const cells = res.body.rows[0].cells;
    expect([cells[0], cells[1], cells[3], cells[4], cells[5]]).toEqual([
      'rb',
      'Role/via-k8s',
      'bob',
      '',
      `${ns}/robot`,
    ]);
  });

  it('prints Roles with the default Name / Created At table', async () => {
    const res = await ts.api.get(`${ORCH}/namespaces/${ns}/roles/via-k8s`, {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(res.body.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Created At']);
  });
});

// Write-path answers checked against kube-apiserver 1.26 (create, update, patch, delete).
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';

let ts: TestServer;
const NS = 'write-audit';

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

describe('finalizer names of the kinds validated by core ValidateObjectMeta', () => {
  // k8s.io/kubernetes pkg/apis/core/validation ValidateObjectMeta/validateKubeFinalizerName: a name without '/'
  // must be a standard finalizer; ValidateServiceAccount, rbac and flowcontrol validation call it.
  const NOT_STANDARD = 'name is neither a standard finalizer name nor is it fully qualified';
  it.each([
    [`/api/v1/namespaces/${NS}/serviceaccounts`, {}, 'ServiceAccount "fin"'],
    [`/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/roles`, {}, 'Role.rbac.authorization.orch.io "fin"'],
    ['/apis/rbac.authorization.k8s.io/v1/clusterroles', {}, 'ClusterRole.rbac.authorization.orch.io "fin"'],
    [
      `/apis/rbac.authorization.k8s.io/v1/namespaces/${NS}/rolebindings`,
      { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' } },
      'RoleBinding.rbac.authorization.orch.io "fin"',
    ],
    [
      '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings',
      { roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'r' } },
      'ClusterRoleBinding.rbac.authorization.orch.io "fin"',
    ],
    [
      '/apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas',
      { spec: { priorityLevelConfiguration: { name: 'global-default' } } },
      'FlowSchema.flowcontrol.apiserver.orch.io "fin"',
    ],
    [
      '/apis/flowcontrol.apiserver.k8s.io/v1beta3/prioritylevelconfigurations',
      { spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } },
      'PriorityLevelConfiguration.flowcontrol.apiserver.orch.io "fin"',
    ],
  ])('POST %s with finalizer "bad" is 422 and nothing is stored', async (path, extra, qualified) => {
    const res = await ts.api.post(path, { metadata: { name: 'fin', finalizers: ['x.io/ok', 'bad'] }, ...extra });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({
      reason: 'Invalid',
      message: `${qualified} is invalid: metadata.finalizers[1]: Invalid value: "bad": ${NOT_STANDARD}`,
      details: { causes: [{ reason: 'FieldValueInvalid', field: 'metadata.finalizers[1]' }] },
    });
    expect((await ts.api.get(`${path}/fin`)).status).toBe(404);
  });

  it('an update adding a bare finalizer is refused; standard names and qualified names pass', async () => {
    const path = `/api/v1/namespaces/${NS}/serviceaccounts`;
    expect((await ts.api.post(path, { metadata: { name: 'sa-fin' } })).status).toBe(201);
    const bad = await ts.api.patch(`${path}/sa-fin`, { metadata: { finalizers: ['bad'] } });
    expect(bad.status).toBe(422);
    expect(bad.body.message).toBe(
      `ServiceAccount "sa-fin" is invalid: metadata.finalizers[0]: Invalid value: "bad": ${NOT_STANDARD}`,
    );
    const good = await ts.api.patch(`${path}/sa-fin`, { metadata: { finalizers: ['orphan', 'x.io/y'] } });
    expect(good.status).toBe(200);
    expect(good.body.metadata.finalizers).toEqual(['orphan', 'x.io/y']);
  });
});

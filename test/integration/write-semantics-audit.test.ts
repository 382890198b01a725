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

describe('resourceVersion in a created object', () => {
  // k8s.io/apiserver pkg/storage/etcd3/store.go Create: versioner.ObjectResourceVersion (strconv.ParseUint) non-zero
  // is errors.New(...), which responsewriters.ErrorToAPIStatus answers as a 500 without a reason.
  const path = `/api/v1/namespaces/${NS}/serviceaccounts`;

  it('a POST with resourceVersion "5" is a reason-less 500 and nothing is stored', async () => {
    const res = await ts.api.post(path, { metadata: { name: 'rv-set', resourceVersion: '5' } });
    expect(res.status).toBe(500);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'resourceVersion should not be set on objects to be created',
      code: 500,
    });
    expect((await ts.api.get(`${path}/rv-set`)).status).toBe(404);
  });

  it('validation comes first: an invalid object with a resourceVersion is 422', async () => {
    const res = await ts.api.post(path, { metadata: { name: 'Bad_Name', resourceVersion: '5' } });
    expect(res.status).toBe(422);
  });

  it.each(['0', '-1', 'abc', '18446744073709551616'])(
    'resourceVersion %p, which is not a positive uint64, is ignored',
    async (rv) => {
      const name = `rv-${['0', '-1', 'abc'].indexOf(rv) + 1}`;
      const res = await ts.api.post(path, { metadata: { name, resourceVersion: rv } });
      expect(res.status).toBe(201);
      expect(res.body.metadata.resourceVersion).not.toBe(rv);
    },
  );

  it('a PUT creating an object (create-on-update) ignores it, as store.Update does', async () => {
    const res = await ts.api.put(`/api/v1/namespaces/${NS}/events/ev-rv`, {
      metadata: { name: 'ev-rv', resourceVersion: '5' },
      involvedObject: { kind: 'Pod', name: 'p', namespace: NS },
      reason: 'R',
      message: 'm',
      type: 'Normal',
      source: { component: 'c' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:00:00Z',
      count: 1,
    });
    expect(res.status).toBe(201);
  });
});

// The server's own writes are admitted as kube-apiserver admits its loopback client's: the namespace controller's
// deletes and the Dangling controller's status writes reach webhooks as system:apiserver (system:masters), with
// the subresource they write. Writes of webhook configurations never call webhooks, so a deny-everything webhook
// cannot lock its own configuration in.
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { configureWebhooks, startWebhookServer, webhookSpec, type WebhookServer } from '../helpers/webhook-server';
import { aDeployment, aFlowSchema, FLOWCONTROL } from '../helpers/fixtures';

const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';

let ts: TestServer;
let hook: WebhookServer;
beforeAll(async () => {
  hook = await startWebhookServer();
  ts = await startTestServer();
}, 60_000);
afterAll(async () => {
  await ts?.stop();
  await hook?.close();
});

const reviews = (path: string): any[] => hook.received.filter((r) => r.path === path).map((r) => r.review);

it("the namespace controller's deletes reach webhooks as system:apiserver", async () => {
  const rules = [{ operations: ['DELETE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }];
  await createNamespace(ts.api, 'doomed');
  await configureWebhooks(
    ts.api,
    VWC,
    'ValidatingWebhookConfiguration',
    'watch-deletes',
    [webhookSpec(hook, 'deletes.example.com', '/allow', { rules })],
    async () => {
      const probe = `probe-${Date.now()}`;
      await ts.api.post('/apis/apps/v1/namespaces/doomed/deployments', aDeployment(probe));
      await ts.api.delete(`/apis/apps/v1/namespaces/doomed/deployments/${probe}`);
      return reviews('/allow').some((r) => r.request.name === probe);
    },
  );
  expect((await ts.api.post('/apis/apps/v1/namespaces/doomed/deployments', aDeployment('left-behind'))).status).toBe(
    201,
  );
  expect((await ts.api.delete('/api/v1/namespaces/doomed')).status).toBe(200);
  await eventually(
    async () => reviews('/allow').some((r) => r.request.name === 'left-behind'),
    10_000,
    'the controller to delete the deployment',
  );
  const review = reviews('/allow').find((r) => r.request.name === 'left-behind');
  expect(review.request).toMatchObject({
    operation: 'DELETE',
    namespace: 'doomed',
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    userInfo: { username: 'system:apiserver', groups: ['system:masters', 'system:authenticated'] },
    oldObject: { metadata: { name: 'left-behind' } },
  });
  expect(review.request.userInfo.uid).toMatch(/^[0-9a-f-]{36}$/);
  await eventually(
    async () => (await ts.api.get('/api/v1/namespaces/doomed')).status === 404,
    15_000,
    'the namespace to go',
  );
  await ts.api.delete(`${VWC}/watch-deletes`);
});

it("the Dangling controller's status writes reach webhooks on flowschemas/status", async () => {
  const rules = [
    {
      operations: ['UPDATE'],
      apiGroups: ['flowcontrol.apiserver.orch.io'],
      apiVersions: ['*'],
      resources: ['flowschemas/status'],
    },
  ];
  const before = reviews('/allow').length;
  const res = await ts.api.post(VWC, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'watch-status' },
    webhooks: [webhookSpec(hook, 'status.example.com', '/allow', { rules, matchPolicy: 'Equivalent' })],
  });
  expect(res.status).toBe(201);
  // Give each replica's watch of the configurations a moment, then make the controller write a status.
  await new Promise((r) => setTimeout(r, 1000));
  expect((await ts.api.post(`${FLOWCONTROL}/flowschemas`, aFlowSchema('points-nowhere', 'missing-level'))).status).toBe(
    201,
  );
  await eventually(
    async () =>
      reviews('/allow')
        .slice(before)
        .some((r) => r.request.name === 'points-nowhere' && r.request.subResource === 'status'),
    10_000,
    'the Dangling status write to be admitted',
  );
  const review = reviews('/allow')
    .slice(before)
    .find((r) => r.request.name === 'points-nowhere');
  expect(review.request).toMatchObject({
    operation: 'UPDATE',
    subResource: 'status',
    userInfo: { username: 'system:apiserver' },
  });
  expect(review.request.object.status.conditions).toEqual(
    expect.arrayContaining([expect.objectContaining({ type: 'Dangling', status: 'True' })]),
  );
  await ts.api.delete(`${VWC}/watch-status`);
});

it('never calls webhooks for webhook configurations: a deny-everything webhook can still be removed', async () => {
  const everything = [{ operations: ['*'], apiGroups: ['*'], apiVersions: ['*'], resources: ['*/*'] }];
  await configureWebhooks(
    ts.api,
    VWC,
    'ValidatingWebhookConfiguration',
    'deny-all',
    [webhookSpec(hook, 'deny-all.example.com', '/deny', { rules: everything })],
    async () =>
      (
        await ts.api.post('/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: `denied-${Date.now()}` },
        })
      ).status === 403,
  );
  const other = await ts.api.post(VWC, {
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: 'ValidatingWebhookConfiguration',
    metadata: { name: 'still-writable' },
    webhooks: [webhookSpec(hook, 'other.example.com', '/allow')],
  });
  expect(other.status).toBe(201);
  expect((await ts.api.delete(`${VWC}/still-writable`)).status).toBe(200);
  expect((await ts.api.delete(`${VWC}/deny-all`)).status).toBe(200);
  await eventually(
    async () =>
      (
        await ts.api.post('/api/v1/namespaces', {
          apiVersion: 'v1',
          kind: 'Namespace',
          metadata: { name: 'allowed-again' },
        })
      ).status === 201,
    5000,
    'the deny-all webhook to go',
  );
});

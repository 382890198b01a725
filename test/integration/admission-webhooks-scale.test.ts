// Webhooks on a `scale` subresource are admitted as Kubernetes admits them: the webhook gets the autoscaling/v1
// Scale (kind, requestKind, object and oldObject), a mutating webhook's patch of the Scale changes the parent's
// replicas, and an objectSelector sees the Scale (which has no labels), not the Deployment.
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { configureWebhooks, startWebhookServer, webhookSpec, type WebhookServer } from '../helpers/webhook-server';
import { aDeployment } from '../helpers/fixtures';

const NS = 'scale-webhooks';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const VWC = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const MWC = '/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations';
const SCALE_RULES = [
  { operations: ['UPDATE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments/scale'] },
];

let ts: TestServer;
let hook: WebhookServer;
beforeAll(async () => {
  hook = await startWebhookServer();
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
  expect((await ts.api.post(DEPLOYMENTS, aDeployment('web'))).status).toBe(201);
}, 60_000);
afterAll(async () => {
  await ts?.stop();
  await hook?.close();
});

const scaleTo = (replicas: number): ReturnType<TestServer['api']['patch']> =>
  ts.api.patch(`${DEPLOYMENTS}/web/scale`, { spec: { replicas } });

const configure = (
  path: string,
  kind: string,
  name: string,
  webhooks: Record<string, unknown>[],
  taken: () => Promise<boolean>,
): Promise<void> => configureWebhooks(ts.api, path, kind, name, webhooks, taken);

const reviewsAt = (path: string): any[] => hook.received.filter((r) => r.path === path).map((r) => r.review);

it('a validating webhook on deployments/scale gets the Scale, old and new', async () => {
  const before = reviewsAt('/allow').length;
  await configure(
    VWC,
    'ValidatingWebhookConfiguration',
    'scale-watch',
    [webhookSpec(hook, 'scale.example.com', '/allow', { rules: SCALE_RULES })],
    async () => {
      await scaleTo(2);
      return reviewsAt('/allow').length > before;
    },
  );
  const res = await scaleTo(5);
  expect(res.status).toBe(200);
  const review = reviewsAt('/allow').at(-1);
  expect(review.request).toMatchObject({
    kind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    resource: { group: 'apps', version: 'v1', resource: 'deployments' },
    subResource: 'scale',
    requestKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
    requestResource: { group: 'apps', version: 'v1', resource: 'deployments' },
    requestSubResource: 'scale',
    name: 'web',
    namespace: NS,
    operation: 'UPDATE',
    object: {
      apiVersion: 'autoscaling/v1',
      kind: 'Scale',
      metadata: { name: 'web', namespace: NS },
      spec: { replicas: 5 },
    },
    oldObject: { apiVersion: 'autoscaling/v1', kind: 'Scale', spec: { replicas: 2 } },
  });
  expect(review.request.object.status.selector).toBe('app=web');
  await ts.api.delete(`${VWC}/scale-watch`);
});

it('a mutating webhook patching the Scale sets the Deployment replicas', async () => {
  await configure(
    MWC,
    'MutatingWebhookConfiguration',
    'scale-pin',
    [webhookSpec(hook, 'pin.example.com', '/scale-to-3', { rules: SCALE_RULES })],
    async () => (await scaleTo(9)).body.spec?.replicas === 3,
  );
  const res = await scaleTo(7);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject({ kind: 'Scale', spec: { replicas: 3 } });
  expect((await ts.api.get(`${DEPLOYMENTS}/web`)).body.spec.replicas).toBe(3);
  await ts.api.delete(`${MWC}/scale-pin`);
  await eventually(async () => (await scaleTo(4)).body.spec?.replicas === 4, 5000, 'the mutating webhook to go');
});

it("an objectSelector on the Deployment's labels does not match its Scale", async () => {
  const selecting = webhookSpec(hook, 'selecting.example.com', '/deny', {
    rules: [{ ...SCALE_RULES[0], resources: ['deployments', 'deployments/scale'] }],
    objectSelector: { matchLabels: { app: 'web' } },
  });
  await configure(VWC, 'ValidatingWebhookConfiguration', 'selecting', [selecting], async () => {
    const web = (await ts.api.get(`${DEPLOYMENTS}/web`)).body;
    return (await ts.api.put(`${DEPLOYMENTS}/web`, web)).status === 403;
  });
  expect((await scaleTo(6)).status).toBe(200);
  await ts.api.delete(`${VWC}/selecting`);
});

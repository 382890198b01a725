// The AdmissionReview a webhook gets is the first of its admissionReviewVersions the server speaks (v1, v1beta1),
// its answer is checked as kube-apiserver 1.26 checks it, and an update of a webhook configuration keeps accepting
// what the stored object already had. Stored objects that today's validation refuses (as an older server wrote
// them) are put into etcd directly.
import type { Etcd3 } from 'etcd3';
import {
  eventually,
  uniqueName,
  type TestServer,
  startServerWithEtcdClient,
  stopServerWithEtcdClient,
} from '../helpers/test-server';
import { configureWebhooks, startWebhookServer, webhookSpec, type WebhookServer } from '../helpers/webhook-server';
import { aDeployment } from '../helpers/fixtures';

const GROUP = 'admissionregistration.orch.io';
const VWC = `/apis/${GROUP}/v1/validatingwebhookconfigurations`;
const MWC = `/apis/${GROUP}/v1/mutatingwebhookconfigurations`;
const NS = 'review-versions';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

let ts: TestServer;
let etcd: Etcd3;
let hook: WebhookServer;
beforeAll(async () => {
  hook = await startWebhookServer();
  ({ ts, etcd } = await startServerWithEtcdClient(NS));
}, 60_000);
afterAll(async () => {
  await stopServerWithEtcdClient(ts, etcd);
  await hook?.close();
});

const createDeployment = (name = uniqueName('d')): ReturnType<TestServer['api']['post']> =>
  ts.api.post(DEPLOYMENTS, aDeployment(name));

/** Creates a configuration and waits until creating a deployment gives `status` (the watch-driven cache caught up). */
const configure = (
  path: string,
  kind: string,
  name: string,
  webhooks: Record<string, unknown>[],
  status: number,
): Promise<void> =>
  configureWebhooks(ts.api, path, kind, name, webhooks, async () => (await createDeployment()).status === status);

/** Rewrites the stored webhooks of a configuration in etcd, as a server with looser rules could have written them. */
async function storeWebhooks(
  resource: string,
  name: string,
  edit: (webhooks: Record<string, unknown>[]) => void,
): Promise<void> {
  const key = `/registry/${GROUP}/${resource}/${name}`;
  const stored = JSON.parse((await etcd.get(key).string()) ?? 'null');
  edit(stored.webhooks);
  await etcd.put(key).value(JSON.stringify(stored));
}

describe('AdmissionReview versions', () => {
  it('sends v1beta1 to a webhook that only takes v1beta1, and applies its patch without patchType', async () => {
    await configure(
      MWC,
      'MutatingWebhookConfiguration',
      'beta',
      [webhookSpec(hook, 'beta.example.com', '/untyped-patch', { admissionReviewVersions: ['v1beta1'] })],
      201,
    );
    const res = await createDeployment('beta-patched');
    expect(res.status).toBe(201);
    expect(res.body.metadata.labels).toMatchObject({ untyped: 'yes' });
    const review = hook.received.filter((r) => r.path === '/untyped-patch').at(-1)?.review;
    expect(review).toMatchObject({
      apiVersion: 'admission.k8s.io/v1beta1',
      kind: 'AdmissionReview',
      request: { operation: 'CREATE', kind: { group: 'apps', version: 'v1', kind: 'Deployment' } },
    });
    await ts.api.delete(`${MWC}/beta`);
  });

  it('sends the first version it knows: v1 from [v9, v1, v1beta1]; a v1 patch without patchType fails the call', async () => {
    await configure(
      MWC,
      'MutatingWebhookConfiguration',
      'first-known',
      [webhookSpec(hook, 'first.example.com', '/untyped-patch', { admissionReviewVersions: ['v9', 'v1', 'v1beta1'] })],
      500,
    );
    const res = await createDeployment('first-known');
    expect(res.status).toBe(500);
    expect(res.body.message).toBe(
      'Internal error occurred: failed calling webhook "first.example.com": received invalid webhook response: webhook returned response.patch but not response.patchType',
    );
    expect(hook.received.filter((r) => r.path === '/untyped-patch').at(-1)?.review.apiVersion).toBe(
      'admission.k8s.io/v1',
    );
    expect((await ts.api.get(`${DEPLOYMENTS}/first-known`)).status).toBe(404);
    await ts.api.delete(`${MWC}/first-known`);
  });

  it('refuses a v1 answer of another kind and a validating webhook that patches', async () => {
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'answers-beta',
      [webhookSpec(hook, 'answers-beta.example.com', '/answer-v1beta1')],
      500,
    );
    const wrongKind = await createDeployment();
    expect(wrongKind.body.message).toBe(
      'Internal error occurred: failed calling webhook "answers-beta.example.com": received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got admission.k8s.io/v1beta1, Kind=AdmissionReview',
    );
    await ts.api.delete(`${VWC}/answers-beta`);
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'patches',
      [webhookSpec(hook, 'patches.example.com', '/mutate')],
      500,
    );
    const patching = await createDeployment();
    expect(patching.body.message).toBe(
      'Internal error occurred: failed calling webhook "patches.example.com": received invalid webhook response: validating webhook may not return response.patch',
    );
    await ts.api.delete(`${VWC}/patches`);
  });

  it('fails the call of a stored webhook without a known version under Fail, and goes on under Ignore', async () => {
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'unknown-version',
      [webhookSpec(hook, 'unknown.example.com', '/allow')],
      201,
    );
    const calls = hook.received.length;
    await storeWebhooks(
      'validatingwebhookconfigurations',
      'unknown-version',
      (webhooks) => (webhooks[0]!['admissionReviewVersions'] = ['v9']),
    );
    await eventually(async () => (await createDeployment()).status === 500, 5000, 'the stored change to take effect');
    const failed = await createDeployment();
    expect(failed.body.message).toBe(
      'Internal error occurred: failed calling webhook "unknown.example.com": could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)',
    );
    await storeWebhooks(
      'validatingwebhookconfigurations',
      'unknown-version',
      (webhooks) => (webhooks[0]!['failurePolicy'] = 'Ignore'),
    );
    await eventually(async () => (await createDeployment()).status === 201, 5000, 'Ignore to take effect');
    // The webhook was never called with a review it could not read.
    expect(hook.received.slice(calls).filter((r) => r.path === '/allow')).toHaveLength(0);
    await ts.api.delete(`${VWC}/unknown-version`);
  });
});

describe('updates of webhook configurations', () => {
  const allowing = (name: string, extra: Record<string, unknown> = {}): Record<string, unknown> =>
    webhookSpec(hook, name, '/allow', {
      rules: [{ operations: ['DELETE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] }],
      ...extra,
    });

  it('keep accepting side effects, unknown review versions and repeated names the stored object already had', async () => {
    const res = await ts.api.post(MWC, {
      apiVersion: `${GROUP}/v1`,
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'legacy' },
      webhooks: [allowing('a.example.com'), allowing('b.example.com')],
    });
    expect(res.status).toBe(201);
    await storeWebhooks('mutatingwebhookconfigurations', 'legacy', (webhooks) => {
      webhooks[0]!['sideEffects'] = 'Some';
      webhooks[0]!['admissionReviewVersions'] = ['v9'];
      webhooks[1]!['name'] = 'a.example.com';
    });
    const stored = (await ts.api.get(`${MWC}/legacy`)).body;
    const relabelled = await ts.api.put(`${MWC}/legacy`, {
      ...stored,
      metadata: { ...stored.metadata, labels: { touched: 'yes' } },
    });
    expect(relabelled.status).toBe(200);
    expect(relabelled.body.webhooks.map((w: { name: string; sideEffects: string }) => [w.name, w.sideEffects])).toEqual(
      [
        ['a.example.com', 'Some'],
        ['a.example.com', 'None'],
      ],
    );
    // The relaxed rules still allow only the values Kubernetes knows.
    const unknown = await ts.api.put(`${MWC}/legacy`, {
      ...relabelled.body,
      webhooks: [{ ...relabelled.body.webhooks[0], sideEffects: 'Sometimes' }],
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.message).toContain(
      'webhooks[0].sideEffects: Unsupported value: "Sometimes": supported values: "None", "NoneOnDryRun", "Some", "Unknown"',
    );
    // The same webhooks are refused on create.
    const fresh = await ts.api.post(MWC, {
      apiVersion: `${GROUP}/v1`,
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'legacy-copy' },
      webhooks: relabelled.body.webhooks,
    });
    expect(fresh.status).toBe(422);
    expect(fresh.body.details.causes.map((c: { field: string }) => c.field).sort()).toEqual([
      'webhooks[0].admissionReviewVersions',
      'webhooks[0].sideEffects',
      'webhooks[1].name',
    ]);
    await ts.api.delete(`${MWC}/legacy`);
  });

  it('hold a valid stored object to every rule', async () => {
    const res = await ts.api.post(VWC, {
      apiVersion: `${GROUP}/v1`,
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'strict' },
      webhooks: [allowing('a.example.com')],
    });
    expect(res.status).toBe(201);
    const withSideEffects = await ts.api.put(`${VWC}/strict`, {
      ...res.body,
      webhooks: [{ ...res.body.webhooks[0], sideEffects: 'Some' }, allowing('a.example.com')],
    });
    expect(withSideEffects.status).toBe(422);
    expect(withSideEffects.body.message).toBe(
      'ValidatingWebhookConfiguration.admissionregistration.orch.io "strict" is invalid: [webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun", webhooks[1].name: Duplicate value: "a.example.com"]',
    );
    await ts.api.delete(`${VWC}/strict`);
  });
});

// Admission webhooks against a real HTTPS webhook server (self-signed CA): configurations, denials, JSONPatch mutation,
// timeouts, crashes and failure policies, and the webhook metrics.
import { createNamespace, uniqueName, eventually, type TestServer } from '../helpers/test-server';
import type { WebhookServer } from '../helpers/webhook-server';
import { aDeployment } from '../helpers/fixtures';
import { configure, remove, startServers, stopServers, webhook, MWC, VWC } from './admission-webhooks-fixture';

let ts: TestServer;
let hook: WebhookServer;
beforeAll(async () => ({ ts, hook } = await startServers()), 60_000);
afterAll(stopServers);

describe('webhook configurations', () => {
  it('are defaulted and validated as admissionregistration/v1', async () => {
    const created = await ts.api.post(VWC, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'defaults' },
      webhooks: [
        webhook('a.example.com', '/allow', {
          rules: [
            { operations: ['DELETE'], apiGroups: ['nothing.example.com'], apiVersions: ['v1'], resources: ['things'] },
          ],
        }),
      ],
    });
    expect(created.status).toBe(201);
    // Served at the Kubernetes path, the object names the Kubernetes group, as kube-apiserver answers there.
    expect(created.body.apiVersion).toBe('admissionregistration.k8s.io/v1');
    expect(created.body.webhooks[0]).toMatchObject({
      failurePolicy: 'Fail',
      matchPolicy: 'Equivalent',
      timeoutSeconds: 10,
      namespaceSelector: {},
      objectSelector: {},
      rules: [{ scope: '*' }],
    });
    expect(created.body.metadata.generation).toBe(1);
    await remove(VWC, 'defaults');

    const bad = await ts.api.post(MWC, {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'bad' },
      webhooks: [
        { ...webhook('dup.example.com', '/allow'), sideEffects: undefined, admissionReviewVersions: undefined },
        {
          ...webhook('dup.example.com', '/allow'),
          sideEffects: 'Some',
          timeoutSeconds: 31,
          clientConfig: { url: 'http://example.com/x' },
        },
        { ...webhook('short', '/allow'), failurePolicy: 'Sometimes', reinvocationPolicy: 'Always' },
      ],
    });
    expect(bad.status).toBe(422);
    const causes = bad.body.details.causes.map((c: { field: string; message: string }) => `${c.field}: ${c.message}`);
    expect(causes).toEqual([
      'webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun',
      'webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1',
      'webhooks[1].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
      'webhooks[1].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds',
      'webhooks[1].clientConfig.url: Invalid value: "http": \'https\' is the only allowed URL scheme; desired format: https://host[/path]',
      'webhooks[1].name: Duplicate value: "dup.example.com"',
      'webhooks[2].name: Invalid value: "short": should be a domain with at least three segments separated by dots',
      'webhooks[2].failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
      'webhooks[2].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"',
    ]);
  });
});

describe('calling webhooks', () => {
  let ns: string;
  beforeAll(async () => {
    ns = uniqueName('hooks');
    await createNamespace(ts.api, ns);
  });

  it('a validating webhook denies with the Kubernetes text, and its configuration takes effect and goes within a second', async () => {
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'deny',
      [webhook('deny.example.com', '/deny')],
      async () =>
        (await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(uniqueName('probe')))).status ===
        403,
    );
    const res = await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('denied'));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      code: 403,
      message: 'admission webhook "deny.example.com" denied the request: no deployments here',
    });
    expect((await ts.api.get(`/apis/apps/v1/namespaces/${ns}/deployments/denied`)).status).toBe(404);
    const review = hook.received.filter((r) => r.path === '/deny').at(-1)?.review;
    expect(review).toMatchObject({
      apiVersion: 'admission.k8s.io/v1',
      kind: 'AdmissionReview',
      request: {
        kind: { group: 'apps', version: 'v1', kind: 'Deployment' },
        resource: { group: 'apps', version: 'v1', resource: 'deployments' },
        namespace: ns,
        operation: 'CREATE',
        userInfo: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
        object: { metadata: { name: 'denied' } },
        oldObject: null,
        dryRun: false,
        options: { kind: 'CreateOptions', apiVersion: 'meta.k8s.io/v1' },
      },
    });
    await remove(VWC, 'deny');
    await eventually(
      async () =>
        (await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(uniqueName('after')))).status ===
        201,
      1000,
      'the removal to take effect',
    );
  });

  it('a denial without message reports the reason and keeps a code of at least 400', async () => {
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'deny-reason',
      [webhook('reason.example.com', '/deny-reason')],
      async () =>
        (await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(uniqueName('probe')))).status ===
        409,
    );
    const res = await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('reasoned'));
    expect(res.body).toMatchObject({
      code: 409,
      reason: 'NotWelcome',
      message: 'admission webhook "reason.example.com" denied the request: NotWelcome',
    });
    await remove(VWC, 'deny-reason');
  });

  it('a mutating webhook patches the object before validation; its warnings reach the client', async () => {
    await configure(
      MWC,
      'MutatingWebhookConfiguration',
      'mutate',
      [webhook('mutate.example.com', '/mutate')],
      async () =>
        (await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(uniqueName('probe')))).body
          ?.metadata?.labels?.mutated === 'yes',
    );
    const res = await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('mutated'));
    expect(res.status).toBe(201);
    expect(res.body.metadata.labels).toEqual({ app: 'mutated', mutated: 'yes' });
    expect(res.headers.get('warning')).toContain('299 - "mutated by the test webhook"');
    expect((await ts.api.get(`/apis/apps/v1/namespaces/${ns}/deployments/mutated`)).body.metadata.labels.mutated).toBe(
      'yes',
    );
    await remove(MWC, 'mutate');
  });

  it('a webhook that never answers costs its timeout (Fail: 500 with the calling text; Ignore: the write goes on) and blocks nothing else', async () => {
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'slow',
      [webhook('slow.example.com', '/slow', { timeoutSeconds: 1 })],
      async () =>
        (await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(uniqueName('probe')))).status ===
        500,
    );
    const started = Date.now();
    const [slow, other] = await Promise.all([
      ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('slow')),
      (async () => {
        const t = Date.now();
        const r = await ts.api.get(`/apis/apps/v1/namespaces/${ns}/deployments`);
        return { status: r.status, ms: Date.now() - t };
      })(),
    ]);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(other.status).toBe(200);
    expect(other.ms).toBeLessThan(900);
    expect(slow.status).toBe(500);
    expect(slow.body.reason).toBe('InternalError');
    expect(slow.body.message).toMatch(
      /^Internal error occurred: failed calling webhook "slow\.example\.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/slow\?timeout=1s": context deadline exceeded$/,
    );
    await ts.api.patch(
      `${VWC}/slow`,
      [{ op: 'replace', path: '/webhooks/0/failurePolicy', value: 'Ignore' }],
      'application/json-patch+json',
    );
    await eventually(
      async () =>
        (await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(uniqueName('ignored')))).status ===
        201,
      5000,
      'Ignore to take effect',
    );
    await remove(VWC, 'slow');
  });

  it('a webhook that crashes the connection or answers another uid fails the request under Fail', async () => {
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'crash',
      [webhook('crash.example.com', '/crash')],
      async () =>
        (await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(uniqueName('probe')))).status ===
        500,
    );
    const res = await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('crashed'));
    expect(res.body.message).toMatch(
      /^Internal error occurred: failed calling webhook "crash\.example\.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:\d+\/crash\?timeout=10s": /,
    );
    await remove(VWC, 'crash');
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'uid',
      [webhook('uid.example.com', '/wrong-uid')],
      async () =>
        (await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(uniqueName('probe')))).status ===
        500,
    );
    const uid = await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('uid'));
    expect(uid.body.message).toMatch(
      /^Internal error occurred: failed calling webhook "uid\.example\.com": received invalid webhook response: expected response\.uid="[0-9a-f-]+", got "not-the-uid"$/,
    );
    await remove(VWC, 'uid');
  });

  it('exposes the webhook metrics with 1.26 labels', async () => {
    const text = (await ts.api.get('/metrics')).text;
    expect(text).toMatch(
      /apiserver_admission_webhook_admission_duration_seconds_count\{name="deny.example.com",type="validating",operation="CREATE",rejected="true"\} \d+/,
    );
    expect(text).toMatch(
      /apiserver_admission_webhook_request_total\{name="mutate.example.com",type="admit",operation="CREATE",code="200",rejected="false"\} \d+/,
    );
    expect(text).toMatch(
      /apiserver_admission_webhook_rejection_count\{name="slow.example.com",type="validating",operation="CREATE",error_type="calling_webhook_error",rejection_code="400"\} \d+/,
    );
    expect(text).toMatch(
      /apiserver_admission_webhook_rejection_count\{name="deny.example.com",type="validating",operation="CREATE",error_type="no_error",rejection_code="403"\} \d+/,
    );
  });
});

// Admission webhooks against a real HTTPS webhook server (self-signed CA): which webhooks are called and with what
// request: rules and selectors, matchPolicy Equivalent, service references, dry-run and deletes.
import { createNamespace, uniqueName, type TestServer } from '../helpers/test-server';
import type { WebhookServer } from '../helpers/webhook-server';
import { aDeployment, anHpa } from '../helpers/fixtures';
import { configure, remove, startServers, stopServers, webhook, VWC } from './admission-webhooks-fixture';

let ts: TestServer;
let hook: WebhookServer;
beforeAll(async () => ({ ts, hook } = await startServers()), 60_000);
afterAll(stopServers);

describe('calling webhooks', () => {
  let ns: string;
  beforeAll(async () => {
    ns = uniqueName('hooks');
    await createNamespace(ts.api, ns);
  });

  it('matches rules by operation and subresource, namespaceSelector and objectSelector', async () => {
    const labelled = uniqueName('labelled');
    await ts.api.post('/api/v1/namespaces', { metadata: { name: labelled, labels: { webhooks: 'on' } } });
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'selective',
      [
        webhook('update.example.com', '/deny', {
          rules: [
            { operations: ['UPDATE'], apiGroups: ['apps'], apiVersions: ['*'], resources: ['deployments/status'] },
          ],
        }),
        webhook('ns.example.com', '/deny', { namespaceSelector: { matchLabels: { webhooks: 'on' } } }),
        webhook('obj.example.com', '/deny', {
          objectSelector: { matchExpressions: [{ key: 'guarded', operator: 'Exists' }] },
        }),
      ],
      async () =>
        (await ts.api.post(`/apis/apps/v1/namespaces/${labelled}/deployments`, aDeployment(uniqueName('probe'))))
          .status === 403,
    );
    // Create in an unlabelled namespace, unguarded: no webhook matches.
    expect((await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('free'))).status).toBe(201);
    const guarded = await ts.api.post(
      `/apis/apps/v1/namespaces/${ns}/deployments`,
      aDeployment('guarded', { metadata: { name: 'guarded', labels: { app: 'guarded', guarded: 'x' } } }),
    );
    expect(guarded.body.message).toContain('"obj.example.com" denied');
    // An update of the main resource is not the status subresource.
    expect(
      (await ts.api.patch(`/apis/apps/v1/namespaces/${ns}/deployments/free`, { metadata: { annotations: { a: 'b' } } }))
        .status,
    ).toBe(200);
    const status = await ts.api.patch(`/apis/apps/v1/namespaces/${ns}/deployments/free/status`, {
      status: { observedGeneration: 1 },
    });
    expect(status.status).toBe(403);
    expect(status.body.message).toContain('"update.example.com" denied');
    expect(hook.received.at(-1)?.review.request).toMatchObject({
      subResource: 'status',
      requestSubResource: 'status',
      operation: 'UPDATE',
      oldObject: { metadata: { name: 'free' } },
    });
    await remove(VWC, 'selective');
  });

  it('matchPolicy Equivalent calls a webhook for autoscaling/v1 with the v1 object on an autoscaling/v2 request; Exact does not', async () => {
    const rules = [
      {
        operations: ['CREATE'],
        apiGroups: ['autoscaling'],
        apiVersions: ['v1'],
        resources: ['horizontalpodautoscalers'],
      },
    ];
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'equivalent',
      [
        webhook('equivalent.example.com', '/allow', { rules }),
        webhook('exact.example.com', '/deny', { rules, matchPolicy: 'Exact' }),
      ],
      async () => true,
    );
    await new Promise((r) => setTimeout(r, 300));
    const hpa = anHpa('eq');
    const v2 = {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: hpa.metadata,
      spec: { scaleTargetRef: hpa.spec.scaleTargetRef, minReplicas: 1, maxReplicas: 3 },
    };
    const res = await ts.api.post(`/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`, v2);
    expect(res.status).toBe(201);
    const review = hook.received.filter((r) => r.path === '/allow').at(-1)?.review;
    expect(review.request).toMatchObject({
      kind: { group: 'autoscaling', version: 'v1', kind: 'HorizontalPodAutoscaler' },
      resource: { version: 'v1' },
      requestKind: { group: 'autoscaling', version: 'v2', kind: 'HorizontalPodAutoscaler' },
      requestResource: { version: 'v2' },
      object: { apiVersion: 'autoscaling/v1', kind: 'HorizontalPodAutoscaler' },
    });
    await remove(VWC, 'equivalent');
  });

  it('calls a service reference at the --webhook-service-url-template URL, checking the certificate for <name>.<namespace>.svc', async () => {
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'service',
      [
        webhook('service.example.com', '/deny', {
          clientConfig: {
            service: { name: 'webhook', namespace: 'default', path: '/deny', port: hook.port },
            caBundle: hook.caBundle,
          },
        }),
      ],
      async () =>
        (await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment(uniqueName('probe')))).status ===
        403,
    );
    const res = await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('via-service'));
    expect(res.body.message).toBe('admission webhook "service.example.com" denied the request: no deployments here');
    await remove(VWC, 'service');
  });

  it('dry-run requests reach webhooks with dryRun true; deletes carry the old object', async () => {
    await configure(
      VWC,
      'ValidatingWebhookConfiguration',
      'dry',
      [
        webhook('dry.example.com', '/allow', {
          sideEffects: 'NoneOnDryRun',
          rules: [
            { operations: ['CREATE', 'DELETE'], apiGroups: ['apps'], apiVersions: ['v1'], resources: ['deployments'] },
          ],
        }),
      ],
      async () => true,
    );
    await new Promise((r) => setTimeout(r, 300));
    const res = await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments?dryRun=All`, aDeployment('dry'));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toContain('seen by the test webhook');
    expect(hook.received.at(-1)?.review.request).toMatchObject({
      dryRun: true,
      operation: 'CREATE',
      options: { dryRun: ['All'] },
    });
    await ts.api.post(`/apis/apps/v1/namespaces/${ns}/deployments`, aDeployment('to-delete'));
    expect((await ts.api.delete(`/apis/apps/v1/namespaces/${ns}/deployments/to-delete`)).status).toBe(200);
    expect(hook.received.at(-1)?.review.request).toMatchObject({
      operation: 'DELETE',
      object: null,
      oldObject: { metadata: { name: 'to-delete' } },
      options: { kind: 'DeleteOptions' },
    });
    await remove(VWC, 'dry');
  });
});

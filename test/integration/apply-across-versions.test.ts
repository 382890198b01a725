// Server-side apply by autoscaling/v1 and autoscaling/v2 appliers interleaved on one HPA: pruning reads every owner's
// fields in its own version (structured-merge-diff's prune, addBackOwnedItems and addBackDanglingItems per version).
import { createNamespace, startTestServer, uniqueName, type TestServer } from '../helpers/test-server';
import type { ManagedFieldsEntry } from '../helpers/fixtures';

let ts: TestServer;
const ns = uniqueName('aav');
const V1 = `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`;
const V2 = `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`;
const APPLY = 'application/apply-patch+yaml';
const TARGET = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' };

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, ns);
});
afterAll(() => ts.stop());

/** manager → [operation, apiVersion, fieldsV1.f:spec] */
function owners(body: {
  metadata: { managedFields: ManagedFieldsEntry[] };
}): Record<string, [string, string, unknown]> {
  return Object.fromEntries(
    body.metadata.managedFields.map((e) => [e.manager, [e.operation, e.apiVersion, e.fieldsV1['f:spec']]]),
  );
}

const v1Apply = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: { scaleTargetRef: TARGET, ...spec },
});
const v2Apply = (name: string, spec: Record<string, unknown>) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: { scaleTargetRef: TARGET, ...spec },
});
const cpu = (averageUtilization: number) => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization } },
});
const memory = {
  type: 'Resource',
  resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } },
};
/** scaleTargetRef is atomic in autoscaling/v1 (`f:scaleTargetRef: {}`), granular in v2. */
const SCALE_TARGET_FIELDS = { 'f:apiVersion': {}, 'f:kind': {}, 'f:name': {} };

async function apply(url: string, manager: string, config: Record<string, unknown>): Promise<any> {
  const res = await ts.api.patch(`${url}?fieldManager=${manager}`, config, APPLY);
  expect(res.status).toBeLessThan(300);
  return res.body;
}

describe('interleaved autoscaling/v1 and autoscaling/v2 appliers', () => {
  it('a v1 applier dropping targetCPUUtilizationPercentage keeps the cpu metric a v2 applier owns', async () => {
    await apply(`${V1}/keep`, 'v1-app', v1Apply('keep', { maxReplicas: 6, targetCPUUtilizationPercentage: 50 }));
    await apply(`${V2}/keep`, 'v2-app', v2Apply('keep', { maxReplicas: 6, metrics: [cpu(50)] }));
    const body = await apply(`${V1}/keep`, 'v1-app', v1Apply('keep', { maxReplicas: 6 }));
    expect(body.spec.targetCPUUtilizationPercentage).toBe(50);
    const v2 = (await ts.api.get(`${V2}/keep`)).body;
    expect(v2.spec.metrics).toEqual([cpu(50)]);
    expect(owners(v2)).toEqual({
      'v1-app': ['Apply', 'autoscaling/v1', { 'f:maxReplicas': {}, 'f:scaleTargetRef': {} }],
      'v2-app': [
        'Apply',
        'autoscaling/v2',
        { 'f:maxReplicas': {}, 'f:metrics': {}, 'f:scaleTargetRef': SCALE_TARGET_FIELDS },
      ],
    });
  });

  it('a v2 applier dropping its metrics keeps the cpu target a v1 applier owns', async () => {
    await apply(`${V2}/keep2`, 'v2-app', v2Apply('keep2', { maxReplicas: 6, metrics: [cpu(40)] }));
    await apply(`${V1}/keep2`, 'v1-app', v1Apply('keep2', { maxReplicas: 6, targetCPUUtilizationPercentage: 40 }));
    const body = await apply(`${V2}/keep2`, 'v2-app', v2Apply('keep2', { maxReplicas: 6 }));
    expect(body.spec.metrics).toEqual([cpu(40)]);
    expect(owners(body)).toEqual({
      'v1-app': [
        'Apply',
        'autoscaling/v1',
        { 'f:maxReplicas': {}, 'f:scaleTargetRef': {}, 'f:targetCPUUtilizationPercentage': {} },
      ],
      'v2-app': ['Apply', 'autoscaling/v2', { 'f:maxReplicas': {}, 'f:scaleTargetRef': SCALE_TARGET_FIELDS }],
    });
  });

  it('a field applied in v1 and no longer applied by the same manager in v2 is removed, not resurrected', async () => {
    await apply(`${V1}/move`, 'mover', v1Apply('move', { maxReplicas: 4, targetCPUUtilizationPercentage: 60 }));
    const body = await apply(`${V2}/move`, 'mover', v2Apply('move', { maxReplicas: 4 }));
    // The applied 60% target is gone; what is left is the v2 default metric (80% cpu).
    expect(body.spec.metrics).toEqual([cpu(80)]);
    expect(owners(body)).toEqual({
      mover: ['Apply', 'autoscaling/v2', { 'f:maxReplicas': {}, 'f:scaleTargetRef': SCALE_TARGET_FIELDS }],
    });
    expect((await ts.api.get(`${V1}/move`)).body.spec.targetCPUUtilizationPercentage).toBe(80);
  });

  it('a v2-only metric dropped by its v2 applier does not come back through the v1 view', async () => {
    await apply(`${V1}/extra`, 'v1-app', v1Apply('extra', { maxReplicas: 5, targetCPUUtilizationPercentage: 70 }));
    await apply(`${V2}/extra`, 'v2-app', v2Apply('extra', { maxReplicas: 5, metrics: [cpu(70), memory] }));
    const v1 = (await ts.api.get(`${V1}/extra`)).body;
    expect(v1.spec.targetCPUUtilizationPercentage).toBe(70);
    const body = await apply(`${V2}/extra`, 'v2-app', v2Apply('extra', { maxReplicas: 5, metrics: [cpu(70)] }));
    expect(body.spec.metrics).toEqual([cpu(70)]);
    const after = (await ts.api.get(`${V1}/extra`)).body;
    expect(after.metadata.annotations ?? {}).toEqual({});
    expect(after.spec.targetCPUUtilizationPercentage).toBe(70);
  });

  it('a v1beta2 applier dropping assuredConcurrencyShares keeps the nominalConcurrencyShares a v1beta3 applier owns', async () => {
    const base = (version: string) => `/apis/flowcontrol.apiserver.orch.io/${version}/prioritylevelconfigurations`;
    const plc = (version: string, limited: Record<string, unknown>) => ({
      apiVersion: `flowcontrol.apiserver.orch.io/${version}`,
      kind: 'PriorityLevelConfiguration',
      metadata: { name: `${ns}-shares` },
      spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' }, ...limited } },
    });
    const name = `${ns}-shares`;
    await apply(`${base('v1beta2')}/${name}`, 'beta2-app', plc('v1beta2', { assuredConcurrencyShares: 7 }));
    await apply(`${base('v1beta3')}/${name}`, 'beta3-app', plc('v1beta3', { nominalConcurrencyShares: 7 }));
    const body = await apply(`${base('v1beta2')}/${name}`, 'beta2-app', plc('v1beta2', {}));
    expect(body.spec.limited.assuredConcurrencyShares).toBe(7);
    expect((await ts.api.get(`${base('v1beta3')}/${name}`)).body.spec.limited.nominalConcurrencyShares).toBe(7);
    await ts.api.delete(`${base('v1beta3')}/${name}`);
  });
});

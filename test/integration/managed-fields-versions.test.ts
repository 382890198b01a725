// managedFields of multi-version kinds: each entry is tracked and compared in its own apiVersion (HPA v1 and v2).
import { createNamespace, startTestServer, uniqueName, type TestServer } from '../helpers/test-server';
import { anHpa } from '../helpers/fixtures';

let ts: TestServer;
const ns = uniqueName('mfv');
const V1 = `/apis/autoscaling/v1/namespaces/${ns}/horizontalpodautoscalers`;
const V2 = `/apis/autoscaling/v2/namespaces/${ns}/horizontalpodautoscalers`;
const APPLY = 'application/apply-patch+yaml';

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, ns);
});
afterAll(() => ts.stop());

interface Entry {
  manager: string;
  apiVersion: string;
  fieldsV1: Record<string, Record<string, unknown>>;
}
const entry = (body: { metadata: { managedFields: Entry[] } }, manager: string): Entry | undefined =>
  body.metadata.managedFields.find((e) => e.manager === manager);

const v2Config = (name: string) => ({
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    minReplicas: 1,
    maxReplicas: 5,
    metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
  },
});
const v1Config = (name: string) => ({
  apiVersion: 'autoscaling/v1',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    maxReplicas: 6,
    targetCPUUtilizationPercentage: 50,
  },
});

describe('managedFields across autoscaling/v1 and autoscaling/v2', () => {
  it('a v1 create records the v1 fields it set (targetCPUUtilizationPercentage), not the stored v2 shape', async () => {
    const res = await ts.api.post(`${V1}?fieldManager=creator`, anHpa('created-v1'));
    expect(res.status).toBe(201);
    expect(entry(res.body, 'creator')).toMatchObject({ apiVersion: 'autoscaling/v1' });
    expect(entry(res.body, 'creator')?.fieldsV1['f:spec']).toEqual({
      'f:maxReplicas': {},
      'f:minReplicas': {},
      'f:scaleTargetRef': {},
      'f:targetCPUUtilizationPercentage': {},
    });
  });

  it('a v1 apply conflicts with a v2 applier on the fields as the v2 entry names them, and force takes them', async () => {
    expect((await ts.api.patch(`${V2}/shared?fieldManager=v2-owner`, v2Config('shared'), APPLY)).status).toBe(201);
    const refused = await ts.api.patch(`${V1}/shared?fieldManager=v1-owner`, v1Config('shared'), APPLY);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      'Apply failed with 2 conflicts: conflicts with "v2-owner":\n- .spec.maxReplicas\n- .spec.metrics',
    );

    const forced = await ts.api.patch(`${V1}/shared?fieldManager=v1-owner&force=true`, v1Config('shared'), APPLY);
    expect(forced.status).toBe(200);
    expect(entry(forced.body, 'v2-owner')?.fieldsV1['f:spec']).toEqual({
      'f:minReplicas': {},
      'f:scaleTargetRef': { 'f:apiVersion': {}, 'f:kind': {}, 'f:name': {} },
    });
    expect(entry(forced.body, 'v1-owner')).toMatchObject({
      apiVersion: 'autoscaling/v1',
      fieldsV1: { 'f:spec': { 'f:maxReplicas': {}, 'f:scaleTargetRef': {}, 'f:targetCPUUtilizationPercentage': {} } },
    });
  });

  it("a v2 merge patch of the metrics takes the v1 owner's targetCPUUtilizationPercentage", async () => {
    const patch = {
      spec: {
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 90 } } },
        ],
      },
    };
    const res = await ts.api.patch(`${V2}/shared?fieldManager=tuner`, patch, 'application/merge-patch+json');
    expect(res.status).toBe(200);
    expect(entry(res.body, 'v1-owner')?.fieldsV1['f:spec']).toEqual({ 'f:maxReplicas': {}, 'f:scaleTargetRef': {} });
    expect(entry(res.body, 'tuner')).toMatchObject({
      apiVersion: 'autoscaling/v2',
      fieldsV1: { 'f:spec': { 'f:metrics': {} } },
    });
  });
});

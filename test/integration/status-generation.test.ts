// Acceptance of 1.26 generation and /status rules over HTTP (pkg/registry/{apps/deployment,autoscaling/horizontalpodautoscaler,flowcontrol/flowschema}/strategy.go).
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment, aFlowSchema, anHpa, FLOWCONTROL } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'status-generation';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

describe('Deployment generation', () => {
  it('starts at 1 with status dropped, ignores a sent generation, and bumps on spec and annotation changes only', async () => {
    const created = await ts.api.post(
      DEPLOYMENTS,
      aDeployment('gen', { status: { replicas: 5, observedGeneration: 3 } }),
    );
    expect(created.status).toBe(201);
    expect(created.body.metadata.generation).toBe(1);
    expect(created.body.status).toEqual({});
    const patch = async (body: unknown): Promise<number> =>
      (await ts.api.patch(`${DEPLOYMENTS}/gen`, body)).body.metadata.generation;
    expect(await patch({ metadata: { labels: { extra: 'x' } } })).toBe(1);
    expect(await patch({ metadata: { generation: 100 } })).toBe(1);
    expect(await patch({ status: { replicas: 7 } })).toBe(1);
    expect(await patch({ metadata: { annotations: { note: 'a' } } })).toBe(2);
    expect(await patch({ spec: { replicas: 3 } })).toBe(3);
  });

  it('does not bump for an empty annotation map (Semantic.DeepEqual: nil equals empty)', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('empty-annotations'));
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/empty-annotations`,
      [{ op: 'add', path: '/metadata/annotations', value: {} }],
      'application/json-patch+json',
    );
    expect(res.status).toBe(200);
    expect(res.body.metadata.generation).toBe(1);
  });
});

describe('Deployment /status', () => {
  it('keeps spec and labels from storage, takes annotations and finalizers, and does not bump the generation', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('st'));
    const res = await ts.api.patch(`${DEPLOYMENTS}/st/status`, {
      metadata: { labels: { sneaky: 'yes' }, annotations: { seen: 'yes' }, finalizers: ['example.com/hold'] },
      spec: { replicas: 9 },
      status: { replicas: 7 },
    });
    expect(res.status).toBe(200);
    expect(res.body.metadata.labels).toEqual({ app: 'st' });
    expect(res.body.metadata.annotations).toEqual({ seen: 'yes' });
    expect(res.body.metadata.finalizers).toEqual(['example.com/hold']);
    expect(res.body.metadata.generation).toBe(1);
    expect(res.body.spec.replicas).toBe(1);
    expect(res.body.status).toEqual({ replicas: 7 });
    // The main resource keeps the stored status on its own updates.
    const main = await ts.api.patch(`${DEPLOYMENTS}/st`, {
      metadata: { finalizers: null },
      spec: { replicas: 2 },
      status: { replicas: 0 },
    });
    expect(main.body.status).toEqual({ replicas: 7 });
    expect(main.body.metadata.generation).toBe(2);
  });
});

describe('HorizontalPodAutoscaler (1.26: no generation tracking)', () => {
  it('sets no generation and keeps spec on /status while taking labels', async () => {
    const base = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;
    const created = await ts.api.post(base, { ...anHpa('h'), status: { currentReplicas: 4, desiredReplicas: 2 } });
    expect(created.status).toBe(201);
    expect(created.body.metadata.generation).toBeUndefined();
    expect(created.body.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
    const updated = await ts.api.patch(`${base}/h`, { spec: { maxReplicas: 5 } });
    expect(updated.body.metadata.generation).toBeUndefined();
    const status = await ts.api.patch(`${base}/h/status`, {
      metadata: { labels: { l: '1' } },
      spec: { maxReplicas: 9 },
      status: { currentReplicas: 3, desiredReplicas: 1 },
    });
    expect(status.status).toBe(200);
    expect(status.body.metadata.labels).toEqual({ l: '1' });
    expect(status.body.spec.maxReplicas).toBe(5);
    expect(status.body.status).toEqual({ currentReplicas: 3, desiredReplicas: 1 });
  });
});

describe('FlowSchema /status', () => {
  it('resets all of metadata and spec, and only spec changes bump the generation', async () => {
    const created = await ts.api.post(`${FLOWCONTROL}/flowschemas`, {
      ...aFlowSchema('sg'),
      status: { conditions: [{ type: 'X', status: 'True' }] },
    });
    expect(created.status).toBe(201);
    expect(created.body.metadata.generation).toBe(1);
    expect(created.body.status).toEqual({});
    const status = await ts.api.patch(`${FLOWCONTROL}/flowschemas/sg/status`, {
      metadata: { labels: { l: '1' }, annotations: { a: '1' } },
      spec: { matchingPrecedence: 7 },
      status: { conditions: [{ type: 'X', status: 'True' }] },
    });
    expect(status.status).toBe(200);
    expect(status.body.metadata.labels).toBeUndefined();
    expect(status.body.metadata.annotations).toBeUndefined();
    expect(status.body.spec.matchingPrecedence).toBe(500);
    expect(status.body.status.conditions[0]).toMatchObject({ type: 'X', status: 'True' });
    const labelled = await ts.api.patch(`${FLOWCONTROL}/flowschemas/sg`, { metadata: { labels: { l: '1' } } });
    expect(labelled.body.metadata.generation).toBe(1);
    const respec = await ts.api.patch(`${FLOWCONTROL}/flowschemas/sg`, { spec: { matchingPrecedence: 501 } });
    expect(respec.body.metadata.generation).toBe(2);
  });
});

// Persisted versions: HorizontalPodAutoscalers still held in etcd as autoscaling/v1 (the former storage version) read, list, watch and update in both versions, and move to v2 when written.
import type { Etcd3 } from 'etcd3';
import { encodeObject } from '../../lib/storage/etcd/codec';
import {
  eventually,
  type TestServer,
  startServerWithEtcdClient,
  stopServerWithEtcdClient,
} from '../helpers/test-server';
import { openWatch } from '../helpers/watch-client';

const NS = 'persisted';
const KEY_PREFIX = `/registry/autoscaling/horizontalpodautoscalers/${NS}/`;
const base = (version: string): string => `/apis/autoscaling/${version}/namespaces/${NS}/horizontalpodautoscalers`;
let ts: TestServer;
let etcd: Etcd3;

beforeAll(async () => ({ ts, etcd } = await startServerWithEtcdClient(NS)));
afterAll(() => stopServerWithEtcdClient(ts, etcd));

const PODS_METRIC_V1 = { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } };
const PODS_METRIC_V2 = {
  type: 'Pods',
  pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
};
const cpuMetric = (n: number): Record<string, unknown> => ({
  type: 'Resource',
  resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: n } },
});
const BEHAVIOR_V2 = {
  scaleUp: {
    stabilizationWindowSeconds: 0,
    selectPolicy: 'Min',
    policies: [{ type: 'Pods', value: 2, periodSeconds: 30 }],
  },
};

/** What an earlier server (autoscaling/v1 storage) wrote: v2-only data in the round-trip annotations. */
function legacyV1(name: string): Record<string, any> {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: {
      name,
      namespace: NS,
      uid: `00000000-0000-4000-8000-${name.padStart(12, '0').slice(-12)}`,
      creationTimestamp: '2024-01-02T03:04:05Z',
      labels: { app: 'legacy' },
      annotations: {
        keep: 'me',
        'autoscaling.alpha.orch.io/metrics': JSON.stringify([PODS_METRIC_V1]),
        'autoscaling.alpha.orch.io/behavior': JSON.stringify({
          ScaleUp: {
            StabilizationWindowSeconds: 0,
            SelectPolicy: 'Min',
            Policies: [{ Type: 'Pods', Value: 2, PeriodSeconds: 30 }],
          },
          ScaleDown: null,
        }),
      },
    },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 6,
      targetCPUUtilizationPercentage: 70,
    },
    status: { currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 55 },
  };
}

async function putLegacy(name: string): Promise<void> {
  await etcd.put(KEY_PREFIX + name).value(encodeObject(legacyV1(name) as Parameters<typeof encodeObject>[0]));
}

async function storedJson(name: string): Promise<Record<string, any>> {
  return JSON.parse((await etcd.get(KEY_PREFIX + name).string()) ?? 'null');
}

describe('HorizontalPodAutoscalers stored as autoscaling/v1', () => {
  it('read through v1 as stored and through v2 converted, annotations consumed', async () => {
    await putLegacy('read');
    const v1 = await ts.api.get(`${base('v1')}/read`);
    expect(v1.status).toBe(200);
    expect(v1.body).toMatchObject({
      apiVersion: 'autoscaling/v1',
      spec: legacyV1('read').spec,
      status: legacyV1('read').status,
    });
    expect(JSON.parse(v1.body.metadata.annotations['autoscaling.alpha.orch.io/metrics'])).toEqual([PODS_METRIC_V1]);
    const v2 = await ts.api.get(`${base('v2')}/read`);
    expect(v2.status).toBe(200);
    expect(v2.body.apiVersion).toBe('autoscaling/v2');
    expect(v2.body.spec).toEqual({
      scaleTargetRef: legacyV1('read').spec.scaleTargetRef,
      minReplicas: 2,
      maxReplicas: 6,
      metrics: [PODS_METRIC_V2, cpuMetric(70)],
      behavior: BEHAVIOR_V2,
    });
    expect(v2.body.status).toEqual({
      currentReplicas: 3,
      desiredReplicas: 4,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 55 } } }],
    });
    expect(v2.body.metadata.annotations).toEqual({ keep: 'me' });
    expect(v2.body.metadata.resourceVersion).toBe(v1.body.metadata.resourceVersion);
  });

  it('lists a mix of v1- and v2-stored objects in each version, as JSON and as Table', async () => {
    await putLegacy('listed');
    const fresh = await ts.api.post(base('v2'), {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'fresh' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, metrics: [PODS_METRIC_V2] },
    });
    expect(fresh.status).toBe(201);
    expect((await storedJson('fresh')).apiVersion).toBe('autoscaling/v2');
    const item = (list: any, name: string): any => list.body.items.find((i: any) => i.metadata.name === name);
    const v2List = await ts.api.get(base('v2'));
    expect(v2List.body.apiVersion).toBe('autoscaling/v2');
    expect(item(v2List, 'listed').spec.metrics).toEqual([PODS_METRIC_V2, cpuMetric(70)]);
    expect(item(v2List, 'fresh').spec.metrics).toEqual([PODS_METRIC_V2]);
    const v1List = await ts.api.get(base('v1'));
    expect(v1List.body.apiVersion).toBe('autoscaling/v1');
    expect(item(v1List, 'listed').spec.targetCPUUtilizationPercentage).toBe(70);
    expect(item(v1List, 'fresh').spec.targetCPUUtilizationPercentage).toBeUndefined();
    expect(JSON.parse(item(v1List, 'fresh').metadata.annotations['autoscaling.alpha.orch.io/metrics'])).toEqual([
      PODS_METRIC_V1,
    ]);
    for (const version of ['v1', 'v2']) {
      const table = await ts.api.get(`${base(version)}/listed`, {
        Accept: 'application/json;as=Table;g=meta.orch.io;v=v1',
      });
      expect(table.status).toBe(200);
      expect(table.body.rows[0].cells).toEqual([
        'listed',
        'Deployment/web',
        '<unknown>/10, <unknown>/70%',
        '2',
        6,
        3,
        expect.any(String),
      ]);
    }
  });

  it.each([
    ['labelSelector', 'labelSelector=app%3Dlegacy'],
    ['resourceVersion=0 (watch cache)', 'resourceVersion=0'],
  ])('lists answered from decoded items (%s) convert each item to the request version', async (_name, query) => {
    const name = `selected-${query.length}`;
    await putLegacy(name);
    const listed = async (): Promise<any> =>
      (await ts.api.get(`${base('v2')}?${query}`)).body.items.find((i: any) => i.metadata.name === name);
    await eventually(async () => (await listed()) !== undefined, 5_000, 'the watch cache to hold the object');
    expect((await listed()).spec.metrics).toEqual([PODS_METRIC_V2, cpuMetric(70)]);
    const v1 = await ts.api.get(`${base('v1')}?${query}`, { Accept: 'application/yaml' });
    expect(v1.text).toContain('targetCPUUtilizationPercentage: 70');
  });

  it('watches in both versions see an object written to etcd as v1', async () => {
    const from = (await ts.api.get(base('v2'))).body.metadata.resourceVersion;
    const v1Watch = await openWatch(ts.url, `${base('v1')}?watch=1&resourceVersion=${from}`);
    const v2Watch = await openWatch(ts.url, `${base('v2')}?watch=1&resourceVersion=${from}`);
    try {
      await putLegacy('watched');
      const [[v1Event], [v2Event]] = await Promise.all([v1Watch.next(1), v2Watch.next(1)]);
      expect(v1Event).toMatchObject({
        type: 'ADDED',
        object: { apiVersion: 'autoscaling/v1', spec: { targetCPUUtilizationPercentage: 70 } },
      });
      expect(v2Event).toMatchObject({
        type: 'ADDED',
        object: {
          apiVersion: 'autoscaling/v2',
          spec: { metrics: [PODS_METRIC_V2, cpuMetric(70)], behavior: BEHAVIOR_V2 },
        },
      });
      expect(v2Event?.object.metadata.annotations).toEqual({ keep: 'me' });
    } finally {
      v1Watch.close();
      v2Watch.close();
    }
  });

  it('an update through v2 keeps the stored status and leaves etcd holding autoscaling/v2', async () => {
    await putLegacy('upd2');
    const current = await ts.api.get(`${base('v2')}/upd2`);
    current.body.spec.maxReplicas = 8;
    const updated = await ts.api.put(`${base('v2')}/upd2`, current.body);
    expect(updated.status).toBe(200);
    expect(updated.body.status).toEqual(current.body.status);
    const stored = await storedJson('upd2');
    expect(stored.apiVersion).toBe('autoscaling/v2');
    expect(stored.metadata.annotations).toEqual({ keep: 'me' });
    expect(stored.metadata.uid).toBe(legacyV1('upd2').metadata.uid);
    // v2 defaults fill the scaleDown rules the v1 annotation did not carry.
    expect(stored.spec).toEqual({
      ...current.body.spec,
      maxReplicas: 8,
      behavior: {
        ...BEHAVIOR_V2,
        scaleDown: { selectPolicy: 'Max', policies: [{ type: 'Percent', value: 100, periodSeconds: 15 }] },
      },
    });
    expect(stored.status.currentMetrics).toEqual(current.body.status.currentMetrics);
  });

  it('an update through v1 (GET, edit, PUT back) keeps the v2-only data and leaves etcd holding autoscaling/v2', async () => {
    await putLegacy('upd1');
    const current = await ts.api.get(`${base('v1')}/upd1`);
    current.body.spec.targetCPUUtilizationPercentage = 65;
    const updated = await ts.api.put(`${base('v1')}/upd1`, current.body);
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({
      apiVersion: 'autoscaling/v1',
      spec: { targetCPUUtilizationPercentage: 65 },
      status: { currentReplicas: 3, currentCPUUtilizationPercentage: 55 },
    });
    const stored = await storedJson('upd1');
    expect(stored.apiVersion).toBe('autoscaling/v2');
    expect(stored.spec.metrics).toEqual([PODS_METRIC_V2, cpuMetric(65)]);
    expect(stored.spec.behavior.scaleUp).toEqual(BEHAVIOR_V2.scaleUp);
    expect(stored.metadata.annotations).toEqual({ keep: 'me' });
  });

  it('a merge patch through v1 and a delete work on a v1-stored object', async () => {
    await putLegacy('patched');
    const patched = await ts.api.patch(
      `${base('v1')}/patched`,
      { spec: { maxReplicas: 7 } },
      'application/merge-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(patched.body.spec).toMatchObject({ maxReplicas: 7, targetCPUUtilizationPercentage: 70 });
    expect((await storedJson('patched')).spec.metrics).toEqual([PODS_METRIC_V2, cpuMetric(70)]);
    await putLegacy('deleted');
    expect((await ts.api.delete(`${base('v2')}/deleted`)).status).toBe(200);
    expect((await ts.api.get(`${base('v1')}/deleted`)).status).toBe(404);
  });

  it.each(['v1', 'v2'])('a status write through %s keeps the spec and stores v2', async (version) => {
    const name = `status-${version}`;
    await putLegacy(name);
    const current = await ts.api.get(`${base(version)}/${name}`);
    current.body.status.desiredReplicas = 5;
    current.body.spec.maxReplicas = 99;
    const written = await ts.api.put(`${base(version)}/${name}/status`, current.body);
    expect(written.status).toBe(200);
    expect(written.body.status.desiredReplicas).toBe(5);
    expect(written.body.spec.maxReplicas).toBe(6);
    const stored = await storedJson(name);
    expect(stored.apiVersion).toBe('autoscaling/v2');
    expect(stored.spec.metrics).toEqual([PODS_METRIC_V2, cpuMetric(70)]);
    expect(stored.spec.behavior).toEqual(BEHAVIOR_V2);
    expect(stored.status.desiredReplicas).toBe(5);
  });
});

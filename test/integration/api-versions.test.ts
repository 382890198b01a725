// Several versions of one resource: conversion over HTTP, deprecation warnings/gauge/audit, removed versions, --runtime-config.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { aPriorityLevel } from '../helpers/fixtures';
import { openWatch } from '../helpers/watch-client';

const FC = '/apis/flowcontrol.apiserver.orch.io';
const NS = 'versions';
const auditPath = join(mkdtempSync(join(tmpdir(), 'audit-')), 'audit.log');
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer([`--audit-log-path=${auditPath}`]);
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

const hpaV2 = {
  apiVersion: 'autoscaling/v2',
  kind: 'HorizontalPodAutoscaler',
  metadata: { name: 'multi' },
  spec: {
    scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    maxReplicas: 5,
    metrics: [
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 60 } } },
    ],
    behavior: { scaleDown: { stabilizationWindowSeconds: 120 } },
  },
};

describe('autoscaling/v1 and autoscaling/v2', () => {
  it('creates in v2, reads and updates in v1, and reads v2 back without loss', async () => {
    const created = await ts.api.post(`/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`, hpaV2);
    expect(created.status).toBe(201);
    expect(created.body.apiVersion).toBe('autoscaling/v2');
    expect(created.body.spec.behavior.scaleUp).toEqual({
      stabilizationWindowSeconds: 0,
      selectPolicy: 'Max',
      policies: [
        { type: 'Pods', value: 4, periodSeconds: 15 },
        { type: 'Percent', value: 100, periodSeconds: 15 },
      ],
    });
    const v1 = await ts.api.get(`/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers/multi`);
    expect(v1.body.apiVersion).toBe('autoscaling/v1');
    expect(v1.body.spec.targetCPUUtilizationPercentage).toBe(60);
    expect(JSON.parse(v1.body.metadata.annotations['autoscaling.alpha.orch.io/metrics'])).toEqual([
      { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } },
    ]);
    v1.body.spec.maxReplicas = 9;
    const updated = await ts.api.put(`/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers/multi`, v1.body);
    expect(updated.status).toBe(200);
    const back = await ts.api.get(`/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers/multi`);
    expect(back.body.spec.maxReplicas).toBe(9);
    expect(back.body.spec.metrics).toEqual(hpaV2.spec.metrics);
    expect(back.body.spec.behavior).toEqual(created.body.spec.behavior);
    expect(back.body.metadata.annotations).toBeUndefined();
  });

  it('watches in each version: one change, each stream in its own form (served from the shared watch cache)', async () => {
    const base = (v: string): string => `/apis/autoscaling/${v}/namespaces/${NS}/horizontalpodautoscalers`;
    const from = (await ts.api.get(base('v2'))).body.metadata.resourceVersion;
    const v1Watch = await openWatch(ts.url, `${base('v1')}?watch=1&resourceVersion=${from}`);
    const v2Watch = await openWatch(ts.url, `${base('v2')}?watch=1&resourceVersion=${from}`);
    await ts.api.post(base('v2'), { ...hpaV2, metadata: { name: 'watched' } });
    const [[v1Event], [v2Event]] = await Promise.all([v1Watch.next(1), v2Watch.next(1)]);
    expect(v1Event).toMatchObject({
      type: 'ADDED',
      object: {
        apiVersion: 'autoscaling/v1',
        kind: 'HorizontalPodAutoscaler',
        spec: { targetCPUUtilizationPercentage: 60 },
      },
    });
    expect(v2Event).toMatchObject({
      type: 'ADDED',
      object: { apiVersion: 'autoscaling/v2', spec: { metrics: hpaV2.spec.metrics } },
    });
    expect(v1Event?.object.metadata.resourceVersion).toBe(v2Event?.object.metadata.resourceVersion);
    v1Watch.close();
    v2Watch.close();
  });

  it('validates the stored (v2) form: a v1 request reports internal field paths, a v2 request its own', async () => {
    const v1Bad = await ts.api.post(`/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`, {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'bad' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, targetCPUUtilizationPercentage: 0 },
    });
    expect(v1Bad.status).toBe(422);
    expect(v1Bad.body.message).toBe(
      'HorizontalPodAutoscaler.autoscaling "bad" is invalid: spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    );
    const v2Bad = await ts.api.post(`/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`, {
      ...hpaV2,
      metadata: { name: 'bad' },
      spec: { ...hpaV2.spec, behavior: { scaleUp: { stabilizationWindowSeconds: 3601 } } },
    });
    expect(v2Bad.status).toBe(422);
    expect(v2Bad.body.details.causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: 'spec.behavior.scaleUp.stabilizationWindowSeconds',
        message: 'Invalid value: 3601: must be less than or equal to 3600',
      },
    ]);
  });

  it.each(['v1', 'v2'])('writes status through %s, keeping the spec', async (version) => {
    const name = `status-${version}`;
    await ts.api.post(`/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`, {
      ...hpaV2,
      metadata: { name },
    });
    const path = `/apis/autoscaling/${version}/namespaces/${NS}/horizontalpodautoscalers/${name}`;
    const current = await ts.api.get(path);
    current.body.status.desiredReplicas = 4;
    current.body.spec.maxReplicas = 50;
    const written = await ts.api.put(`${path}/status`, current.body);
    expect(written.status).toBe(200);
    expect(written.body).toMatchObject({
      apiVersion: `autoscaling/${version}`,
      spec: { maxReplicas: 5 },
      status: { desiredReplicas: 4 },
    });
    const v2 = await ts.api.get(`/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers/${name}`);
    expect(v2.body.spec.metrics).toEqual(hpaV2.spec.metrics);
    expect(v2.body.status.desiredReplicas).toBe(4);
  });

  it('lists each version in its own form and prefers v2 in discovery', async () => {
    const list = await ts.api.get(`/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers`);
    expect(list.body.apiVersion).toBe('autoscaling/v2');
    expect(list.body.items[0].spec.metrics).toHaveLength(2);
    const group = await ts.api.get('/apis/autoscaling');
    expect(group.body.preferredVersion).toEqual({ groupVersion: 'autoscaling/v2', version: 'v2' });
    const v1 = await ts.api.get('/apis/autoscaling/v1');
    const v2 = await ts.api.get('/apis/autoscaling/v2');
    const hash = (doc: { resources: { name: string; storageVersionHash?: string }[] }): string | undefined =>
      doc.resources.find((r) => r.name === 'horizontalpodautoscalers')?.storageVersionHash;
    expect(hash(v1.body)).toBe(hash(v2.body));
  });
});

describe('flowcontrol v1beta2 (deprecated)', () => {
  it('serves v1beta3 objects as v1beta2 with assuredConcurrencyShares, with the deprecation warning, gauge and audit annotations', async () => {
    await ts.api.post(`${FC}/v1beta3/prioritylevelconfigurations`, aPriorityLevel('conv-pl'));
    const res = await ts.api.get(`${FC}/v1beta2/prioritylevelconfigurations/conv-pl`);
    expect(res.status).toBe(200);
    expect(res.body.spec.limited).toMatchObject({ assuredConcurrencyShares: 10 });
    expect(res.body.spec.limited.nominalConcurrencyShares).toBeUndefined();
    expect(res.headers.get('warning')).toBe(
      '299 - "flowcontrol.apiserver.orch.io/v1beta2 PriorityLevelConfiguration is deprecated in v1.26+, unavailable in v1.29+; use flowcontrol.apiserver.orch.io/v1beta3 PriorityLevelConfiguration"',
    );
    const auditId = res.headers.get('audit-id');
    expect(auditId).toMatch(/^[0-9a-f-]{36}$/);
    const metrics = await ts.api.get('/metrics');
    expect(metrics.text).toContain(
      'apiserver_requested_deprecated_apis{group="flowcontrol.apiserver.orch.io",version="v1beta2",resource="prioritylevelconfigurations",subresource="",removed_release="1.29"} 1',
    );
    let line: Record<string, any> | undefined;
    await eventually(
      async () => {
        line = readFileSync(auditPath, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l))
          .find((e) => e.auditID === auditId);
        return line !== undefined;
      },
      5000,
      'audit line',
    );
    expect(line).toMatchObject({
      kind: 'Event',
      apiVersion: 'audit.orch.io/v1',
      level: 'Metadata',
      stage: 'ResponseComplete',
      verb: 'get',
      requestURI: `${FC}/v1beta2/prioritylevelconfigurations/conv-pl`,
      user: { username: 'system:anonymous', groups: ['system:unauthenticated'] },
      objectRef: {
        resource: 'prioritylevelconfigurations',
        name: 'conv-pl',
        apiGroup: 'flowcontrol.apiserver.orch.io',
        apiVersion: 'v1beta2',
      },
      responseStatus: { metadata: {}, code: 200 },
      annotations: { 'orch.io/deprecated': 'true', 'orch.io/removed-release': '1.29' },
    });
    expect(line?.['stageTimestamp']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });

  it('writes through v1beta2 and reads the value back as v1beta3 nominalConcurrencyShares', async () => {
    const body = {
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta2',
      kind: 'PriorityLevelConfiguration',
      metadata: { name: 'b2-pl' },
      spec: { type: 'Limited', limited: { assuredConcurrencyShares: 7, limitResponse: { type: 'Reject' } } },
    };
    const created = await ts.api.post(`${FC}/v1beta2/prioritylevelconfigurations`, body);
    expect(created.status).toBe(201);
    expect(created.body.spec.limited).toEqual({
      assuredConcurrencyShares: 7,
      lendablePercent: 0,
      limitResponse: { type: 'Reject' },
    });
    const v1beta3 = await ts.api.get(`${FC}/v1beta3/prioritylevelconfigurations/b2-pl`);
    expect(v1beta3.body.spec.limited.nominalConcurrencyShares).toBe(7);
    expect(v1beta3.headers.get('warning')).toBeNull();
    const list = await ts.api.get(`${FC}/v1beta2/prioritylevelconfigurations`);
    expect(list.headers.get('warning')).toContain('is deprecated in v1.26+');
    expect(
      list.body.items.find((i: { metadata: { name: string } }) => i.metadata.name === 'b2-pl').spec.limited
        .assuredConcurrencyShares,
    ).toBe(7);
  });
});

describe('removed versions', () => {
  it.each([
    '/apis/autoscaling/v2beta1',
    '/apis/autoscaling/v2beta2',
    `${FC}/v1beta1`,
    '/apis/apps/v1beta1',
    '/apis/apps/v1beta2',
    '/apis/extensions/v1beta1',
  ])('%s answers 404', async (path) => {
    expect((await ts.api.get(path)).status).toBe(404);
    expect((await ts.api.get(`${path}/namespaces/${NS}/deployments`)).status).toBe(404);
  });
});

describe('--runtime-config', () => {
  let disabled: TestServer;
  beforeAll(async () => {
    disabled = await startTestServer([
      `--runtime-config=flowcontrol.apiserver.orch.io/v1beta2=false,autoscaling/v1=false`,
    ]);
  });
  afterAll(() => disabled.stop());

  it('drops a disabled version from discovery and 404s its paths, while the data stays reachable in the others', async () => {
    const group = await disabled.api.get(FC);
    expect(group.body.versions.map((v: { version: string }) => v.version)).toEqual(['v1beta3']);
    expect((await disabled.api.get(`${FC}/v1beta2/prioritylevelconfigurations`)).status).toBe(404);
    expect((await disabled.api.get(`${FC}/v1beta3/prioritylevelconfigurations/global-default`)).status).toBe(200);
    const created = await disabled.api.post(`/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers`, hpaV2);
    expect(created.status).toBe(201);
    expect(
      (await disabled.api.get('/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/multi')).status,
    ).toBe(404);
    expect((await disabled.api.get('/apis/autoscaling')).body.versions).toEqual([
      { groupVersion: 'autoscaling/v2', version: 'v2' },
    ]);
  });
});

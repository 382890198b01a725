// Events: core v1 and events.orch.io/v1 (and its events.k8s.io name) over one storage, converted as Kubernetes does.
import { startTestServer, createNamespace, uniqueName, eventually, type TestServer } from '../helpers/test-server';

let ts: TestServer;
let ns: string;
beforeAll(async () => {
  ts = await startTestServer();
  ns = uniqueName('events');
  await createNamespace(ts.api, ns);
});
afterAll(() => ts.stop());

const now = (): string => new Date().toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

function v1Event(name: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name },
    eventTime: now(),
    type: 'Normal',
    reason: 'Scaled',
    action: 'Scale',
    note: 'scaled up to 3',
    reportingController: 'example.com/scaler',
    reportingInstance: 'scaler-1',
    regarding: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: ns, uid: 'uid-web' },
    ...extra,
  };
}

describe('events', () => {
  it('an event created through events.k8s.io/v1 is a core v1 event with the core field names', async () => {
    const created = await ts.api.post(`/apis/events.k8s.io/v1/namespaces/${ns}/events`, v1Event('e1'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      note: 'scaled up to 3',
      reportingController: 'example.com/scaler',
      regarding: { name: 'web' },
    });
    const core = await ts.api.get(`/api/v1/namespaces/${ns}/events/e1`);
    expect(core.status).toBe(200);
    expect(core.body).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      message: 'scaled up to 3',
      reportingComponent: 'example.com/scaler',
      reportingInstance: 'scaler-1',
      involvedObject: { kind: 'Deployment', name: 'web', uid: 'uid-web' },
      firstTimestamp: null,
      lastTimestamp: null,
      source: {},
    });
    expect(core.body.note).toBeUndefined();
    const orch = await ts.api.get(`/apis/events.orch.io/v1/namespaces/${ns}/events/e1`);
    expect(orch.body.metadata.resourceVersion).toBe(core.body.metadata.resourceVersion);
  });

  it('a core v1 event reads back through events.orch.io/v1 with deprecated fields', async () => {
    const res = await ts.api.post(`/api/v1/namespaces/${ns}/events`, {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'legacy' },
      involvedObject: { kind: 'Deployment', name: 'web', namespace: ns },
      reason: 'Old',
      message: 'legacy event',
      type: 'Warning',
      source: { component: 'kubelet', host: 'node-1' },
      count: 4,
      firstTimestamp: '2024-01-01T00:00:00Z',
      lastTimestamp: '2024-01-02T00:00:00Z',
    });
    expect(res.status).toBe(201);
    const v1 = await ts.api.get(`/apis/events.orch.io/v1/namespaces/${ns}/events/legacy`);
    expect(v1.body).toMatchObject({
      note: 'legacy event',
      deprecatedCount: 4,
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2024-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2024-01-02T00:00:00Z',
      regarding: { name: 'web' },
    });
  });

  it('validates events.orch.io/v1 writes strictly and core writes by the legacy rules', async () => {
    const bad = await ts.api.post(
      `/apis/events.orch.io/v1/namespaces/${ns}/events`,
      v1Event('bad', { type: 'Info', deprecatedCount: 2, action: '', reportingController: undefined }),
    );
    expect(bad.status).toBe(422);
    // As in Kubernetes, an empty reportingController is also reported by the qualified-name check.
    expect(bad.body.message).toMatch(
      /^Event\.events\.orch\.io "bad" is invalid: \[reportingController: Required value, reportingController: Invalid value: "": name part must be non-empty, .*action: Required value, type: Invalid value: "": has invalid value: Info, count: Invalid value: "": needs to be unset\]$/,
    );
    const noTime = await ts.api.post(
      `/apis/events.orch.io/v1/namespaces/${ns}/events`,
      v1Event('no-time', { eventTime: undefined }),
    );
    expect(noTime.status).toBe(422);
    expect(noTime.body.message).toContain('eventTime: Required value');
    const mismatch = await ts.api.post(`/api/v1/namespaces/${ns}/events`, {
      metadata: { name: 'mismatch' },
      involvedObject: { namespace: 'other' },
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.message).toBe(
      'Event "mismatch" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace',
    );
    const series = await ts.api.post(
      `/apis/events.orch.io/v1/namespaces/${ns}/events`,
      v1Event('series', { series: { count: 1 } }),
    );
    expect(series.body.message).toContain(
      'series.count: Invalid value: "": should be at least 2, series.lastObservedTime: Required value',
    );
  });

  it('events.orch.io/v1 updates keep the immutable fields', async () => {
    await ts.api.post(`/apis/events.orch.io/v1/namespaces/${ns}/events`, v1Event('imm'));
    const current = (await ts.api.get(`/apis/events.orch.io/v1/namespaces/${ns}/events/imm`)).body;
    const res = await ts.api.put(`/apis/events.orch.io/v1/namespaces/${ns}/events/imm`, {
      ...current,
      reason: 'Other',
      series: { count: 2, lastObservedTime: now() },
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'Event.events.orch.io "imm" is invalid: reason: Invalid value: "Other": field is immutable',
    );
    const ok = await ts.api.put(`/apis/events.orch.io/v1/namespaces/${ns}/events/imm`, {
      ...current,
      series: { count: 2, lastObservedTime: now() },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.series.count).toBe(2);
  });

  it('selects by the field labels of each API', async () => {
    await ts.api.post(
      `/apis/events.orch.io/v1/namespaces/${ns}/events`,
      v1Event('other-object', {
        regarding: { kind: 'Namespace', name: ns, uid: 'uid-ns', namespace: ns },
        type: 'Warning',
      }),
    );
    const names = (res: { body: { items: { metadata: { name: string } }[] } }): string[] =>
      res.body.items.map((e) => e.metadata.name).sort();
    const core = await ts.api.get(
      `/api/v1/namespaces/${ns}/events?fieldSelector=${encodeURIComponent('involvedObject.uid=uid-ns')}`,
    );
    expect(names(core)).toEqual(['other-object']);
    const byType = await ts.api.get(
      `/api/v1/namespaces/${ns}/events?fieldSelector=${encodeURIComponent('type=Warning,source=kubelet')}`,
    );
    expect(names(byType)).toEqual(['legacy']);
    const v1 = await ts.api.get(
      `/apis/events.k8s.io/v1/namespaces/${ns}/events?fieldSelector=${encodeURIComponent('regarding.kind=Namespace,reportingController=example.com/scaler')}`,
    );
    expect(names(v1)).toEqual(['other-object']);
    const unsupported = await ts.api.get(
      `/apis/events.orch.io/v1/namespaces/${ns}/events?fieldSelector=involvedObject.uid%3Dx`,
    );
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.message).toContain('involvedObject.uid');
  });

  it('prints the columns kubectl shows', async () => {
    const table = await ts.api.get(`/api/v1/namespaces/${ns}/events/legacy`, {
      Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io',
    });
    expect(table.body.columnDefinitions.map((c: { name: string }) => c.name)).toEqual([
      'Last Seen',
      'Type',
      'Reason',
      'Object',
      'Subobject',
      'Source',
      'Message',
      'First Seen',
      'Count',
      'Name',
    ]);
    expect(table.body.rows[0].cells.slice(1)).toEqual([
      'Warning',
      'Old',
      'deployment/web',
      '',
      'kubelet, node-1',
      'legacy event',
      expect.any(String),
      4,
      'legacy',
    ]);
  });

  it('is listed in discovery under events.k8s.io and then events.orch.io, with the same resources', async () => {
    const groups = (await ts.api.get('/apis')).body.groups.map((g: { name: string }) => g.name);
    expect(groups.indexOf('events.k8s.io')).toBe(groups.indexOf('events.orch.io') - 1);
    const k8s = (await ts.api.get('/apis/events.k8s.io/v1')).body;
    expect(k8s.groupVersion).toBe('events.k8s.io/v1');
    expect(k8s.resources.map((r: { name: string }) => r.name)).toEqual(['events']);
    const core = (await ts.api.get('/api/v1')).body.resources.map((r: { name: string }) => r.name);
    expect(core).toContain('events');
  });
});

describe("the server's event recorder", () => {
  it('records an occurrence as an events.k8s.io/v1-style event and a repeat as a series of 2', async () => {
    const { EventRecorder } = await import('../../lib/registry/core/events/recorder');
    const pino = (await import('pino')).default;
    const store = ts.server.registry.lookup('events.orch.io', 'v1', 'events')?.store;
    if (!store) throw new Error('events.orch.io/v1 is not served');
    const recorder = new EventRecorder(store, 'test-controller', pino({ level: 'silent' }), 'test-manager');
    const regarding = { apiVersion: 'apps/v1', kind: 'Deployment', name: 'rec', namespace: ns, uid: 'uid-rec' };
    try {
      recorder.record(regarding, 'Warning', 'Failed', 'Sync', 'it failed');
      const find = async (): Promise<any[]> =>
        (await ts.api.get(`/apis/events.orch.io/v1/namespaces/${ns}/events?fieldSelector=regarding.uid%3Duid-rec`)).body
          .items;
      await eventually(async () => (await find()).length === 1, 5000, 'the event');
      const [event] = await find();
      expect(event).toMatchObject({
        reportingController: 'test-controller',
        reason: 'Failed',
        action: 'Sync',
        note: 'it failed',
        type: 'Warning',
      });
      expect(event.reportingInstance).toMatch(/^test-controller-/);
      expect(event.metadata.name).toMatch(/^rec\.[0-9a-f]+$/);
      expect(event.series).toBeUndefined();
      recorder.record(regarding, 'Warning', 'Failed', 'Sync', 'it failed again');
      await eventually(async () => (await find())[0]?.series?.count === 2, 5000, 'the series');
      expect(await find()).toHaveLength(1);
    } finally {
      recorder.stop();
    }
  });
});

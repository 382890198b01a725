// Protobuf for the events and webhook configuration kinds: create from a protobuf body (under the k8s.io and the
// orch group names), then GET and LIST in protobuf decode (with the independent test decoder) to the JSON form.
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { decodeProtobufJson } from '../helpers/protobuf-decoder';
import { withoutNullsAndEmptyObjects } from '../helpers/protobuf-compare';
import { encodeProtobufResponse } from '../../lib/apimachinery/serializers/protobuf';

const PROTOBUF = 'application/vnd.orch.protobuf';
const ALIAS = 'application/vnd.kubernetes.protobuf';
const NS = 'proto-events';
const EVENTS = `/apis/events.k8s.io/v1/namespaces/${NS}/events`;
const CORE_EVENTS = `/api/v1/namespaces/${NS}/events`;
const VWCS = '/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations';
const MWCS = '/apis/admissionregistration.orch.io/v1/mutatingwebhookconfigurations';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

async function send(
  path: string,
  method: string,
  accept: string,
  body?: Buffer,
): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  const headers: Record<string, string> = { Accept: accept, ...(body ? { 'Content-Type': ALIAS } : {}) };
  const res = await fetch(ts.url + path, { method, headers, ...(body ? { body } : {}) });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

function protobufBody(object: Record<string, unknown>): Buffer {
  const bytes = encodeProtobufResponse(object);
  if (!bytes) throw new Error(`no protobuf message for ${String(object['apiVersion'])} ${String(object['kind'])}`);
  return Buffer.from(bytes);
}

/** A list's own resourceVersion moves with any write in the cluster (the server records events); items are compared whole. */
function withoutListVersion(body: Record<string, unknown>): Record<string, unknown> {
  return Array.isArray(body['items']) ? { ...body, metadata: {} } : body;
}

/** GET in protobuf only (no JSON fallback) decodes to what GET in JSON returns. */
async function expectProtobufEqualsJson(path: string): Promise<Record<string, unknown>> {
  const proto = await send(path, 'GET', PROTOBUF);
  expect([path, proto.status, proto.contentType]).toEqual([path, 200, PROTOBUF]);
  const json = (await ts.api.get(path)).body as Record<string, unknown>;
  const decoded = decodeProtobufJson(proto.bytes);
  expect(withoutNullsAndEmptyObjects(withoutListVersion(decoded))).toEqual(
    withoutNullsAndEmptyObjects(withoutListVersion(json)),
  );
  return decoded;
}

const eventTime = '2026-01-02T03:04:05.123456Z';
const anEvent = (name: string): Record<string, unknown> => ({
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name, labels: { source: 'proto' } },
  eventTime,
  type: 'Warning',
  reason: 'BackOff',
  action: 'Restart',
  note: 'restarting ✓',
  reportingController: 'example.com/proto',
  reportingInstance: 'proto-1',
  regarding: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web', namespace: NS, uid: 'uid-web' },
  related: { kind: 'Pod', name: 'web-1', namespace: NS },
  series: { count: 4, lastObservedTime: '2026-01-02T03:05:00.000001Z' },
});

const CA = Buffer.from('-----BEGIN CERTIFICATE-----\nnot really\n-----END CERTIFICATE-----\n').toString('base64');
const aWebhook = (name: string): Record<string, unknown> => ({
  name,
  clientConfig: { url: 'https://127.0.0.1:1/never', caBundle: CA },
  // Matches nothing this server serves, so it never gets called.
  rules: [
    {
      operations: ['CREATE', 'UPDATE'],
      apiGroups: ['example.com'],
      apiVersions: ['v1'],
      resources: ['widgets'],
      scope: 'Namespaced',
    },
  ],
  failurePolicy: 'Ignore',
  matchPolicy: 'Exact',
  sideEffects: 'None',
  timeoutSeconds: 5,
  admissionReviewVersions: ['v1', 'v1beta1'],
  namespaceSelector: { matchLabels: { team: 'a' } },
});

describe('events.k8s.io/v1 Event in protobuf', () => {
  it('is created from a protobuf body and read back in protobuf and JSON alike, as core/v1 Event too', async () => {
    const created = await send(EVENTS, 'POST', PROTOBUF, protobufBody(anEvent('pb-1')));
    expect(created.status).toBe(201);
    expect(created.contentType).toBe(PROTOBUF);
    expect(decodeProtobufJson(created.bytes)).toMatchObject({
      kind: 'Event',
      metadata: { name: 'pb-1' },
      eventTime,
      series: { count: 4 },
      related: { kind: 'Pod', name: 'web-1' },
    });
    const got = await expectProtobufEqualsJson(`${EVENTS}/pb-1`);
    expect(got).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      kind: 'Event',
      note: 'restarting ✓',
      regarding: { uid: 'uid-web' },
      series: { lastObservedTime: '2026-01-02T03:05:00.000001Z' },
    });
    const core = await expectProtobufEqualsJson(`${CORE_EVENTS}/pb-1`);
    expect(core).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: { name: 'web' },
      reason: 'BackOff',
      reportingComponent: 'example.com/proto',
      eventTime,
    });
  });

  it('lists in protobuf (EventList and core EventList)', async () => {
    expect((await send(EVENTS, 'POST', PROTOBUF, protobufBody(anEvent('pb-2')))).status).toBe(201);
    const list = await expectProtobufEqualsJson(EVENTS);
    expect(list['kind']).toBe('EventList');
    expect((list['items'] as Array<{ metadata: { name: string } }>).map((e) => e.metadata.name).sort()).toEqual([
      'pb-1',
      'pb-2',
    ]);
    expect((await expectProtobufEqualsJson(CORE_EVENTS))['kind']).toBe('EventList');
  });
});

describe('webhook configurations in protobuf', () => {
  afterAll(async () => {
    await ts.api.delete(`${VWCS}/pb-vwc`);
    await ts.api.delete(`${MWCS}/pb-mwc`);
  });

  it('creates a ValidatingWebhookConfiguration from protobuf and reads it and its list back', async () => {
    const body = {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'pb-vwc' },
      webhooks: [aWebhook('a.proto.example.com'), aWebhook('b.proto.example.com')],
    };
    const created = await send(VWCS, 'POST', PROTOBUF, protobufBody(body));
    expect(created.status).toBe(201);
    const got = await expectProtobufEqualsJson(`${VWCS}/pb-vwc`);
    expect(got).toMatchObject({
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
    });
    expect((got['webhooks'] as unknown[])[1]).toMatchObject({ ...aWebhook('b.proto.example.com'), objectSelector: {} });
    const list = await expectProtobufEqualsJson(VWCS);
    expect(list['kind']).toBe('ValidatingWebhookConfigurationList');
  });

  it('creates a MutatingWebhookConfiguration from protobuf with its reinvocation policy', async () => {
    const body = {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'MutatingWebhookConfiguration',
      metadata: { name: 'pb-mwc' },
      webhooks: [{ ...aWebhook('m.proto.example.com'), reinvocationPolicy: 'IfNeeded' }],
    };
    expect((await send(MWCS, 'POST', PROTOBUF, protobufBody(body))).status).toBe(201);
    const got = await expectProtobufEqualsJson(`${MWCS}/pb-mwc`);
    expect((got['webhooks'] as unknown[])[0]).toMatchObject({
      reinvocationPolicy: 'IfNeeded',
      clientConfig: { caBundle: CA },
    });
    expect((await expectProtobufEqualsJson(MWCS))['kind']).toBe('MutatingWebhookConfigurationList');
  });
});

describe('JSON bodies of these kinds are type-checked against the catalog', () => {
  it("answers 400 with Go's decoder text to a mistyped Event or webhook field", async () => {
    const event = await ts.api.post(EVENTS, { ...anEvent('typed'), note: 5 });
    expect(event.status).toBe(400);
    expect(event.body.message).toContain(
      'json: cannot unmarshal number into Go struct field Event.note of type string',
    );
    const hook = await ts.api.post(VWCS, {
      apiVersion: 'admissionregistration.k8s.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'typed' },
      webhooks: [{ ...aWebhook('t.proto.example.com'), timeoutSeconds: '5' }],
    });
    expect(hook.status).toBe(400);
    expect(hook.body.message).toContain(
      'json: cannot unmarshal string into Go struct field ValidatingWebhook.webhooks.timeoutSeconds of type int32',
    );
  });
});

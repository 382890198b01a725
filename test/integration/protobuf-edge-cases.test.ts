// Protobuf bodies at the edges real clients reach: unknown field numbers and map entries without a value decode as
// 1.26's gogo unmarshallers take them, TypeMeta of another kind is 1.26's conversion error, and a protobuf PATCH is
// go-restful's router-level 415, answered in protobuf when Accept asks for it.
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';
import { decodeProtobufJson } from '../helpers/protobuf-decoder';
import { decodeEnvelope, encodeProtobufBody } from '../../lib/apimachinery/serializers/protobuf';
import { badRequestStatus } from '../helpers/status';

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const KUBECTL_ACCEPT = 'application/vnd.kubernetes.protobuf,application/json';
const NS = 'proto-edges';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

let ts: TestServer;

interface Answer {
  status: number;
  contentType: string;
  body: Record<string, unknown>;
}

async function send(
  method: string,
  path: string,
  body: Buffer | string,
  contentType: string,
  accept = KUBECTL_ACCEPT,
): Promise<Answer> {
  const res = await fetch(ts.url + path, { method, headers: { 'Content-Type': contentType, Accept: accept }, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  const type = res.headers.get('content-type') ?? '';
  const decoded = type.includes('protobuf')
    ? decodeProtobufJson(bytes)
    : (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>);
  return { status: res.status, contentType: type, body: decoded };
}

function varint(n: number): Buffer {
  const out: number[] = [];
  for (; n > 127; n >>>= 7) out.push((n & 127) | 128);
  out.push(n);
  return Buffer.from(out);
}

/** One length-delimited field. */
function field(num: number, payload: Buffer): Buffer {
  return Buffer.concat([varint((num << 3) | 2), varint(payload.length), payload]);
}

/** The `k8s\0` envelope around raw message bytes, with the TypeMeta given. */
function envelope(apiVersion: string, kind: string, raw: Buffer): Buffer {
  const typeMeta = Buffer.concat([field(1, Buffer.from(apiVersion)), field(2, Buffer.from(kind))]);
  return Buffer.concat([Buffer.from('k8s\0', 'latin1'), field(1, typeMeta), field(2, raw)]);
}

/** A Deployment's message bytes as encoded by kubectl (through the server's encoder, which the read-back checks). */
function deploymentBytes(name: string): Buffer {
  return Buffer.from(decodeEnvelope(encodeProtobufBody('apps/v1', 'Deployment', aDeployment(name))).raw);
}

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

describe('protobuf create bodies', () => {
  it('ignores unknown field numbers of every wire type, even with fieldValidation=Strict (as kubectl 1.33 sends it)', async () => {
    const unknown = Buffer.concat([
      field(99, Buffer.from('ignored')),
      varint((77 << 3) | 0),
      varint(5),
      varint((78 << 3) | 5),
      Buffer.from([1, 2, 3, 4]),
    ]);
    const res = await send(
      'POST',
      `${DEPLOYMENTS}?fieldValidation=Strict`,
      envelope('apps/v1', 'Deployment', Buffer.concat([deploymentBytes('unknown-fields'), unknown])),
      PROTOBUF,
    );
    expect([res.status, res.contentType]).toEqual([201, PROTOBUF]);
    expect(res.body).toMatchObject({ kind: 'Deployment', metadata: { name: 'unknown-fields' } });
    expect((await ts.api.get(`${DEPLOYMENTS}/unknown-fields`)).body.spec.template.spec.containers[0].name).toBe('main');
  });

  it('reads a map entry without its value field as an empty value, and keeps empty values', async () => {
    // Deployment.metadata (1) = ObjectMeta{name (1), labels (11) as map entries {key 1, value 2}}, then the spec.
    const meta = Buffer.concat([
      field(1, Buffer.from('map-entries')),
      field(11, field(1, Buffer.from('novalue'))),
      field(11, Buffer.concat([field(1, Buffer.from('empty')), field(2, Buffer.alloc(0))])),
    ]);
    const spec = Buffer.from(
      decodeEnvelope(encodeProtobufBody('apps/v1', 'Deployment', { spec: aDeployment('map-entries')['spec'] })).raw,
    );
    const res = await send(
      'POST',
      DEPLOYMENTS,
      envelope('apps/v1', 'Deployment', Buffer.concat([field(1, meta), spec])),
      PROTOBUF,
    );
    expect(res.status).toBe(201);
    const stored = (await ts.api.get(`${DEPLOYMENTS}/map-entries`)).body;
    expect(stored.metadata.labels).toEqual({ novalue: '', empty: '' });
  });

  it.each([
    [
      'v1',
      'Namespace',
      'Namespace in version "v1" cannot be handled as a Deployment: converting (v1.Namespace) to (apps.Deployment): unknown conversion',
    ],
    [
      'autoscaling/v2',
      'HorizontalPodAutoscaler',
      'HorizontalPodAutoscaler in version "v2" cannot be handled as a Deployment: converting (v2.HorizontalPodAutoscaler) to (apps.Deployment): unknown conversion',
    ],
    [
      'apps/v1',
      'Gadget',
      'Gadget in version "v1" cannot be handled as a Deployment: no kind "Gadget" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    ],
  ])('answers a body whose TypeMeta is %s %s with 1.26’s 400, in protobuf', async (apiVersion, kind, message) => {
    const res = await send('POST', DEPLOYMENTS, envelope(apiVersion, kind, deploymentBytes('typemeta')), PROTOBUF);
    expect([res.status, res.contentType]).toEqual([400, PROTOBUF]);
    expect(res.body).toEqual(badRequestStatus(message));
  });

  it('keeps the API version text for the same kind in another served version', async () => {
    const hpa = encodeProtobufBody('autoscaling/v2', 'HorizontalPodAutoscaler', {
      metadata: { name: 'h' },
      spec: { maxReplicas: 2, scaleTargetRef: { kind: 'Deployment', name: 'x' } },
    });
    const res = await send('POST', `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`, hpa, PROTOBUF);
    expect(res.status).toBe(400);
    expect(res.body['message']).toBe(
      'the API version in the data (autoscaling/v2) does not match the expected API version (autoscaling/v1)',
    );
  });
});

describe('PATCH in protobuf', () => {
  const ROUTER_415 = {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: '415: Unsupported Media Type',
    reason: 'UnsupportedMediaType',
    details: {},
    code: 415,
  };

  beforeAll(async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('patched'));
  });

  it('is go-restful’s 415 before the handler, written in protobuf for a protobuf Accept', async () => {
    const res = await send(
      'PATCH',
      `${DEPLOYMENTS}/patched`,
      encodeProtobufBody('apps/v1', 'Deployment', aDeployment('patched')),
      PROTOBUF,
    );
    expect([res.status, res.contentType]).toEqual([415, PROTOBUF]);
    expect(res.body).toEqual(ROUTER_415);
  });

  it('is the same 415 in JSON, also for a missing object and for the scale subresource', async () => {
    for (const path of [`${DEPLOYMENTS}/patched`, `${DEPLOYMENTS}/missing`, `${DEPLOYMENTS}/patched/scale`]) {
      const res = await send('PATCH', path, '{"spec":{"replicas":2}}', PROTOBUF, 'application/json');
      expect([path, res.status, res.contentType, res.body]).toEqual([path, 415, 'application/json', ROUTER_415]);
    }
  });

  it('takes a patch type with parameters and leaves the object as patched', async () => {
    const res = await send(
      'PATCH',
      `${DEPLOYMENTS}/patched`,
      '{"spec":{"replicas":4}}',
      'application/merge-patch+json; charset=utf-8',
    );
    expect([res.status, res.contentType]).toEqual([200, PROTOBUF]);
    expect(res.body).toMatchObject({ kind: 'Deployment', spec: { replicas: 4 } });
  });
});

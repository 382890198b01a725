// Protobuf responses and watch frames: byte-exact against client-go's own encoding, round trips through an
// independent decoder (built from shared/data, not from this encoder's catalog) and through the body decoder.
import { isStatusError } from '../../errors';
import {
  decodeProtobufEnvelope,
  decodeProtobufJson,
  decodeWatchFrames,
  readWireFields,
} from '../../../../test/helpers/protobuf-decoder';
import { decodeProtobufBody, encodeProtobufResponse, encodeWatchEventProtobuf, PROTOBUF_PREFIX } from '.';
import { writeMessage } from './encode-message';
import { messagePlan } from './message-plan';
import { ReverseWriter } from './reverse-writer';
import { KUBECTL_CREATE_DEPLOYMENT_WEB, KUBECTL_CREATE_NAMESPACE_FOO } from './kubectl-bodies.fixture';
import {
  RICH_DEPLOYMENT,
  RICH_DEPLOYMENT_LIST,
  RICH_FLOW_SCHEMA,
  RICH_HPA,
  RICH_NAMESPACE,
  RICH_PRIORITY_LEVEL,
  RICH_SCALE,
  RICH_STATUS,
} from './rich-objects.fixture';

function encode(value: unknown): Buffer {
  const body = encodeProtobufResponse(value);
  if (body === undefined) throw new Error('not encoded');
  return body;
}

describe('encodeProtobufResponse, byte for byte as Kubernetes writes it', () => {
  it.each([
    ['kubectl create namespace foo', KUBECTL_CREATE_NAMESPACE_FOO],
    ['kubectl create deployment web --image=nginx', KUBECTL_CREATE_DEPLOYMENT_WEB],
  ])('re-encodes the body client-go sent for `%s` to the same bytes', (_name, hex) => {
    const { apiVersion, kind, object } = decodeProtobufBody(Buffer.from(hex, 'hex'));
    expect(encode({ apiVersion, kind, ...object }).toString('hex')).toBe(hex);
  });

  it('writes a Status with the empty ListMeta strings and the Unknown envelope tail (contentEncoding, contentType)', () => {
    const status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'x',
      reason: 'NotFound',
      code: 404,
    };
    const raw =
      '0a060a0012001a00' +
      '1207' +
      Buffer.from('Failure').toString('hex') +
      '1a0178' +
      '2208' +
      Buffer.from('NotFound').toString('hex') +
      '309403';
    const typeMeta = '0a02' + Buffer.from('v1').toString('hex') + '1206' + Buffer.from('Status').toString('hex');
    expect(encode(status).toString('hex')).toBe(
      `6b387300` + `0a0c${typeMeta}` + `12${(raw.length / 2).toString(16)}${raw}` + '1a002200',
    );
  });

  it('writes map entries sorted by key bytes, as gogo sorts Go strings ("10" before "9")', () => {
    const fields = readWireFields(
      decodeProtobufEnvelopeRaw(
        encode({
          kind: 'Namespace',
          apiVersion: 'v1',
          metadata: { name: 'n', labels: { '9': 'x', b: 'y', '10': 'z', a: 'w' } },
        }),
      ),
    );
    const metadata = fields.find((f) => f.number === 1);
    if (metadata?.value.wireType !== 2) throw new Error('no metadata');
    const keys = readWireFields(metadata.value.bytes)
      .filter((f) => f.number === 11)
      .map((f) =>
        f.value.wireType === 2 ? Buffer.from(f.value.bytes.subarray(2, 2 + (f.value.bytes[1] ?? 0))).toString() : '',
      );
    expect(keys).toEqual(['10', '9', 'a', 'b']);
  });

  it('encodes negative int32 as a ten-byte varint and int64 beyond 32 bits exactly', () => {
    const decoded = decodeProtobufJson(encode(RICH_DEPLOYMENT)) as typeof RICH_DEPLOYMENT;
    expect(decoded.spec.template.spec.priority).toBe(-10);
    expect(decoded.spec.template.spec.activeDeadlineSeconds).toBe(1099511627776);
  });
});

/** The raw bytes (field 2) of the Unknown envelope. */
function decodeProtobufEnvelopeRaw(body: Buffer): Uint8Array {
  const raw = readWireFields(body.subarray(PROTOBUF_PREFIX.length)).find((f) => f.number === 2);
  if (raw?.value.wireType !== 2) throw new Error('no raw');
  return raw.value.bytes;
}

describe('encode → independent decode round trips', () => {
  it.each([
    ['Deployment', RICH_DEPLOYMENT],
    ['DeploymentList', RICH_DEPLOYMENT_LIST],
    ['HorizontalPodAutoscaler', RICH_HPA],
    ['FlowSchema', RICH_FLOW_SCHEMA],
    ['PriorityLevelConfiguration', RICH_PRIORITY_LEVEL],
    ['Namespace', RICH_NAMESPACE],
    ['Scale', RICH_SCALE],
    ['Status', RICH_STATUS],
  ])('%s', (_kind, object) => {
    const body = encode(object);
    const envelope = decodeProtobufEnvelope(body);
    expect({
      apiVersion: envelope.apiVersion,
      kind: envelope.kind,
      contentEncoding: envelope.contentEncoding,
      contentType: envelope.contentType,
    }).toEqual({ apiVersion: object.apiVersion, kind: object.kind, contentEncoding: '', contentType: '' });
    expect(decodeProtobufJson(body)).toEqual(object);
  });

  it('lists of every served kind, empty and with continue tokens', () => {
    for (const [kind, apiVersion] of [
      ['NamespaceList', 'v1'],
      ['HorizontalPodAutoscalerList', 'autoscaling/v1'],
      ['FlowSchemaList', 'flowcontrol.apiserver.orch.io/v1beta3'],
      ['PriorityLevelConfigurationList', 'flowcontrol.apiserver.orch.io/v1beta3'],
    ]) {
      const list = { kind, apiVersion, metadata: { resourceVersion: '5', continue: 'token' } };
      expect(decodeProtobufJson(encode(list))).toEqual(list); // nil items: Go prints `items: null`, which protobuf cannot tell from absent
    }
  });

  it('zero values of non-pointer fields come back as Go prints them', () => {
    const decoded = decodeProtobufJson(
      encode({ kind: 'HorizontalPodAutoscaler', apiVersion: 'autoscaling/v1', metadata: { name: 'h' } }),
    );
    expect(decoded).toEqual({
      kind: 'HorizontalPodAutoscaler',
      apiVersion: 'autoscaling/v1',
      metadata: { name: 'h' },
      spec: { scaleTargetRef: { kind: '', name: '' }, maxReplicas: 0 },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    });
  });
});

describe('buffer growth', () => {
  it('gives the same bytes from a 16-byte writer that grows on every few writes', () => {
    const { kind: _kind, apiVersion: _apiVersion, ...object } = RICH_DEPLOYMENT;
    const small = new ReverseWriter(16);
    writeMessage(small, messagePlan('k8s.io.api.apps.v1.Deployment'), object);
    expect(small.finish().equals(decodeProtobufEnvelopeRaw(encode(RICH_DEPLOYMENT)))).toBe(true);
  });

  it('round-trips a list larger than the initial buffer', () => {
    const items = Array.from({ length: 400 }, (_, i) => ({
      ...RICH_DEPLOYMENT_LIST.items[0],
      metadata: { name: `web-${i}`, namespace: 'prod', labels: { n: String(i) } },
    }));
    const list = { ...RICH_DEPLOYMENT_LIST, items };
    const body = encode(list);
    expect(body.length).toBeGreaterThan(128 * 1024);
    expect(decodeProtobufJson(body)).toEqual(list);
  });
});

describe('encode → body decoder round trips', () => {
  it.each([
    ['Deployment', RICH_DEPLOYMENT],
    ['HorizontalPodAutoscaler', RICH_HPA],
    ['FlowSchema', RICH_FLOW_SCHEMA],
    ['PriorityLevelConfiguration', RICH_PRIORITY_LEVEL],
    ['Namespace', RICH_NAMESPACE],
    ['Scale', RICH_SCALE],
  ])('%s reads back as the object the server was given', (_kind, object) => {
    const { apiVersion, kind, ...rest } = object;
    expect(decodeProtobufBody(encode(object))).toEqual({ apiVersion, kind, object: rest });
  });
});

describe('encodeProtobufResponse without a protobuf message', () => {
  it('leaves kind-less values (version info, path lists) to JSON', () => {
    expect(encodeProtobufResponse({ major: '1', minor: '26' })).toBeUndefined();
    expect(encodeProtobufResponse({ paths: ['/api'] })).toBeUndefined();
  });

  it('answers 406 for a kind without one, as Kubernetes does for a Table', () => {
    let caught: unknown;
    try {
      encodeProtobufResponse({ kind: 'Table', apiVersion: 'meta.orch.io/v1', rows: [] });
    } catch (err) {
      caught = err;
    }
    expect(isStatusError(caught) && caught.status).toMatchObject({
      code: 406,
      reason: 'NotAcceptable',
      message:
        'object *v1.Table does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message',
    });
  });
});

describe('encodeWatchEventProtobuf', () => {
  it('frames a bare WatchEvent (no prefix) whose object is the enveloped object', () => {
    const { kind, apiVersion, ...object } = RICH_DEPLOYMENT;
    const frame = encodeWatchEventProtobuf('MODIFIED', object, apiVersion, kind);
    expect(frame.readUInt32BE(0)).toBe(frame.length - 4);
    expect(frame.subarray(4, 8).equals(PROTOBUF_PREFIX)).toBe(false); // the raw serializer writes the event bare
    const [event, ...rest] = decodeWatchFrames(frame);
    expect(rest).toEqual([]);
    expect(event).toEqual({ type: 'MODIFIED', object: RICH_DEPLOYMENT });
  });

  it('concatenated frames split back into events, ERROR carrying a v1 Status', () => {
    const status = {
      metadata: {},
      status: 'Failure',
      message: 'too old resource version: 1 (5)',
      reason: 'Expired',
      code: 410,
    };
    const body = Buffer.concat([
      encodeWatchEventProtobuf('ADDED', { metadata: { name: 'a' } }, 'v1', 'Namespace'),
      encodeWatchEventProtobuf('BOOKMARK', { metadata: { resourceVersion: '12' } }, 'v1', 'Namespace'),
      encodeWatchEventProtobuf('ERROR', status, 'v1', 'Status'),
    ]);
    expect(decodeWatchFrames(body)).toEqual([
      { type: 'ADDED', object: { kind: 'Namespace', apiVersion: 'v1', metadata: { name: 'a' }, spec: {}, status: {} } },
      {
        type: 'BOOKMARK',
        object: { kind: 'Namespace', apiVersion: 'v1', metadata: { resourceVersion: '12' }, spec: {}, status: {} },
      },
      { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', ...status } },
    ]);
  });
});

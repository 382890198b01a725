// decodeObject on protobuf bodies: kubectl's bodies decode to the JSON shape, envelope errors are 400 with Kubernetes' wording.
import { isStatusError } from '../apimachinery/errors';
import { encodeProtobufBody, PROTOBUF_PREFIX } from '../apimachinery/serializers/protobuf';
import { KUBECTL_CREATE_NAMESPACE_FOO } from '../apimachinery/serializers/protobuf/kubectl-bodies.fixture';
import { resourceDefinitions } from '../registry/install';
import type { ResourceDefinition } from '../registry/rest/resource';
import { decodeObject } from './decode-body';
import { bodyFormatOf } from './negotiation';

const defs = resourceDefinitions({});
function def(kind: string): ResourceDefinition {
  const found = defs.find((d) => d.kind === kind);
  if (!found) throw new Error(`no definition for ${kind}`);
  return found;
}
const known = (v: string, k: string): boolean => defs.some((d) => (d.group === '' ? d.version : `${d.group}/${d.version}`) === v && d.kind === k);

function error400(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (isStatusError(err) && err.code === 400) return err.message;
    throw err;
  }
  throw new Error('expected a 400');
}

describe('bodyFormatOf protobuf', () => {
  it('accepts the orch and Kubernetes protobuf types', () => {
    expect(bodyFormatOf('application/vnd.kubernetes.protobuf')).toBe('protobuf');
    expect(bodyFormatOf('application/vnd.orch.protobuf; charset=binary')).toBe('protobuf');
  });
});

describe('decodeObject with protobuf bodies', () => {
  it('decodes kubectl create namespace foo', () => {
    const obj = decodeObject(Buffer.from(KUBECTL_CREATE_NAMESPACE_FOO, 'hex'), 'protobuf', def('Namespace'), known);
    expect(obj).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'foo' }, spec: {}, status: {} });
  });

  it('maps the flowcontrol.apiserver.k8s.io alias to the orch group', () => {
    const body = encodeProtobufBody('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema', { metadata: { name: 'fs' }, spec: { matchingPrecedence: 10, priorityLevelConfiguration: { name: 'p' } } });
    const obj = decodeObject(body, 'protobuf', def('FlowSchema'), known);
    expect(obj).toEqual({ apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3', kind: 'FlowSchema', metadata: { name: 'fs' }, spec: { matchingPrecedence: 10, priorityLevelConfiguration: { name: 'p' } }, status: {} });
  });

  it('decodes an HPA with targetCPUUtilizationPercentage', () => {
    const spec = { scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' }, maxReplicas: 5, targetCPUUtilizationPercentage: 80 };
    const obj = decodeObject(encodeProtobufBody('autoscaling/v1', 'HorizontalPodAutoscaler', { metadata: { name: 'web' }, spec }), 'protobuf', def('HorizontalPodAutoscaler'), known);
    expect(obj['spec']).toEqual(spec);
  });

  it('rejects a body without the prefix as Kubernetes words it', () => {
    expect(error400(() => decodeObject(Buffer.from('{"kind":"Namespace"}'), 'protobuf', def('Namespace'), known))).toBe(
      'the object provided is unrecognized (must be of type Namespace): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"Namespace"})',
    );
  });

  it('rejects garbage after the prefix with 400', () => {
    error400(() => decodeObject(Buffer.concat([PROTOBUF_PREFIX, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f])]), 'protobuf', def('Namespace'), known));
  });

  it('applies the apiVersion/kind checks to the envelope', () => {
    const deployment = encodeProtobufBody('apps/v1', 'Deployment', { metadata: { name: 'web' } });
    expect(error400(() => decodeObject(deployment, 'protobuf', def('Namespace'), known))).toBe('the API version in the data (apps/v1) does not match the expected API version (v1)');
  });
});

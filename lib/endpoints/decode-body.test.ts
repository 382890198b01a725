// decodeObject on protobuf bodies: kubectl's bodies decode to the JSON shape, envelope errors are 400 with Kubernetes' wording.
import { isStatusError } from '../apimachinery/errors';
import { apiVersionOf } from '../apimachinery/schema/group-version';
import { encodeProtobufBody, PROTOBUF_PREFIX } from '../apimachinery/serializers/protobuf';
import { KUBECTL_CREATE_NAMESPACE_FOO } from '../apimachinery/serializers/protobuf/kubectl-bodies.fixture';
import { resourceDefinitions } from '../registry/install';
import type { ResourceDefinition } from '../registry/rest/resource';
import { decodeBody, decodeObject, fieldValidationDirective } from './decode-body';
import { bodyFormatOf } from './negotiation';

const defs = resourceDefinitions({});
function def(kind: string, version?: string): ResourceDefinition {
  const found = defs.find((d) => d.kind === kind && (version === undefined || d.version === version));
  if (!found) throw new Error(`no definition for ${kind}`);
  return found;
}
const known = (v: string, k: string): boolean => defs.some((d) => apiVersionOf(d) === v && d.kind === k);

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
    expect(obj).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      metadata: { name: 'foo', creationTimestamp: null },
      spec: {},
      status: {},
    });
  });

  it('maps the flowcontrol.apiserver.k8s.io alias to the orch group', () => {
    const body = encodeProtobufBody('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema', {
      metadata: { name: 'fs' },
      spec: { matchingPrecedence: 10, priorityLevelConfiguration: { name: 'p' } },
    });
    const obj = decodeObject(body, 'protobuf', def('FlowSchema'), known);
    expect(obj).toEqual({
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      kind: 'FlowSchema',
      metadata: { name: 'fs', creationTimestamp: null },
      spec: { matchingPrecedence: 10, priorityLevelConfiguration: { name: 'p' } },
      status: {},
    });
  });

  it('decodes an HPA with targetCPUUtilizationPercentage', () => {
    const spec = {
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 80,
    };
    const obj = decodeObject(
      encodeProtobufBody('autoscaling/v1', 'HorizontalPodAutoscaler', { metadata: { name: 'web' }, spec }),
      'protobuf',
      def('HorizontalPodAutoscaler', 'v1'),
      known,
    );
    expect(obj['spec']).toEqual(spec);
  });

  it('rejects a body without the prefix as Kubernetes words it', () => {
    expect(error400(() => decodeObject(Buffer.from('{"kind":"Namespace"}'), 'protobuf', def('Namespace'), known))).toBe(
      'the object provided is unrecognized (must be of type Namespace): provided data does not appear to be a protobuf message, expected prefix [107 56 115 0] ({"kind":"Namespace"})',
    );
  });

  it('rejects garbage after the prefix with 400', () => {
    error400(() =>
      decodeObject(
        Buffer.concat([PROTOBUF_PREFIX, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f])]),
        'protobuf',
        def('Namespace'),
        known,
      ),
    );
  });

  it('applies the apiVersion/kind checks to the envelope', () => {
    const deployment = encodeProtobufBody('apps/v1', 'Deployment', { metadata: { name: 'web' } });
    expect(error400(() => decodeObject(deployment, 'protobuf', def('Namespace'), known))).toBe(
      'Deployment in version "v1" cannot be handled as a Namespace: converting (v1.Deployment) to (core.Namespace): unknown conversion',
    );
  });
});

describe('decodeBody with JSON and YAML bodies', () => {
  const deployment = (spec: string): Buffer =>
    Buffer.from(
      `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{${spec}"selector":{"matchLabels":{"app":"web"}}}}`,
    );
  const decode = (body: Buffer, level: 'Ignore' | 'Warn' | 'Strict', format: 'json' | 'yaml' = 'json') =>
    decodeBody(body, format, def('Deployment'), known, level);
  const PREFIX = 'Deployment in version "v1" cannot be handled as a Deployment: ';

  it.each(['Ignore', 'Warn', 'Strict'] as const)('%s: a type error is 400 with Go’s decoder text', (level) => {
    expect(error400(() => decode(deployment('"foo":1,"replicas":"3",'), level))).toBe(
      `${PREFIX}json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32`,
    );
  });

  it('Ignore drops unknown fields without a word', () => {
    const { object, warnings } = decode(deployment('"foo":1,"replicas":1,"replicas":2,'), 'Ignore');
    expect(warnings).toEqual([]);
    // The decoded object is written as Go writes a Deployment: struct fields always, a nil list as null.
    expect(object['spec']).toEqual({
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: {},
      template: { metadata: { creationTimestamp: null }, spec: { containers: null } },
    });
  });

  it('Warn returns one warning per problem and drops the unknown fields', () => {
    const { object, warnings } = decode(deployment('"foo":1,"replicas":1,"replicas":2,'), 'Warn');
    expect(warnings).toEqual(['unknown field "spec.foo"', 'duplicate field "spec.replicas"']);
    expect(object['spec']).not.toHaveProperty('foo');
  });

  it('Strict lists them all in one 400', () => {
    expect(error400(() => decode(deployment('"foo":1,"replicas":1,"replicas":2,'), 'Strict'))).toBe(
      `${PREFIX}strict decoding error: unknown field "spec.foo", duplicate field "spec.replicas"`,
    );
  });

  const yaml = Buffer.from(
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  name: web2\nspec:\n  foo: 1\n  replicas: 1\n  replicas: 2\n',
  );

  it('Strict YAML: yaml.v2’s repeated-key error first, then unknown fields', () => {
    expect(error400(() => decode(yaml, 'Strict', 'yaml'))).toBe(
      `${PREFIX}strict decoding error: yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 9: key "replicas" already set in map, unknown field "spec.foo"`,
    );
  });

  it('Warn YAML: one warning per yaml.v2 line and per unknown field; the last repeat wins', () => {
    const { object, warnings } = decode(yaml, 'Warn', 'yaml');
    expect(warnings).toEqual([
      'line 5: key "name" already set in map',
      'line 9: key "replicas" already set in map',
      'unknown field "spec.foo"',
    ]);
    expect(object.metadata.name).toBe('web2');
  });

  it('reads YAML scalars as yaml.v2 does, so `yes` is a bool', () => {
    const body = Buffer.from('apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: yes\n');
    expect(error400(() => decode(body, 'Ignore', 'yaml'))).toBe(
      `${PREFIX}json: cannot unmarshal bool into Go struct field ObjectMeta.metadata.name of type string`,
    );
  });

  it.each([
    ['{"metadata":{"name":"a"}', 'unexpected end of JSON input'],
    ['{"metadata":{"name":"a"},}', "invalid character '}' looking for beginning of object key string"],
  ])('words the syntax error of %s as Go’s scanner', (text, detail) => {
    expect(error400(() => decode(Buffer.from(text), 'Warn'))).toBe(
      `the object provided is unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: ${detail} (${text})`,
    );
  });

  it('fieldValidationDirective: the gate off makes every directive Ignore', () => {
    expect(fieldValidationDirective('Strict', false)).toBe('Ignore');
    expect(fieldValidationDirective('Strict', true)).toBe('Strict');
  });
});

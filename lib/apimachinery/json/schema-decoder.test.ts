// The schema decoder against Kubernetes' JSON decoding texts: type errors, custom types, unknown and duplicate fields, Go's merge of repeated keys.
import { schemaFor } from '../schema/kinds';
import type { SchemaNode } from '../schema/node';
import { JsonSyntaxError } from './go-json-errors';
import { decodeJson } from './schema-decoder';

const DEPLOYMENT = schemaFor('apps/v1', 'Deployment') as SchemaNode;

/** A Deployment body with `spec` and the given extra JSON text spliced into the pod spec's first container. */
function withContainer(containerJson: string): string {
  return `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[${containerJson}]}}}}`;
}

const strict = (text: string) => decodeJson(text, DEPLOYMENT, { strict: true });

describe('type errors', () => {
  it.each([
    [
      '{"spec":{"replicas":"x"}}',
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      '{"spec":{"replicas":1.5}}',
      'json: cannot unmarshal number 1.5 into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      '{"spec":{"replicas":1.0}}',
      'json: cannot unmarshal number 1.0 into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      '{"spec":{"replicas":3000000000}}',
      'json: cannot unmarshal number 3000000000 into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      '{"spec":{"replicas":true}}',
      'json: cannot unmarshal bool into Go struct field DeploymentSpec.spec.replicas of type int32',
    ],
    [
      '{"spec":{"paused":"yes"}}',
      'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.paused of type bool',
    ],
    ['{"spec":[]}', 'json: cannot unmarshal array into Go struct field Deployment.spec of type v1.DeploymentSpec'],
    [
      '{"metadata":"x"}',
      'json: cannot unmarshal string into Go struct field Deployment.metadata of type v1.ObjectMeta',
    ],
    [
      '{"metadata":{"labels":{"app":5}}}',
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string',
    ],
    [
      '{"metadata":{"labels":[]}}',
      'json: cannot unmarshal array into Go struct field ObjectMeta.metadata.labels of type map[string]string',
    ],
    [
      '{"metadata":{"uid":7}}',
      'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.uid of type types.UID',
    ],
    [
      '{"metadata":{"generation":"1"}}',
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.generation of type int64',
    ],
    [
      '{"metadata":{"finalizers":"a"}}',
      'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.finalizers of type []string',
    ],
  ])('%s', (body, error) => {
    expect(strict(body).error).toBe(error);
  });

  it('names the innermost struct and the field path without list indices', () => {
    expect(strict(withContainer('{"name":"a","image":5}')).error).toBe(
      'json: cannot unmarshal number into Go struct field Container.spec.template.spec.containers.image of type string',
    );
    expect(strict(withContainer('{"name":"a","imagePullPolicy":true}')).error).toBe(
      'json: cannot unmarshal bool into Go struct field Container.spec.template.spec.containers.imagePullPolicy of type v1.PullPolicy',
    );
    expect(strict(withContainer('{"name":"a","ports":{}}')).error).toBe(
      'json: cannot unmarshal object into Go struct field Container.spec.template.spec.containers.ports of type []v1.ContainerPort',
    );
    expect(strict(withContainer('{"name":"a","resources":{"limits":"1"}}')).error).toBe(
      'json: cannot unmarshal string into Go struct field ResourceRequirements.spec.template.spec.containers.resources.limits of type v1.ResourceList',
    );
  });

  it('reports inline members in the struct that embeds them', () => {
    const body = `{"spec":{"template":{"spec":{"volumes":[{"name":"v","configMap":"x"}]}}}}`;
    expect(strict(body).error).toBe(
      'json: cannot unmarshal string into Go struct field Volume.spec.template.spec.volumes.configMap of type v1.ConfigMapVolumeSource',
    );
  });

  it('keeps the first type error', () => {
    expect(strict('{"spec":{"replicas":"x","paused":1}}').error).toContain('DeploymentSpec.spec.replicas');
  });

  it('accepts null everywhere', () => {
    const result = strict(
      '{"metadata":{"creationTimestamp":null,"labels":null},"spec":{"replicas":null,"paused":null,"strategy":{"rollingUpdate":{"maxSurge":null}}}}',
    );
    expect(result.error).toBeUndefined();
  });

  it('decodes a null struct element as an empty struct, as Go fills a slice with zero values', () => {
    const result = strict(withContainer('{"name":"a","ports":[null,{"containerPort":80}]}'));
    expect(result.value).toMatchObject({
      spec: { template: { spec: { containers: [{ ports: [{}, { containerPort: 80 }] }] } } },
    });
  });
});

describe('types with their own JSON decoding', () => {
  const probe = (port: string) => withContainer(`{"name":"a","livenessProbe":{"httpGet":{"port":${port}}}}`);

  it.each(['8080', '"http"', 'null'])('takes %s as an int-or-string', (port) => {
    expect(strict(probe(port)).error).toBeUndefined();
  });

  it.each([
    ['true', 'bool'],
    ['1.5', 'number 1.5'],
    ['{}', 'object'],
    ['[]', 'array'],
  ])('refuses %s as an int-or-string with the int32 error in its field context', (port, word) => {
    expect(strict(probe(port)).error).toBe(
      `json: cannot unmarshal ${word} into Go struct field HTTPGetAction.spec.template.spec.containers.livenessProbe.httpGet.port of type int32`,
    );
  });

  const limits = (cpu: string) => withContainer(`{"name":"a","resources":{"limits":{"cpu":${cpu}}}}`);

  it.each(['"500m"', '"1Gi"', '0.5', '2', '"1e3"', '" 1 "', '"0"', 'null'])('takes %s as a quantity', (cpu) => {
    expect(strict(limits(cpu)).error).toBeUndefined();
  });

  it.each([
    ['"abc"', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['""', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['"1Gb"', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['"1Q"', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
    ['"1ki"', "unable to parse quantity's suffix"],
    ['true', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"],
  ])('refuses %s as a quantity with ParseQuantity’s text alone', (cpu, error) => {
    expect(strict(limits(cpu)).error).toBe(error);
  });

  it.each([
    ['"2023-05-01T10:00:00Z"', undefined],
    ['"2023-05-01T10:00:00.123+02:00"', undefined],
    ['"2023-05-01"', 'parsing time "2023-05-01" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "T"'],
    ['"x"', 'parsing time "x" as "2006-01-02T15:04:05Z07:00": cannot parse "x" as "2006"'],
    ['"2023-13-01T00:00:00Z"', 'parsing time "2023-13-01T00:00:00Z": month out of range'],
    ['"2023-02-30T00:00:00Z"', 'parsing time "2023-02-30T00:00:00Z": day out of range'],
    ['"2023-02-01T00:00:00Zjunk"', 'parsing time "2023-02-01T00:00:00Zjunk": extra text: "junk"'],
    ['5', 'json: cannot unmarshal number into Go struct field ObjectMeta.metadata.creationTimestamp of type string'],
  ])('decodes creationTimestamp %s like metav1.Time', (time, error) => {
    expect(strict(`{"metadata":{"creationTimestamp":${time}}}`).error).toBe(error);
  });

  it('stops at a custom type error even after an earlier type error', () => {
    expect(strict('{"spec":{"replicas":"x"},"metadata":{"creationTimestamp":"x"}}').error).toMatch(/^parsing time "x"/);
  });

  it('takes any JSON in raw fields (managedFields fieldsV1)', () => {
    const body = '{"metadata":{"managedFields":[{"manager":"m","fieldsV1":{"f:spec":{"f:x":{}}, "f:spec":{}}}]}}';
    expect(strict(body)).toMatchObject({ error: undefined, strictErrors: [] });
  });
});

describe('unknown and duplicate fields', () => {
  it('reports them in document order with dotted paths and list indices', () => {
    const body = withContainer(
      '{"name":"a","imagePullPolicyX":"Always","ports":[{"containerPort":80,"foo":1}]}',
    ).replace('"metadata":{"name":"web"}', '"metadata":{"name":"web","name":"x"},"spek":{}');
    expect(strict(body).strictErrors).toEqual([
      'duplicate field "metadata.name"',
      'unknown field "spek"',
      'unknown field "spec.template.spec.containers[0].imagePullPolicyX"',
      'unknown field "spec.template.spec.containers[0].ports[0].foo"',
    ]);
  });

  it('reports duplicate map keys by their path and each problem once', () => {
    const body = '{"metadata":{"labels":{"app":"a","app":"b","app":"c"}},"foo":1,"foo":2}';
    expect(strict(body).strictErrors).toEqual(['duplicate field "metadata.labels.app"', 'unknown field "foo"']);
  });

  it('finds a duplicate key in a large map, a nested object and after a nested object with the same keys', () => {
    const many = Array.from({ length: 40 }, (_, i) => `"k${i}":"v"`).join(',');
    const labels = (extra: string): string => `{"metadata":{"labels":{${many}${extra}}}}`;
    expect(strict(labels(',"k3":"x"')).strictErrors).toEqual(['duplicate field "metadata.labels.k3"']);
    expect(strict(labels(',"k39":"x"')).strictErrors).toEqual(['duplicate field "metadata.labels.k39"']);
    expect(strict(labels(',"k40":"x"')).strictErrors).toEqual([]);
    // Keys of an inner object are not keys of the outer one, and the outer one's stay known after it.
    const nested = '{"metadata":{"labels":{"name":"x"},"name":"a","annotations":{"name":"y"},"name":"b"}}';
    expect(strict(nested).strictErrors).toEqual(['duplicate field "metadata.name"']);
  });

  it('does not look inside unknown fields', () => {
    expect(strict('{"foo":{"a":1,"a":2}}').strictErrors).toEqual(['unknown field "foo"']);
  });

  it('reports nothing when not strict, and no strict errors beside a type error', () => {
    expect(decodeJson('{"foo":1,"spec":{"replicas":1,"replicas":2}}', DEPLOYMENT, { strict: false })).toMatchObject({
      error: undefined,
      strictErrors: [],
    });
    expect(strict('{"foo":1,"spec":{"replicas":"x"}}')).toMatchObject({
      strictErrors: [],
      error: expect.stringContaining('replicas'),
    });
  });

  it('stops reporting after 100', () => {
    const keys = Array.from({ length: 150 }, (_, i) => `"f${i}":1`).join(',');
    expect(strict(`{${keys}}`).strictErrors).toHaveLength(100);
  });
});

describe('decoded value', () => {
  it('drops unknown fields at every depth', () => {
    const { value } = decodeJson(
      withContainer('{"name":"a","foo":1}').replace('"kind"', '"bar":2,"kind"'),
      DEPLOYMENT,
      { strict: false },
    );
    expect(value).toEqual(JSON.parse(withContainer('{"name":"a"}')));
  });

  it('decodes a repeated struct field into the earlier value, as Go does', () => {
    const { value } = strict(
      '{"metadata":{"name":"a","labels":{"x":"1"}},"metadata":{"namespace":"n","labels":{"y":"2"}}}',
    );
    expect(value).toEqual({ metadata: { name: 'a', namespace: 'n', labels: { x: '1', y: '2' } } });
  });

  it('decodes a repeated list into the earlier elements and cuts it to the new length', () => {
    const body =
      '{"spec":{"template":{"spec":{"containers":[{"name":"a","image":"x"},{"name":"b"}],"containers":[{"name":"c"}]}}}}';
    expect(strict(body).value).toEqual({ spec: { template: { spec: { containers: [{ name: 'c', image: 'x' }] } } } });
  });

  it('keeps a non-pointer value when null repeats it, clears a pointer', () => {
    expect(strict('{"spec":{"paused":true,"paused":null,"replicas":2,"replicas":null}}').value).toEqual({
      spec: { paused: true, replicas: null },
    });
  });

  it('keeps __proto__ keys as data', () => {
    const { value } = strict('{"metadata":{"labels":{"__proto__":"x"}}}');
    const labels = (value as { metadata: { labels: Record<string, unknown> } }).metadata.labels;
    expect(Object.keys(labels)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(labels)).toBe(Object.prototype);
  });
});

describe('syntax errors', () => {
  it.each([
    ['', 'unexpected end of JSON input'],
    ['{', 'unexpected end of JSON input'],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1 "b":2}', "invalid character '\"' after object key:value pair"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['{"spec":{"replicas":01}}', "invalid character '1' after object key:value pair"],
    ['{"a":[1 2]}', "invalid character '2' after array element"],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a":"\\x"}', "invalid character 'x' in string escape code"],
    ['{"a":"\n"}', "invalid character '\\n' in string literal"],
    ['{"a":-}', "invalid character '}' in numeric literal"],
    ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
    ['{} x', "invalid character 'x' after top-level value"],
    ["{'a':1}", "invalid character '\\'' looking for beginning of object key string"],
  ])('%j → %s', (body, message) => {
    expect(() => strict(body)).toThrow(new JsonSyntaxError(message, 0));
  });
});

describe('syntax errors on non-ASCII bytes', () => {
  it('names the first UTF-8 byte as Go’s scanner reads bytes', () => {
    expect(() => strict('{"a":é}')).toThrow("invalid character 'Ã' looking for beginning of value");
    expect(() => strict('{"a":\u00a0}')).toThrow("invalid character 'Â' looking for beginning of value");
  });
});

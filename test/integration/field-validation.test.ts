// fieldValidation over HTTP: Ignore/Warn/Strict × POST/PUT/PATCH × JSON/YAML for unknown and repeated fields, type errors and what is stored.
import type { Etcd3 } from 'etcd3';
import {
  type ApiResponse,
  type TestServer,
  startServerWithEtcdClient,
  stopServerWithEtcdClient,
} from '../helpers/test-server';
import {
  CANNOT_BE_HANDLED,
  DEPLOYMENTS,
  JSON_TYPE,
  NS,
  YAML_TYPE,
  deploymentJson,
  deploymentYaml,
} from './field-validation-fixture';

let ts: TestServer;
let etcd: Etcd3;
const REPLICAS_TYPE_ERROR =
  'json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32';

beforeAll(async () => ({ ts, etcd } = await startServerWithEtcdClient(NS)));
afterAll(() => stopServerWithEtcdClient(ts, etcd));

/** The texts of the Warning headers (`299 - "<text>"`), unescaped. */
function warnings(res: ApiResponse): string[] {
  const header = res.headers.get('warning') ?? '';
  return [...header.matchAll(/299 - "((?:[^"\\]|\\.)*)"/g)].map((m) => (m[1] ?? '').replace(/\\(.)/g, '$1'));
}

async function stored(name: string): Promise<Record<string, any>> {
  const raw = await etcd.get(`/registry/apps/deployments/${NS}/${name}`).string();
  if (raw === null) throw new Error(`${name} is not in etcd`);
  return JSON.parse(raw);
}

let counter = 0;
const uniqueName = (prefix: string): string => `${prefix}-${(counter += 1)}`;

type Verb = 'POST' | 'PUT';
type Format = 'json' | 'yaml';

/** Sends `body` as a create, or as an update of an object created first (same name). */
async function write(verb: Verb, name: string, body: string, format: Format, level: string): Promise<ApiResponse> {
  const headers = format === 'json' ? JSON_TYPE : YAML_TYPE;
  if (verb === 'POST') return ts.api.request('POST', `${DEPLOYMENTS}?fieldValidation=${level}`, body, headers);
  const created = await ts.api.request('POST', DEPLOYMENTS, deploymentJson(name), JSON_TYPE);
  expect(created.status).toBe(201);
  return ts.api.request('PUT', `${DEPLOYMENTS}/${name}?fieldValidation=${level}`, body, headers);
}

const SUCCESS: Record<Verb, number> = { POST: 201, PUT: 200 };
const VERBS_AND_FORMATS: [Verb, Format][] = [
  ['POST', 'json'],
  ['POST', 'yaml'],
  ['PUT', 'json'],
  ['PUT', 'yaml'],
];

describe.each(VERBS_AND_FORMATS)('%s with a %s body', (verb, format) => {
  const unknownBody = (name: string): string =>
    format === 'json' ? deploymentJson(name, '"foo":{"bar":1},') : deploymentYaml(name, ['foo:', '  bar: 1']);
  const repeatedBody = (name: string): string =>
    format === 'json' ? deploymentJson(name, '"replicas":2,') : deploymentYaml(name, ['replicas: 2']);
  // yaml.v2 names the line of the repeated key's value: `replicas: 2` is line 7 of deploymentYaml.
  const repeated = format === 'json' ? 'duplicate field "spec.replicas"' : 'line 7: key "replicas" already set in map';
  const repeatedStrict =
    format === 'json'
      ? 'duplicate field "spec.replicas"'
      : 'yaml: unmarshal errors:\n  line 7: key "replicas" already set in map';

  it('Ignore: drops an unknown field silently', async () => {
    const name = uniqueName('ignore-unknown');
    const res = await write(verb, name, unknownBody(name), format, 'Ignore');
    expect(res.status).toBe(SUCCESS[verb]);
    expect(res.headers.get('warning')).toBeNull();
    expect(res.body.spec).not.toHaveProperty('foo');
    expect((await stored(name)).spec).not.toHaveProperty('foo');
  });

  it('Warn: succeeds with one warning per unknown field and stores nothing of it', async () => {
    const name = uniqueName('warn-unknown');
    const res = await write(verb, name, unknownBody(name), format, 'Warn');
    expect(res.status).toBe(SUCCESS[verb]);
    expect(warnings(res)).toEqual(['unknown field "spec.foo"']);
    expect((await stored(name)).spec).not.toHaveProperty('foo');
  });

  it('Warn is the default', async () => {
    const name = uniqueName('default-unknown');
    const headers = format === 'json' ? JSON_TYPE : YAML_TYPE;
    const res =
      verb === 'POST'
        ? await ts.api.request('POST', DEPLOYMENTS, unknownBody(name), headers)
        : await write(verb, name, unknownBody(name), format, '');
    expect(res.status).toBe(SUCCESS[verb]);
    expect(warnings(res)).toEqual(['unknown field "spec.foo"']);
  });

  it('Strict: refuses an unknown field with 400', async () => {
    const name = uniqueName('strict-unknown');
    const res = await write(verb, name, unknownBody(name), format, 'Strict');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      message: `${CANNOT_BE_HANDLED}strict decoding error: unknown field "spec.foo"`,
    });
  });

  it('Ignore: keeps the last of repeated fields silently', async () => {
    const name = uniqueName('ignore-repeat');
    const res = await write(verb, name, repeatedBody(name), format, 'Ignore');
    expect(res.status).toBe(SUCCESS[verb]);
    expect(res.headers.get('warning')).toBeNull();
    expect((await stored(name)).spec.replicas).toBe(2);
  });

  it('Warn: warns of a repeated field', async () => {
    const name = uniqueName('warn-repeat');
    const res = await write(verb, name, repeatedBody(name), format, 'Warn');
    expect(res.status).toBe(SUCCESS[verb]);
    expect(warnings(res)).toEqual([repeated]);
    expect(res.body.spec.replicas).toBe(2);
  });

  it('Strict: refuses a repeated field with 400', async () => {
    const name = uniqueName('strict-repeat');
    const res = await write(verb, name, repeatedBody(name), format, 'Strict');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`${CANNOT_BE_HANDLED}strict decoding error: ${repeatedStrict}`);
  });

  it.each(['Ignore', 'Warn', 'Strict'])('%s: a type error is 400, also beside an unknown field', async (level) => {
    const name = uniqueName('type-error');
    const body =
      format === 'json'
        ? deploymentJson(name, '"foo":1,"replicas":"x",')
        : deploymentYaml(name, ['foo: 1', 'replicas: "x"']);
    const res = await write(verb, name, body, format, level);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ reason: 'BadRequest', message: `${CANNOT_BE_HANDLED}${REPLICAS_TYPE_ERROR}` });
  });
});

describe('POST with several problems', () => {
  it('Strict lists every unknown and repeated field in one message, in document order', async () => {
    const body = deploymentJson('many', '"foo":1,"replicas":3,', '"bar":true,').replace(
      '"image":"nginx:1.25"',
      '"image":"nginx:1.25","imagePullPolicyX":"Always"',
    );
    const res = await ts.api.request('POST', `${DEPLOYMENTS}?fieldValidation=Strict`, body, JSON_TYPE);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `${CANNOT_BE_HANDLED}strict decoding error: unknown field "bar", unknown field "spec.foo", duplicate field "spec.replicas", unknown field "spec.template.spec.containers[0].imagePullPolicyX"`,
    );
  });

  it('Warn sends one Warning header value per problem', async () => {
    const body = deploymentJson('many-warn', '"foo":1,"replicas":3,', '"bar":true,');
    const res = await ts.api.request('POST', `${DEPLOYMENTS}?fieldValidation=Warn`, body, JSON_TYPE);
    expect(res.status).toBe(201);
    expect(warnings(res)).toEqual([
      'unknown field "bar"',
      'unknown field "spec.foo"',
      'duplicate field "spec.replicas"',
    ]);
    expect(await stored('many-warn')).not.toHaveProperty('bar');
  });

  it('reports a repeated label key by its path', async () => {
    const body = deploymentJson('labels').replace(
      '"metadata":{"name":"labels"}',
      '"metadata":{"name":"labels","labels":{"a":"1","a":"2"}}',
    );
    const res = await ts.api.request('POST', DEPLOYMENTS, body, JSON_TYPE);
    expect(res.status).toBe(201);
    expect(warnings(res)).toEqual(['duplicate field "metadata.labels.a"']);
    expect(res.body.metadata.labels).toEqual({ a: '2' });
  });

  it('refuses an unsupported fieldValidation value with 422', async () => {
    const res = await ts.api.request(
      'POST',
      `${DEPLOYMENTS}?fieldValidation=strict`,
      deploymentJson('bad-level'),
      JSON_TYPE,
    );
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'CreateOptions.meta.orch.io "" is invalid: fieldValidation: Unsupported value: "strict": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });

  it('answers a wrong type in a nested struct with Go’s struct and field path', async () => {
    const body = deploymentJson('nested').replace(
      '"image":"nginx:1.25"',
      '"image":"nginx:1.25","ports":[{"containerPort":"80"}]',
    );
    const res = await ts.api.request('POST', DEPLOYMENTS, body, JSON_TYPE);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `${CANNOT_BE_HANDLED}json: cannot unmarshal string into Go struct field ContainerPort.spec.template.spec.containers.ports.containerPort of type int32`,
    );
  });

  it('answers a malformed quantity with ParseQuantity’s text', async () => {
    const body = deploymentJson('quantity').replace(
      '"image":"nginx:1.25"',
      '"image":"nginx:1.25","resources":{"limits":{"cpu":"lots"}}',
    );
    const res = await ts.api.request('POST', DEPLOYMENTS, body, JSON_TYPE);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      `${CANNOT_BE_HANDLED}quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'`,
    );
  });

  it('answers a non-string kind as the type-meta decoder does', async () => {
    const res = await ts.api.request('POST', DEPLOYMENTS, '{"kind":5}', JSON_TYPE);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'the object provided is unrecognized (must be of type Deployment): couldn\'t get version/kind; json parse error: json: cannot unmarshal number into Go struct field .kind of type string ({"kind":5})',
    );
  });
});

describe('PATCH', () => {
  const MERGE = 'application/merge-patch+json';

  async function patch(level: string, body: string, contentType = MERGE): Promise<{ name: string; res: ApiResponse }> {
    const name = uniqueName('patch');
    expect((await ts.api.request('POST', DEPLOYMENTS, deploymentJson(name), JSON_TYPE)).status).toBe(201);
    const res = await ts.api.request('PATCH', `${DEPLOYMENTS}/${name}?fieldValidation=${level}`, body, {
      'Content-Type': contentType,
    });
    return { name, res };
  }

  it('Ignore: drops an unknown field of a merge patch', async () => {
    const { name, res } = await patch('Ignore', '{"spec":{"foo":1,"replicas":2}}');
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toBeNull();
    expect((await stored(name)).spec).toMatchObject({ replicas: 2 });
    expect((await stored(name)).spec).not.toHaveProperty('foo');
  });

  it('Warn: warns of an unknown field and of a repeated key in the patch', async () => {
    const { name, res } = await patch('Warn', '{"spec":{"foo":1,"replicas":2,"replicas":3}}');
    expect(res.status).toBe(200);
    expect(warnings(res)).toEqual(['duplicate field "spec.replicas"', 'unknown field "spec.foo"']);
    expect((await stored(name)).spec).not.toHaveProperty('foo');
    expect((await stored(name)).spec.replicas).toBe(3);
  });

  it('Strict: refuses an unknown field with 422 showing the patched object', async () => {
    const { res } = await patch('Strict', '{"spec":{"foo":1}}');
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.message).toMatch(
      /^ "" is invalid: patch: Invalid value: "\{\\"apiVersion\\":\\"apps\/v1\\",.*\\"foo\\":1.*\}": strict decoding error: unknown field "spec.foo"$/,
    );
    expect(res.body.details.causes).toEqual([expect.objectContaining({ reason: 'FieldValueInvalid', field: 'patch' })]);
  });

  it('Strict: refuses a repeated key of the patch with 422', async () => {
    const { res } = await patch('Strict', '{"spec":{"replicas":2,"replicas":3}}');
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(/: strict decoding error: duplicate field "spec.replicas"$/);
  });

  it.each(['Ignore', 'Warn', 'Strict'])('%s: a type error in the patched object is 422', async (level) => {
    const { res } = await patch(level, '{"spec":{"foo":1,"replicas":"x"}}');
    expect(res.status).toBe(422);
    expect(res.body.message).toMatch(
      new RegExp(`^ "" is invalid: patch: Invalid value: ".*": ${REPLICAS_TYPE_ERROR}$`),
    );
  });

  it('Warn: a JSON patch adding an unknown field, with an unknown operation field', async () => {
    const { name, res } = await patch(
      'Warn',
      '[{"op":"add","path":"/spec/foo","value":1,"extra":true}]',
      'application/json-patch+json',
    );
    expect(res.status).toBe(200);
    expect(warnings(res)).toEqual(['json patch unknown field "[0].extra"', 'unknown field "spec.foo"']);
    expect((await stored(name)).spec).not.toHaveProperty('foo');
  });

  it('Strict: a strategic merge patch shows the patch as Go prints a map', async () => {
    const { res } = await patch(
      'Strict',
      '{"spec":{"foo":1,"minReadySeconds":5}}',
      'application/strategic-merge-patch+json',
    );
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      ' "" is invalid: patch: Invalid value: "map[spec:map[foo:1 minReadySeconds:5]]": strict decoding error: unknown field "spec.foo"',
    );
  });

  it('a strategic merge patch with a wrong type gets the unstructured converter’s text', async () => {
    const { res } = await patch('Warn', '{"spec":{"replicas":"x"}}', 'application/strategic-merge-patch+json');
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      ' "" is invalid: patch: Invalid value: "map[spec:map[replicas:x]]": unrecognized type: int32',
    );
  });
});

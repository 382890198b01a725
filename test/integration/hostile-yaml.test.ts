// YAML bodies and applied configurations an outside audit or a fuzzer sent: each is answered as Kubernetes 1.26
// answers it (a 4xx Status with yaml.v2's, sigs.k8s.io/yaml's or the field manager's text), changes nothing when it
// fails, and leaves the server serving.
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'hostile-yaml';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

async function createDeployment(name: string): Promise<void> {
  const res = await ts.api.post(DEPLOYMENTS, aDeployment(name));
  expect(res.status).toBe(201);
}

async function resourceVersionOf(name: string): Promise<string | undefined> {
  const res = await ts.api.get(`${DEPLOYMENTS}/${name}`);
  return res.status === 200 ? (res.body.metadata.resourceVersion as string) : undefined;
}

describe('YAML aliases', () => {
  /** A document of `levels` levels, each a list of nine aliases of the one before: 9^levels nodes once expanded. */
  function aliasBomb(levels: number): string {
    const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i <= levels; i++)
      lines.push(
        `a${i}: &a${i} [${Array(9)
          .fill(`*a${i - 1}`)
          .join(', ')}]`,
      );
    return `apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: bomb\nspec:\n  ${lines.join('\n  ')}\n`;
  }

  it.each([
    [
      'POST',
      DEPLOYMENTS,
      'application/yaml',
      'error converting YAML to JSON: yaml: document contains excessive aliasing',
    ],
    [
      'PATCH',
      `${DEPLOYMENTS}/bomb?fieldManager=m`,
      'application/apply-patch+yaml',
      'error decoding YAML: yaml: document contains excessive aliasing',
    ],
  ])('%s of a 500-byte alias bomb is refused at once, as yaml.v2 refuses it', async (method, path, type, message) => {
    const res = await ts.api.request(method, path, aliasBomb(8), { 'Content-Type': type });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
    expect((await ts.api.get('/readyz')).status).toBe(200);
  });

  it('an anchor that contains its own alias is yaml.v2 text', async () => {
    const res = await ts.api.request(
      'POST',
      DEPLOYMENTS,
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: &m\n  name: self\n  labels: *m\n',
      { 'Content-Type': 'application/yaml' },
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("error converting YAML to JSON: yaml: anchor 'm' value contains itself");
  });

  it('ordinary aliases still decode', async () => {
    const res = await ts.api.request(
      'POST',
      DEPLOYMENTS,
      [
        'apiVersion: apps/v1',
        'kind: Deployment',
        'metadata:',
        '  name: aliased',
        '  labels: &labels {app: aliased}',
        'spec:',
        '  selector: {matchLabels: *labels}',
        '  template:',
        '    metadata: {labels: *labels}',
        '    spec: {containers: [{name: main, image: nginx}]}',
      ].join('\n'),
      { 'Content-Type': 'application/yaml' },
    );
    expect(res.status).toBe(201);
    expect(res.body.spec.selector.matchLabels).toEqual({ app: 'aliased' });
  });
});

describe('YAML scalars and keys as yaml.v2 and sigs.k8s.io/yaml take them', () => {
  const yamlDeployment = (name: string, extra: string): string =>
    [
      'apiVersion: apps/v1',
      'kind: Deployment',
      'metadata:',
      `  name: ${name}`,
      'spec:',
      `  selector: {matchLabels: {app: ${name}}}`,
      '  template:',
      `    metadata: {labels: {app: ${name}}}`,
      `    spec: {containers: [{name: main, image: nginx}]${extra}}`,
    ].join('\n');

  it.each([
    [', activeDeadlineSeconds: !!int soon', 'yaml: cannot decode !!str `soon` as a !!int'],
    [', nodeSelector: {~: x}', 'Unsupported map key of type: %!s(<nil>), key: <nil>, value: "x"'],
    [', nodeSelector: {[a]: x}', 'yaml: invalid map key: []interface {}{"a"}'],
  ])('a body with %j is 400 and creates nothing', async (extra, detail) => {
    const create = await ts.api.request('POST', DEPLOYMENTS, yamlDeployment('odd-yaml', extra), {
      'Content-Type': 'application/yaml',
    });
    expect(create.status).toBe(400);
    expect(create.body.message).toBe(`error converting YAML to JSON: ${detail}`);
    const apply = await ts.api.request(
      'PATCH',
      `${DEPLOYMENTS}/odd-yaml?fieldManager=m`,
      yamlDeployment('odd-yaml', extra),
      { 'Content-Type': 'application/apply-patch+yaml' },
    );
    expect(apply.status).toBe(400);
    expect(apply.body.message).toBe(`error decoding YAML: ${detail}`);
    expect(await resourceVersionOf('odd-yaml')).toBeUndefined();
  });
});

describe('an applied configuration whose metadata is not an object', () => {
  it.each([
    ['"x"', '&{x}', 'string'],
    ['5', '&{5}', 'number'],
    ['false', '&{false}', 'bool'],
  ])('metadata %s is 400 failed to create typed patch object, and changes nothing', async (metadata, shown, kind) => {
    const existing = `scalar-meta-${kind}`;
    await createDeployment(existing);
    const before = await resourceVersionOf(existing);
    for (const name of [existing, `${existing}-new`]) {
      const res = await ts.api.request(
        'PATCH',
        `${DEPLOYMENTS}/${name}?fieldManager=m&force=true`,
        `{"apiVersion":"apps/v1","kind":"Deployment","metadata":${metadata}}`,
        { 'Content-Type': 'application/apply-patch+yaml' },
      );
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(
        `failed to create typed patch object (/; apps/v1, Kind=Deployment): .metadata: expected map, got ${shown}`,
      );
    }
    expect(await resourceVersionOf(existing)).toBe(before);
    expect(await resourceVersionOf(`${existing}-new`)).toBeUndefined();
  });
});

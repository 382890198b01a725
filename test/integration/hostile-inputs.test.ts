// Inputs an outside audit sent: each is answered as Kubernetes 1.26 answers it (a 4xx Status, or success), changes
// nothing when it fails, and leaves the server serving.
import { request } from 'node:http';
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'hostile';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

async function createDeployment(name: string, extra: Record<string, unknown> = {}): Promise<void> {
  const res = await ts.api.post(DEPLOYMENTS, aDeployment(name, extra));
  expect(res.status).toBe(201);
}

async function resourceVersionOf(name: string): Promise<string | undefined> {
  const res = await ts.api.get(`${DEPLOYMENTS}/${name}`);
  return res.status === 200 ? (res.body.metadata.resourceVersion as string) : undefined;
}

/** One request with headers as given, the response head's raw bytes kept (fetch reads header values as latin1). */
function rawRequest(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const { hostname, port } = new URL(ts.url);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('DeleteOptions bodies are decoded as Go decodes them', () => {
  it.each([
    [{ dryRun: 'All' }, 'json: cannot unmarshal string into Go struct field DeleteOptions.dryRun of type []string'],
    [
      { preconditions: { uid: 5 } },
      'json: cannot unmarshal number into Go struct field Preconditions.preconditions.uid of type types.UID',
    ],
    [
      { propagationPolicy: 5 },
      'json: cannot unmarshal number into Go struct field DeleteOptions.propagationPolicy of type v1.DeletionPropagation',
    ],
  ])('a wrongly typed %j is 400 and deletes nothing', async (options, detail) => {
    await createDeployment('typed-body');
    const res = await ts.api.delete(`${DEPLOYMENTS}/typed-body`, options);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(`couldn't decode DeleteOptions: ${detail}`);
    expect(await resourceVersionOf('typed-body')).toBeDefined();
    expect((await ts.api.delete(`${DEPLOYMENTS}/typed-body`)).status).toBe(200);
  });

  it('a wrongly typed dryRun in a deletecollection body deletes nothing', async () => {
    await createDeployment('typed-collection', { metadata: { name: 'typed-collection', labels: { grp: 'dc' } } });
    const res = await ts.api.delete(`${DEPLOYMENTS}?labelSelector=grp%3Ddc`, { dryRun: 'All' });
    expect(res.status).toBe(400);
    expect(await resourceVersionOf('typed-collection')).toBeDefined();
  });

  it('a YAML body is decoded alike, and a well-typed dry run stays dry', async () => {
    await createDeployment('yaml-body');
    const wrong = await ts.api.request('DELETE', `${DEPLOYMENTS}/yaml-body`, 'dryRun: All\n', {
      'Content-Type': 'application/yaml',
    });
    expect(wrong.status).toBe(400);
    const dry = await ts.api.request('DELETE', `${DEPLOYMENTS}/yaml-body`, 'dryRun: [All]\n', {
      'Content-Type': 'application/yaml',
    });
    expect(dry.status).toBe(200);
    expect(await resourceVersionOf('yaml-body')).toBeDefined();
  });
});

describe('Warning headers', () => {
  it('carry a non-ASCII field name as UTF-8, and the write succeeds', async () => {
    const body = aDeployment('utf8-warning');
    body['spec']['名前'] = 1;
    const res = await rawRequest('POST', DEPLOYMENTS, { 'Content-Type': 'application/json' }, JSON.stringify(body));
    expect(res.status).toBe(201);
    const warning = String(res.headers['warning']);
    expect(Buffer.from(warning, 'latin1').toString('utf8')).toBe('299 - "unknown field \\"spec.名前\\""');
  });

  it('drop a text with a newline, as Kubernetes drops it, and the write succeeds exactly once', async () => {
    await createDeployment('newline-warning');
    const before = await resourceVersionOf('newline-warning');
    const apply =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: newline-warning\n  annotations:\n    dup: "1"\n    dup: "2"\n';
    const res = await ts.api.request('PATCH', `${DEPLOYMENTS}/newline-warning?fieldManager=dupper`, apply, {
      'Content-Type': 'application/apply-patch+yaml',
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('warning')).toBeNull();
    expect(res.body.metadata.annotations).toEqual({ dup: '2' });
    expect(res.body.metadata.resourceVersion).not.toBe(before);
  });
});

describe('request heads up to 1 MiB, as kube-apiserver takes them', () => {
  it('a 20 KiB header and a 20 KiB selector are served', async () => {
    await createDeployment('big-head');
    const header = await rawRequest('GET', `${DEPLOYMENTS}/big-head`, { 'X-Padding': 'a'.repeat(20_000) });
    expect(header.status).toBe(200);
    const values = Array.from({ length: 2_000 }, (_, i) => `v${i}`).join(',');
    const selector = await ts.api.get(`${DEPLOYMENTS}?labelSelector=app+in+(big-head,${values})`);
    expect(selector.status).toBe(200);
    expect(selector.body.items.map((d: { metadata: { name: string } }) => d.metadata.name)).toEqual(['big-head']);
  });
});

describe('integer query parameters as strconv parses them', () => {
  it.each([
    ['limit=', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['timeoutSeconds=', 'strconv.ParseInt: parsing "": invalid syntax'],
    ['limit=9223372036854775808', 'strconv.ParseInt: parsing "9223372036854775808": value out of range'],
    [
      'resourceVersion=99999999999999999999999',
      'invalid resource version: resourceVersion: Invalid value: "99999999999999999999999": strconv.ParseUint: parsing "99999999999999999999999": value out of range',
    ],
  ])('LIST ?%s is 400', async (query, message) => {
    const res = await ts.api.get(`${DEPLOYMENTS}?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(message);
  });

  it('DELETE ?gracePeriodSeconds= is 400 and deletes nothing', async () => {
    await createDeployment('empty-grace');
    const res = await ts.api.delete(`${DEPLOYMENTS}/empty-grace?gracePeriodSeconds=`);
    expect(res.status).toBe(400);
    expect(await resourceVersionOf('empty-grace')).toBeDefined();
  });
});

describe('a resourceVersion in the body that is not a revision', () => {
  it.each([
    ['PUT', 'abc'],
    ['PATCH', 'abc'],
    ['PUT', '99999999999999999999999'],
  ])('%s with %j is 400 (never a 409 a retry loop would repeat) and changes nothing', async (method, rv) => {
    await createDeployment('bad-rv');
    const before = await ts.api.get(`${DEPLOYMENTS}/bad-rv`);
    const res =
      method === 'PUT'
        ? await ts.api.put(`${DEPLOYMENTS}/bad-rv`, {
            ...before.body,
            metadata: { ...before.body.metadata, resourceVersion: rv, labels: { app: 'bad-rv', changed: 'yes' } },
          })
        : await ts.api.patch(`${DEPLOYMENTS}/bad-rv`, {
            metadata: { resourceVersion: rv, labels: { changed: 'yes' } },
          });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      new RegExp(
        `^invalid resource version: resourceVersion: Invalid value: "${rv}": strconv.ParseUint: parsing "${rv}": `,
      ),
    );
    expect(await resourceVersionOf('bad-rv')).toBe(before.body.metadata.resourceVersion);
    await ts.api.delete(`${DEPLOYMENTS}/bad-rv`);
  });
});

describe('Content-Type of a body, as Go mime.ParseMediaType reads it', () => {
  it.each([
    ['application/json; foo', 415],
    ['application/json; charset=utf-8; charset=utf-8', 415],
    ['application/json; charset=utf-8', 201],
    ['application/json; charset="utf-8"', 201],
    ['application/json;', 201],
  ])('%s is %d', async (type, status) => {
    const res = await ts.api.request('POST', `${DEPLOYMENTS}?dryRun=All`, aDeployment('typed'), {
      'Content-Type': type,
    });
    expect(res.status).toBe(status);
  });
});

describe('a JSON or merge patch that changes the type', () => {
  it.each([
    ['application/json-patch+json', [{ op: 'replace', path: '/kind', value: 'Namespace' }], 'Namespace', 'apps/v1'],
    ['application/merge-patch+json', { apiVersion: 'v1' }, 'Deployment', 'v1'],
  ])('%s is 422 and changes nothing', async (type, patch, kind, version) => {
    await createDeployment('retyped');
    const before = await resourceVersionOf('retyped');
    const res = await ts.api.patch(`${DEPLOYMENTS}/retyped`, patch, type);
    expect(res.status).toBe(422);
    expect(res.body.message).toContain(
      `no kind "${kind}" is registered for version "${version}" in scheme "pkg/api/legacyscheme/scheme.go:30"`,
    );
    expect(await resourceVersionOf('retyped')).toBe(before);
    await ts.api.delete(`${DEPLOYMENTS}/retyped`);
  });

  it('naming the served type again is a normal patch', async () => {
    await createDeployment('same-type');
    const res = await ts.api.patch(`${DEPLOYMENTS}/same-type`, { apiVersion: 'apps/v1', kind: 'Deployment' });
    expect(res.status).toBe(200);
  });
});

describe('metadata', () => {
  it('ownerReferences are validated (ValidateOwnerReferences)', async () => {
    const res = await ts.api.post(DEPLOYMENTS, {
      ...aDeployment('owned'),
      metadata: {
        name: 'owned',
        ownerReferences: [
          { apiVersion: 'apps/', kind: '', name: '', uid: '' },
          { apiVersion: 'v1', kind: 'A', name: 'a', uid: '1', controller: true },
          { apiVersion: 'v1', kind: 'B', name: 'b', uid: '2', controller: true },
        ],
      },
    });
    expect(res.status).toBe(422);
    const causes = (res.body.details.causes as { field: string; message: string }[]).map(
      (c) => `${c.field}: ${c.message.replace(/^Invalid value: .*?: /, '')}`,
    );
    expect(causes).toEqual([
      'metadata.ownerReferences.apiVersion: version must not be empty',
      'metadata.ownerReferences.kind: kind must not be empty',
      'metadata.ownerReferences.name: name must not be empty',
      'metadata.ownerReferences.uid: uid must not be empty',
      'metadata.ownerReferences: Only one reference can have Controller set to true. Found "true" in references for A/a and B/b',
    ]);
    expect((await ts.api.get(`${DEPLOYMENTS}/owned`)).status).toBe(404);
  });

  it('a null label value or list element is the zero value, as Go decodes it', async () => {
    const body = aDeployment('nulls');
    body['metadata'].labels = { app: 'nulls', empty: null };
    body['spec'].template.spec.containers[0].args = [null, 'a'];
    const res = await ts.api.post(DEPLOYMENTS, body);
    expect(res.status).toBe(201);
    expect(res.body.metadata.labels).toEqual({ app: 'nulls', empty: '' });
    expect(res.body.spec.template.spec.containers[0].args).toEqual(['', 'a']);
  });

  it('a null struct in a list is an empty struct, and apply onto it names the stored object', async () => {
    const path = `/api/v1/namespaces/${NS}/serviceaccounts`;
    const res = await ts.api.post(path, {
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      metadata: { name: 'nulls' },
      secrets: [null],
    });
    expect(res.status).toBe(201);
    expect(res.body.secrets).toEqual([{}]);
    const apply = await ts.api.request(
      'PATCH',
      `${path}/nulls?fieldManager=m`,
      JSON.stringify({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: 'nulls', labels: { a: 'b' } } }),
      { 'Content-Type': 'application/apply-patch+yaml' },
    );
    expect(apply.status).toBe(400);
    expect(apply.body.message).toBe(
      `failed to create typed live object (${NS}/nulls; /v1, Kind=ServiceAccount): .secrets: element 0: associative list with keys has an element that omits key field "name" (and doesn't have default value)`,
    );
    const after = await ts.api.get(`${path}/nulls`);
    expect(after.body.metadata.labels).toBeUndefined();
  });
});

describe('[]byte fields are base64', () => {
  it('a caBundle that is not base64 is 400 with Go text, and nothing is stored', async () => {
    const path = '/apis/admissionregistration.orch.io/v1/validatingwebhookconfigurations';
    const res = await ts.api.post(path, {
      apiVersion: 'admissionregistration.orch.io/v1',
      kind: 'ValidatingWebhookConfiguration',
      metadata: { name: 'bad-ca' },
      webhooks: [
        {
          name: 'a.example.com',
          clientConfig: { url: 'https://127.0.0.1:9/x', caBundle: '!!!' },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'ValidatingWebhookConfiguration in version "v1" cannot be handled as a ValidatingWebhookConfiguration: illegal base64 data at input byte 0',
    );
    expect((await ts.api.get(`${path}/bad-ca`)).status).toBe(404);
  });
});

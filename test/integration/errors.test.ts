import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment, FLOWCONTROL } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'errs';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

describe('bad input gets a Kubernetes Status', () => {
  it('answers 400 for malformed JSON', async () => {
    const res = await ts.api.post(DEPLOYMENTS, '{');
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'BadRequest',
      code: 400,
      message:
        "the object provided is unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: unexpected end of JSON input ({)",
    });
  });

  it('answers 400 when the body is of another kind (the decoded kind does not convert to the URL kind)', async () => {
    const res = await ts.api.post(DEPLOYMENTS, { ...aDeployment('x'), apiVersion: 'v1', kind: 'Namespace' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'Namespace in version "v1" cannot be handled as a Deployment: converting (v1.Namespace) to (apps.Deployment): unknown conversion',
    );
  });

  it('answers 400 for an unknown kind', async () => {
    const res = await ts.api.post(DEPLOYMENTS, { ...aDeployment('x'), kind: 'Gadget' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'Gadget in version "v1" cannot be handled as a Deployment: no kind "Gadget" is registered for version "apps/v1" in scheme "pkg/api/legacyscheme/scheme.go:30"',
    );
  });

  it('answers 400 when the body namespace disagrees with the URL', async () => {
    const obj = aDeployment('x');
    obj['metadata'].namespace = 'elsewhere';
    const res = await ts.api.post(DEPLOYMENTS, obj);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'the namespace of the provided object does not match the namespace sent on the request',
    );
  });

  it('answers 400 when a PUT names another object than the URL', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('named'));
    const res = await ts.api.put(`${DEPLOYMENTS}/named`, aDeployment('other'));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('the name of the object (other) does not match the name on the URL (named)');
  });

  it('answers 400 for a metadata field of the wrong type', async () => {
    const obj = aDeployment('x');
    obj['metadata'].labels = { app: 5 };
    const res = await ts.api.post(DEPLOYMENTS, obj);
    expect(res.status).toBe(400);
    expect(res.body.reason).toBe('BadRequest');
  });

  it('answers 422 Invalid with one cause per field error', async () => {
    const obj = aDeployment('Bad_Name');
    obj['spec'].replicas = -1;
    const res = await ts.api.post(DEPLOYMENTS, obj);
    expect(res.status).toBe(422);
    expect(res.body.reason).toBe('Invalid');
    expect(res.body.message).toMatch(
      /^Deployment\.apps "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
    );
    expect(res.body.message).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    expect(res.body.details).toMatchObject({ name: 'Bad_Name', group: 'apps', kind: 'Deployment' });
    expect(res.body.details.causes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: 'FieldValueInvalid', field: 'metadata.name' }),
        expect.objectContaining({
          reason: 'FieldValueInvalid',
          field: 'spec.replicas',
          message: 'Invalid value: -1: must be greater than or equal to 0',
        }),
      ]),
    );
  });

  it('requires a name or generateName', async () => {
    const obj = aDeployment('x');
    delete obj['metadata'].name;
    const res = await ts.api.post(DEPLOYMENTS, obj);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'Deployment.apps "" is invalid: metadata.name: Required value: name or generateName is required',
    );
  });

  it('answers 413 for a body over 3 MiB', async () => {
    const obj = aDeployment('big');
    obj['metadata'].annotations = { big: 'x'.repeat(3 * 1024 * 1024) };
    const res = await ts.api.post(DEPLOYMENTS, obj);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: limit is 3145728',
    });
  });

  it('answers 415 for an unsupported body type', async () => {
    const res = await ts.api.post(DEPLOYMENTS, 'name: x', { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body.reason).toBe('UnsupportedMediaType');
  });

  it('answers 415 for a PATCH content type it does not know', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('patchy'));
    const res = await ts.api.patch(`${DEPLOYMENTS}/patchy`, {}, 'application/xml');
    expect(res.status).toBe(415);
  });

  it('answers 406 when nothing in Accept can be produced', async () => {
    const res = await ts.api.get(DEPLOYMENTS, { Accept: 'text/html' });
    expect(res.status).toBe(406);
    expect(res.body).toMatchObject({
      reason: 'NotAcceptable',
      message:
        'only the following media types are accepted: application/json, application/yaml, application/vnd.orch.protobuf',
    });
  });

  it('answers 405 with Allow for a method the path does not take', async () => {
    const res = await ts.api.post('/apis/apps/v1/deployments', aDeployment('x'));
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET');
    expect(res.body).toMatchObject({
      reason: 'MethodNotAllowed',
      message: 'the server does not allow this method on the requested resource',
    });
  });

  it('answers 404 Status for an unknown resource of a served group', async () => {
    const res = await ts.api.get('/apis/apps/v1/gadgets');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource',
      reason: 'NotFound',
      details: {},
      code: 404,
    });
  });

  it('answers a plain 404 for an unknown group or path', async () => {
    for (const path of ['/apis/apps/v9/deployments', '/apis/gadgets.example/v1/things', '/nope']) {
      const res = await ts.api.get(path);
      expect(res.status).toBe(404);
      expect(res.text).toBe('404 page not found\n');
    }
  });

  it('answers 404 for a namespaced path of a cluster-scoped resource', async () => {
    const res = await ts.api.get(`/apis/flowcontrol.apiserver.orch.io/v1beta3/namespaces/${NS}/flowschemas`);
    expect(res.status).toBe(404);
    expect(FLOWCONTROL).toContain('flowcontrol');
  });

  it('answers 422 on CreateOptions for a bad dryRun value', async () => {
    const res = await ts.api.post(`${DEPLOYMENTS}?dryRun=Sometimes`, aDeployment('x'));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'CreateOptions.meta.orch.io "" is invalid: dryRun: Unsupported value: []string{"Sometimes"}: supported values: "All"',
    );
  });

  it('answers 400 for a non-integer limit', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?limit=ten`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('strconv.ParseInt: parsing "ten": invalid syntax');
  });

  it('answers 400 for a non-numeric resourceVersion', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?resourceVersion=abc`);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    );
  });

  it('answers 422 on ListOptions for resourceVersionMatch without resourceVersion', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?resourceVersionMatch=Exact`);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      'ListOptions.meta.orch.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
    );
  });
});

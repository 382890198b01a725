// Raw HTTP at the edges (paths as sent, deeply nested bodies): Kubernetes 1.26's answers, never a crash or a 500.
import { request } from 'node:http';
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
const NS = 'edges';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

/** One request with the path exactly as given (fetch would resolve `..` and `%2e%2e`). */
function raw(
  method: string,
  path: string,
  body?: string,
  contentType = 'application/json',
): Promise<{ status: number; contentType: string; text: string }> {
  const { hostname, port } = new URL(ts.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, method, path, headers: body === undefined ? {} : { 'Content-Type': contentType } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers['content-type']),
            text: Buffer.concat(chunks).toString('utf8'),
          }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const messageOf = (text: string): unknown => (JSON.parse(text) as { message?: unknown }).message;

describe('names in the path', () => {
  it.each([
    ['GET', '/api/v1/namespaces/..', `Name parameter invalid: "..": may not be '..'`],
    ['GET', '/api/v1/namespaces/.', `Name parameter invalid: ".": may not be '.'`],
    ['DELETE', `${DEPLOYMENTS}/..`, `Name parameter invalid: "..": may not be '..'`],
    ['GET', `${DEPLOYMENTS}/a%25b`, `Name parameter invalid: "a%b": may not contain '%'`],
  ])('%s %s is 400 from the registry key function', async (method, path, message) => {
    const res = await raw(method, path);
    expect(res.status).toBe(400);
    expect(messageOf(res.text)).toBe(message);
  });

  it('refuses a PUT to `..` with the key function text after the name check', async () => {
    const res = await raw('PUT', `${DEPLOYMENTS}/..`, JSON.stringify({ ...aDeployment('..') }));
    expect(res.status).toBe(400);
    expect(messageOf(res.text)).toBe(`Name parameter invalid: "..": may not be '..'`);
  });

  it('decodes %XX escapes before routing, as Go does', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('escaped'));
    const res = await raw('GET', `/apis/apps/v1/namespaces/${NS}/deployments/esc%61ped`);
    expect(res.status).toBe(200);
    expect((JSON.parse(res.text) as { metadata: { name: string } }).metadata.name).toBe('escaped');
    const status = await raw('GET', `/apis/apps/v1/namespaces/${NS}/deployments/escaped%2Fstatus`);
    expect(status.status).toBe(200);
    expect(messageOf(status.text)).toBeUndefined();
  });

  it('answers a malformed escape with Go net/http plain 400', async () => {
    const res = await raw('GET', `${DEPLOYMENTS}/a%zz`);
    expect(res.status).toBe(400);
    expect(res.contentType).toBe('text/plain; charset=utf-8');
    expect(res.text).toBe('400 Bad Request');
  });
});

describe('deeply nested bodies are 400, never a crash', () => {
  const nested = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
  const inAnnotation = (depth: number): string => `{"metadata":{"name":"deep","annotations":{"a":${nested(depth)}}}}`;

  it('refuses JSON nested too deeply with Go scanner text on create', async () => {
    const res = await raw('POST', DEPLOYMENTS, inAnnotation(50_000));
    expect(res.status).toBe(400);
    expect(messageOf(res.text)).toBe(
      `the object provided is unrecognized (must be of type Deployment): couldn't get version/kind; json parse error: invalid character '[' exceeded max depth ({"metadata":{"name":"deep","an ...)`,
    );
  });

  it('still decodes (and type-checks) moderately deep JSON', async () => {
    const res = await raw('POST', DEPLOYMENTS, inAnnotation(900));
    expect(res.status).toBe(400);
    expect(messageOf(res.text)).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal array into Go struct field ObjectMeta.metadata.annotations of type string',
    );
  });

  it.each([
    ['application/merge-patch+json', "error decoding patch: invalid character '[' exceeded max depth"],
    ['application/strategic-merge-patch+json', "invalid character '[' exceeded max depth"],
  ])('refuses a deep %s body', async (contentType, message) => {
    await ts.api.post(DEPLOYMENTS, aDeployment('patched'));
    const res = await raw(
      'PATCH',
      `${DEPLOYMENTS}/patched`,
      `{"metadata":{"annotations":{"a":${nested(20_000)}}}}`,
      contentType,
    );
    expect(res.status).toBe(400);
    expect(messageOf(res.text)).toBe(message);
  });

  it('refuses deep YAML before the YAML parser sees it (create and apply)', async () => {
    const body = `{"metadata":{"name":"deep","annotations":{"a":${nested(3_000)}}}}`;
    const created = await raw('POST', DEPLOYMENTS, body, 'application/yaml');
    expect(created.status).toBe(400);
    expect(messageOf(created.text)).toBe('error converting YAML to JSON: yaml: line 1: exceeded max depth of 200');
    const applied = await raw('PATCH', `${DEPLOYMENTS}/deep?fieldManager=t`, body, 'application/apply-patch+yaml');
    expect(applied.status).toBe(400);
    expect(messageOf(applied.text)).toBe('error decoding YAML: yaml: line 1: exceeded max depth of 200');
    expect((await ts.api.get('/readyz')).status).toBe(200);
  });
});

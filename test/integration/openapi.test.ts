// /openapi/v3 (root and group-version documents) and /openapi/v2 as a client fetches them: caching headers,
// redirects for stale hashes, v2 as gnostic protobuf, 406 for v3 protobuf, structurally valid documents that cover what discovery lists.
import { startTestServer, type TestServer } from '../helpers/test-server';
import { structuralProblems } from '../../lib/endpoints/openapi/testing/structure';
import { parse } from 'yaml';
import { readWireFields } from '../helpers/protobuf-decoder';

/** The length-delimited occurrences of field `n` (messages, strings). */
function all(message: Uint8Array, n: number): Uint8Array[] {
  return readWireFields(message).flatMap((f) => (f.number === n && f.value.wireType === 2 ? [f.value.bytes] : []));
}
function only(message: Uint8Array, n: number): Uint8Array {
  const [first, ...rest] = all(message, n);
  if (!first || rest.length > 0) throw new Error(`field ${n} occurs ${rest.length + (first ? 1 : 0)} times`);
  return first;
}
const text = (message: Uint8Array, n: number): string => Buffer.from(only(message, n)).toString('utf8');
/** The value (field 2) of the gnostic `Named*` entry (field `n`) called `name`. */
function named(message: Uint8Array, n: number, name: string): Uint8Array {
  const entry = all(message, n).find((e) => text(e, 1) === name);
  if (!entry) throw new Error(`no ${name} in field ${n}`);
  return only(entry, 2);
}

type Json = Record<string, any>;

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

async function rootPaths(): Promise<Record<string, { serverRelativeURL: string }>> {
  const res = await ts.api.get('/openapi/v3');
  expect(res.status).toBe(200);
  return res.body.paths;
}

/** Served group-versions and their resources, from discovery. */
async function discovered(): Promise<Array<{ key: string; resources: Json[] }>> {
  const out = [{ key: 'api/v1', resources: (await ts.api.get('/api/v1')).body.resources }];
  for (const group of (await ts.api.get('/apis')).body.groups) {
    for (const v of group.versions)
      out.push({
        key: `apis/${v.groupVersion}`,
        resources: (await ts.api.get(`/apis/${v.groupVersion}`)).body.resources,
      });
  }
  return out;
}

describe('/openapi/v3', () => {
  it('lists every served group-version with a server-relative URL carrying the document hash', async () => {
    const paths = await rootPaths();
    const served = await discovered();
    expect(Object.keys(paths).sort()).toEqual(served.map((s) => s.key).sort());
    for (const [key, { serverRelativeURL }] of Object.entries(paths))
      expect(serverRelativeURL).toMatch(new RegExp(`^/openapi/v3/${key.replace(/\./g, '\\.')}\\?hash=[0-9A-F]{128}$`));
  });

  it('answers each group-version URL with a valid OpenAPI 3.0 document documenting every discovered resource and kind', async () => {
    const paths = await rootPaths();
    for (const { key, resources } of await discovered()) {
      const res = await ts.api.get(paths[key]?.serverRelativeURL ?? '', { Accept: 'application/json' });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      const doc = res.body as Json;
      expect(structuralProblems(doc, true)).toEqual([]);
      const schemas = Object.values(doc['components']['schemas'] as Json);
      for (const r of resources) {
        const [resource, sub] = String(r['name']).split('/');
        // A create-only kind (the reviews) is documented at its collection, the others at their item path.
        const createOnly = JSON.stringify(r['verbs']) === '["create"]';
        const path = Object.keys(doc['paths']).find((p) =>
          p.endsWith(sub ? `/${resource}/{name}/${sub}` : createOnly ? `/${resource}` : `/${resource}/{name}`),
        );
        expect([r['name'], path]).toEqual([r['name'], expect.any(String)]);
        const gvk = {
          group: r['group'] ?? (key === 'api/v1' ? '' : key.split('/')[1]),
          kind: r['kind'],
          version: r['version'] ?? key.split('/').pop(),
        };
        const hasSchema = schemas.some((s: Json) =>
          (s['x-kubernetes-group-version-kind'] ?? []).some(
            (g: Json) => g['group'] === gvk.group && g['kind'] === gvk.kind && g['version'] === gvk.version,
          ),
        );
        expect([r['name'], hasSchema]).toEqual([r['name'], true]);
      }
    }
  });

  it('marks a document fetched by its current hash immutable, and answers If-None-Match with 304', async () => {
    const url = (await rootPaths())['apis/apps/v1']?.serverRelativeURL ?? '';
    const hash = new URL(url, ts.url).searchParams.get('hash');
    const res = await fetch(ts.url + url);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${hash}"`);
    expect(res.headers.get('cache-control')).toBe('public, immutable');
    expect(Date.parse(res.headers.get('expires') ?? '') - Date.now()).toBeGreaterThan(300 * 24 * 3600 * 1000);
    expect(res.headers.get('vary')).toBe('Accept');
    const again = await fetch(ts.url + url, { headers: { 'If-None-Match': `"${hash}"` } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
  });

  it('serves without a hash but without immutable caching', async () => {
    const res = await ts.api.get('/openapi/v3/apis/apps/v1');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBeNull();
    expect(res.body.openapi).toBe('3.0.0');
  });

  it('redirects a stale hash to the current document URL with 301', async () => {
    const current = (await rootPaths())['apis/apps/v1']?.serverRelativeURL;
    const res = await fetch(`${ts.url}/openapi/v3/apis/apps/v1?hash=0123ABCD`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe(current);
  });

  it('answers 406 to a protobuf-only Accept and 404 to a group-version it does not serve', async () => {
    const pb = await ts.api.get('/openapi/v3/apis/apps/v1', {
      Accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf',
    });
    expect(pb.status).toBe(406);
    const fallback = await ts.api.get('/openapi/v3/apis/apps/v1', {
      Accept: 'application/com.github.proto-openapi.spec.v3@v1.0+protobuf, application/json;q=0.5',
    });
    expect(fallback.status).toBe(200);
    expect((await ts.api.get('/openapi/v3/apis/apps/v1beta1')).status).toBe(404);
    expect((await ts.api.get('/openapi/v3/apis/apps/v1')).body.paths).toHaveProperty([
      '/apis/apps/v1/namespaces/{namespace}/deployments/{name}/scale',
    ]);
  });
});

describe('/openapi/v2', () => {
  it("serves one Swagger 2.0 document with every served group-version's paths (not the Kubernetes names)", async () => {
    const res = await ts.api.get('/openapi/v2', { Accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toMatch(/^"[0-9A-F]{128}"$/);
    expect(structuralProblems(res.body, false)).toEqual([]);
    const paths = Object.keys(res.body.paths);
    expect(paths.some((p) => p.startsWith('/apis/rbac.authorization.k8s.io/'))).toBe(false);
    // …whose kinds the definitions carry under both names, for clients that look a schema up by group-version-kind.
    expect(res.body.definitions['io.k8s.api.rbac.v1.Role']['x-kubernetes-group-version-kind']).toEqual([
      { group: 'rbac.authorization.orch.io', kind: 'Role', version: 'v1' },
      { group: 'rbac.authorization.k8s.io', kind: 'Role', version: 'v1' },
    ]);
    for (const { key, resources } of (await discovered()).filter((d) => !d.key.includes('.k8s.io/'))) {
      for (const r of resources.filter((x) => !String(x['name']).includes('/'))) {
        expect(Object.keys(res.body.paths).some((p) => p.startsWith(`/${key}/`) && p.endsWith(`/${r['name']}`))).toBe(
          true,
        );
      }
    }
  });

  it("serves gnostic protobuf to kubectl ≤ 1.28's Accept, with the JSON form's ETag, carrying definitions, extensions and parameters", async () => {
    const json = await ts.api.get('/openapi/v2', { Accept: 'application/json' });
    const res = await fetch(`${ts.url}/openapi/v2`, {
      headers: { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    expect(res.headers.get('etag')).toBe(json.headers.get('etag'));
    const doc = new Uint8Array(await res.arrayBuffer());
    expect(text(doc, 1)).toBe('2.0'); // Document.swagger
    // Document.definitions → Definitions.additional_properties (NamedSchema) → Schema
    const deployment = named(only(doc, 9), 1, 'io.k8s.api.apps.v1.Deployment');
    const gvk = named(deployment, 31, 'x-kubernetes-group-version-kind'); // Schema.vendor_extension → Any.yaml
    expect(parse(text(gvk, 2))).toEqual([{ group: 'apps', kind: 'Deployment', version: 'v1' }]);
    const spec = named(only(deployment, 25), 1, 'spec'); // Schema.properties
    expect(text(spec, 1)).toBe('#/definitions/io.k8s.api.apps.v1.DeploymentSpec');
    const containers = named(only(named(only(doc, 9), 1, 'io.k8s.api.core.v1.PodSpec'), 25), 1, 'containers');
    expect(text(named(containers, 31, 'x-kubernetes-patch-merge-key'), 2).trim()).toBe('name');
    expect(text(only(containers, 22), 1)).toBe('array'); // Schema.type → TypeItem.value
    // Document.paths → Paths.path → PathItem.patch → Operation.parameters → Parameter → NonBodyParameter.query
    const patch = only(named(only(doc, 8), 2, '/apis/apps/v1/namespaces/{namespace}/deployments/{name}'), 8);
    const parameters = all(patch, 8).map((item) => only(item, 1));
    expect(text(only(parameters[0] as Uint8Array, 1), 2)).toBe('body'); // Parameter.body_parameter.name
    const queryNames = parameters
      .flatMap((p) => all(p, 2))
      .flatMap((nonBody) => all(nonBody, 3))
      .map((q) => text(q, 4));
    expect(queryNames).toEqual(expect.arrayContaining(['dryRun', 'fieldManager', 'fieldValidation', 'force']));
  });

  it.each([
    ['application/json, */*', 'application/json'],
    [
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    ],
    [
      'application/json;q=0.5, application/com.github.proto-openapi.spec.v2@v1.0+protobuf',
      'application/com.github.proto-openapi.spec.v2.v1.0+protobuf',
    ],
  ])('negotiates Accept %s to %s', async (accept, contentType) => {
    const res = await fetch(`${ts.url}/openapi/v2`, { headers: { Accept: accept } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(contentType);
  });

  it('answers 406 to an Accept it cannot serve', async () => {
    expect((await ts.api.get('/openapi/v2', { Accept: 'application/vnd.orch.protobuf' })).status).toBe(406);
  });

  it('is listed in the root paths', async () => {
    expect((await ts.api.get('/')).body.paths).toEqual(expect.arrayContaining(['/openapi/v2', '/openapi/v3']));
  });
});

// PATCH over HTTP on real etcd: strategic merge, JSON and merge patches, their Kubernetes error statuses and texts, preconditions.
import type { Etcd3 } from 'etcd3';
import { type TestServer, startServerWithEtcdClient, stopServerWithEtcdClient } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
let etcd: Etcd3;
const NS = 'patching';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const STRATEGIC = 'application/strategic-merge-patch+json';
const JSON_PATCH = 'application/json-patch+json';
const MERGE = 'application/merge-patch+json';
const REJECTED = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server rejected our request due to an error in our request',
  reason: 'Invalid',
  details: {},
  code: 422,
};

beforeAll(async () => ({ ts, etcd } = await startServerWithEtcdClient(NS)));
afterAll(() => stopServerWithEtcdClient(ts, etcd));

/** A Deployment with two containers (`main` with two env vars, `sidecar`), created over HTTP. */
async function created(name: string): Promise<Record<string, any>> {
  const dep = aDeployment(name);
  dep['spec'].template.spec.containers = [
    {
      name: 'main',
      image: 'nginx:1.25',
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
    },
    { name: 'sidecar', image: 'envoy:1' },
  ];
  const res = await ts.api.post(DEPLOYMENTS, dep);
  if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${res.text}`);
  return res.body;
}

async function stored(name: string): Promise<Record<string, any>> {
  const raw = await etcd.get(`/registry/apps/deployments/${NS}/${name}`).string();
  if (raw === null) throw new Error(`${name} is not in etcd`);
  return JSON.parse(raw);
}

const patchOf = (containers: unknown[]): Record<string, unknown> => ({ spec: { template: { spec: { containers } } } });
const badRequest = (message: string): Record<string, unknown> => ({
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message,
  reason: 'BadRequest',
  code: 400,
});

describe('strategic merge patch', () => {
  it('merges containers by name, keeping the others, and stores the result', async () => {
    await created('smp-merge');
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/smp-merge`,
      patchOf([{ name: 'main', image: 'nginx:2', env: [{ name: 'C', value: '3' }] }]),
      STRATEGIC,
    );
    expect(res.status).toBe(200);
    const expected = [
      {
        name: 'main',
        image: 'nginx:2',
        env: [
          { name: 'C', value: '3' },
          { name: 'A', value: '1' },
          { name: 'B', value: '2' },
        ],
      },
      { name: 'sidecar', image: 'envoy:1' },
    ];
    expect(res.body.spec.template.spec.containers).toMatchObject(expected);
    expect((await stored('smp-merge')).spec.template.spec.containers).toMatchObject(expected);
    expect(res.body.metadata.generation).toBe(2);
  });

  it('removes a container with $patch: delete', async () => {
    await created('smp-delete');
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/smp-delete`,
      patchOf([{ name: 'sidecar', $patch: 'delete' }]),
      STRATEGIC,
    );
    expect(res.status).toBe(200);
    expect(res.body.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['main']);
  });

  it('switches the strategy to Recreate with $retainKeys, which a merge patch cannot do', async () => {
    await created('smp-retain');
    const merge = await ts.api.patch(`${DEPLOYMENTS}/smp-retain`, { spec: { strategy: { type: 'Recreate' } } }, MERGE);
    expect(merge.status).toBe(422);
    expect(merge.body.message).toContain(
      "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'",
    );
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/smp-retain`,
      { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } },
      STRATEGIC,
    );
    expect(res.status).toBe(200);
    expect(res.body.spec.strategy).toEqual({ type: 'Recreate' });
  });

  it('merges status conditions by type through the status subresource', async () => {
    await created('smp-status');
    const first = await ts.api.patch(
      `${DEPLOYMENTS}/smp-status/status`,
      { status: { conditions: [{ type: 'Available', status: 'True' }] } },
      STRATEGIC,
    );
    expect(first.status).toBe(200);
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/smp-status/status`,
      { status: { conditions: [{ type: 'Progressing', status: 'True' }] } },
      STRATEGIC,
    );
    expect(res.status).toBe(200);
    expect(res.body.status.conditions.map((c: { type: string }) => c.type).sort()).toEqual([
      'Available',
      'Progressing',
    ]);
  });

  it('answers a list element without its merge key with 400 BadRequest and the Kubernetes text (Kubernetes: a bare 500)', async () => {
    await created('smp-nokey');
    const res = await ts.api.patch(`${DEPLOYMENTS}/smp-nokey`, patchOf([{ image: 'nginx:2' }]), STRATEGIC);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'map: map[image:nginx:2] does not contain declared merge key: name',
      reason: 'BadRequest',
      code: 400,
    });
  });

  it('answers a malformed $retainKeys with 400', async () => {
    await created('smp-badretain');
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/smp-badretain`,
      { spec: { strategy: { $retainKeys: 'type', type: 'Recreate' } } },
      STRATEGIC,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(badRequest('invalid patch format of retainKeys'));
  });

  it('answers a list of lists by the state of the list it patches (Go never stores an empty list: omitempty)', async () => {
    await created('smp-lists');
    const emptied = await ts.api.patch(`${DEPLOYMENTS}/smp-lists`, { metadata: { finalizers: [] } }, MERGE);
    expect(emptied.body.metadata).not.toHaveProperty('finalizers');
    // No list to merge into: the patched object fails to decode into the Go type (FromUnstructured).
    const absent = await ts.api.patch(
      `${DEPLOYMENTS}/smp-lists`,
      { metadata: { finalizers: [['example.com/a']] } },
      STRATEGIC,
    );
    expect(absent.status).toBe(422);
    expect(absent.body.message).toBe(
      ' "" is invalid: patch: Invalid value: "map[metadata:map[finalizers:[[example.com/a]]]]": unrecognized type: string',
    );
    // A list of strings to merge into: the element types differ (mergepatch's text, 400).
    await ts.api.patch(`${DEPLOYMENTS}/smp-lists`, { metadata: { finalizers: ['example.com/x'] } }, MERGE);
    const mixed = await ts.api.patch(
      `${DEPLOYMENTS}/smp-lists`,
      { metadata: { finalizers: [['example.com/a']] } },
      STRATEGIC,
    );
    expect({ status: mixed.status, message: mixed.body.message }).toEqual({
      status: 400,
      message: 'list element types are not identical: [[example.com/x] [[example.com/a]]]',
    });
    await ts.api.patch(`${DEPLOYMENTS}/smp-lists`, { metadata: { finalizers: null } }, MERGE);
  });

  it('answers bodies that are not a JSON object with the decoder texts', async () => {
    await created('smp-body');
    const list = await ts.api.patch(`${DEPLOYMENTS}/smp-body`, '[1]', STRATEGIC);
    expect(list.status).toBe(400);
    expect(list.body).toEqual(badRequest('json: cannot unmarshal array into Go value of type map[string]interface {}'));
    const garbage = await ts.api.patch(`${DEPLOYMENTS}/smp-body`, '{"spec" 1}', STRATEGIC);
    expect(garbage.body).toEqual(badRequest("invalid character '1' after object key"));
  });

  it('answers 404 for a missing object', async () => {
    const res = await ts.api.patch(`${DEPLOYMENTS}/nobody`, patchOf([{ name: 'main', image: 'x' }]), STRATEGIC);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('deployments.apps "nobody" not found');
  });
});

describe('JSON patch', () => {
  it('applies add, replace, copy, move and test in order', async () => {
    await created('jp-ops');
    const ops = [
      { op: 'test', path: '/spec/replicas', value: 1 },
      { op: 'replace', path: '/spec/replicas', value: 3 },
      { op: 'add', path: '/metadata/labels/tier', value: 'web' },
      { op: 'copy', from: '/metadata/labels/tier', path: '/metadata/labels/copied' },
      { op: 'move', from: '/metadata/labels/copied', path: '/metadata/labels/moved' },
      { op: 'remove', path: '/spec/template/spec/containers/1' },
    ];
    const res = await ts.api.patch(`${DEPLOYMENTS}/jp-ops`, ops, JSON_PATCH);
    expect(res.status).toBe(200);
    expect(res.body.spec.replicas).toBe(3);
    expect(res.body.metadata.labels).toEqual({ app: 'jp-ops', tier: 'web', moved: 'web' });
    expect(res.body.spec.template.spec.containers.map((c: { name: string }) => c.name)).toEqual(['main']);
    expect((await stored('jp-ops')).spec.replicas).toBe(3);
  });

  it('answers a failed test with 422 and the fixed message, changing nothing', async () => {
    const before = await created('jp-test');
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/jp-test`,
      [
        { op: 'replace', path: '/spec/replicas', value: 5 },
        { op: 'test', path: '/spec/replicas', value: 4 },
      ],
      JSON_PATCH,
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual(REJECTED);
    expect((await ts.api.get(`${DEPLOYMENTS}/jp-test`)).body.metadata.resourceVersion).toBe(
      before.metadata.resourceVersion,
    );
  });

  it.each([
    ['remove of a missing member', [{ op: 'remove', path: '/metadata/annotations' }]],
    ['add under a missing parent', [{ op: 'add', path: '/spec/nothing/x', value: 1 }]],
    ['an index past the end', [{ op: 'replace', path: '/spec/template/spec/containers/5', value: {} }]],
    ['an unknown op', [{ op: 'merge', path: '/spec', value: {} }]],
  ])('answers %s with 422', async (_name, ops) => {
    await created(`jp-fail-${ops[0]?.op}`);
    const res = await ts.api.patch(`${DEPLOYMENTS}/jp-fail-${ops[0]?.op}`, ops, JSON_PATCH);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(REJECTED);
  });

  it('adds a missing member on replace, as the library Kubernetes uses does', async () => {
    await created('jp-replace');
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/jp-replace`,
      [{ op: 'replace', path: '/metadata/annotations', value: { note: 'x' } }],
      JSON_PATCH,
    );
    expect(res.status).toBe(200);
    expect(res.body.metadata.annotations).toEqual({ note: 'x' });
  });

  it('answers undecodable patches with 400, worded by fieldValidation', async () => {
    await created('jp-decode');
    const strict = await ts.api.patch(`${DEPLOYMENTS}/jp-decode`, { op: 'add' }, JSON_PATCH);
    expect(strict.body).toEqual(
      badRequest('error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp'),
    );
    const ignore = await ts.api.patch(`${DEPLOYMENTS}/jp-decode?fieldValidation=Ignore`, { op: 'add' }, JSON_PATCH);
    expect(ignore.body).toEqual(badRequest('json: cannot unmarshal object into Go value of type jsonpatch.Patch'));
    const typed = await ts.api.patch(`${DEPLOYMENTS}/jp-decode`, [{ op: 1, path: '/x' }], JSON_PATCH);
    expect(typed.body).toEqual(
      badRequest(
        'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string',
      ),
    );
    const syntax = await ts.api.patch(`${DEPLOYMENTS}/jp-decode`, '[{"op":', JSON_PATCH);
    expect(syntax.body).toEqual(badRequest('error decoding patch: unexpected end of JSON input'));
  });

  it('answers more than 10000 operations with 413', async () => {
    await created('jp-many');
    const ops = Array.from({ length: 10001 }, () => ({ op: 'test', path: '/spec/replicas', value: 1 }));
    const res = await ts.api.patch(`${DEPLOYMENTS}/jp-many`, ops, JSON_PATCH);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({
      reason: 'RequestEntityTooLarge',
      message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    });
  });

  it('answers a patched document that is not an object with 422 patch: Invalid value', async () => {
    await created('jp-root');
    const res = await ts.api.patch(`${DEPLOYMENTS}/jp-root`, [{ op: 'replace', path: '', value: [1] }], JSON_PATCH);
    expect(res.status).toBe(422);
    const detail =
      'Invalid value: "[1]": couldn\'t get version/kind; json parse error: json: cannot unmarshal array into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
    expect(res.body).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: ` "" is invalid: patch: ${detail}`,
      reason: 'Invalid',
      details: { causes: [{ reason: 'FieldValueInvalid', message: detail, field: 'patch' }] },
      code: 422,
    });
  });
});

describe('merge patch', () => {
  it('deletes with null and replaces lists whole', async () => {
    await created('mp-basic');
    const res = await ts.api.patch(
      `${DEPLOYMENTS}/mp-basic`,
      { metadata: { labels: { app: null, tier: 'web' } }, ...patchOf([{ name: 'only', image: 'busybox' }]) },
      MERGE,
    );
    expect(res.status).toBe(200);
    expect(res.body.metadata.labels).toEqual({ tier: 'web' });
    expect(res.body.spec.template.spec.containers).toMatchObject([{ name: 'only', image: 'busybox' }]);
    expect((await stored('mp-basic')).spec.template.spec.containers).toHaveLength(1);
  });

  it('answers null and non-object bodies as Kubernetes does', async () => {
    await created('mp-body');
    expect((await ts.api.patch(`${DEPLOYMENTS}/mp-body`, 'null', MERGE)).body).toEqual(
      badRequest('Invalid JSON Patch'),
    );
    expect((await ts.api.patch(`${DEPLOYMENTS}/mp-body`, '"x"', MERGE)).body).toEqual(
      badRequest('error decoding patch: json: cannot unmarshal string into Go value of type map[string]interface {}'),
    );
    expect((await ts.api.patch(`${DEPLOYMENTS}/mp-body?fieldValidation=Ignore`, '"x"', MERGE)).body).toEqual(
      badRequest('Invalid JSON Patch'),
    );
    expect((await ts.api.patch(`${DEPLOYMENTS}/mp-body`, '{', MERGE)).body).toEqual(
      badRequest('error decoding patch: unexpected end of JSON input'),
    );
    expect((await ts.api.patch(`${DEPLOYMENTS}/mp-body?fieldValidation=Ignore`, '{', MERGE)).body).toEqual(
      badRequest('Invalid JSON Patch'),
    );
  });

  it('treats metadata: null as an empty ObjectMeta, so the name no longer matches', async () => {
    await created('mp-nometa');
    const res = await ts.api.patch(`${DEPLOYMENTS}/mp-nometa`, { metadata: null }, MERGE);
    expect(res.body).toEqual(badRequest('the name of the object () does not match the name on the URL (mp-nometa)'));
  });
});

describe('metadata.resourceVersion in a patch is a precondition', () => {
  const conflict = (name: string): Record<string, unknown> => ({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Operation cannot be fulfilled on deployments.apps "${name}": the object has been modified; please apply your changes to the latest version and try again`,
    reason: 'Conflict',
    details: { name, group: 'apps', kind: 'deployments' },
    code: 409,
  });

  it.each([
    ['merge', MERGE, (rv: string) => ({ metadata: { resourceVersion: rv, labels: { seen: 'yes' } } })],
    ['strategic', STRATEGIC, (rv: string) => ({ metadata: { resourceVersion: rv, labels: { seen: 'yes' } } })],
    [
      'json',
      JSON_PATCH,
      (rv: string) => [
        { op: 'replace', path: '/metadata/resourceVersion', value: rv },
        { op: 'add', path: '/metadata/labels/seen', value: 'yes' },
      ],
    ],
  ])('%s patch: 409 when stale, 200 when current', async (type, contentType, body) => {
    const name = `rv-${type}`;
    const first = await created(name);
    const bumped = await ts.api.patch(`${DEPLOYMENTS}/${name}`, { spec: { replicas: 2 } }, MERGE);
    expect(bumped.status).toBe(200);
    const stale = await ts.api.patch(`${DEPLOYMENTS}/${name}`, body(first.metadata.resourceVersion), contentType);
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual(conflict(name));
    expect((await stored(name)).metadata.labels.seen).toBeUndefined();
    const current = await ts.api.patch(
      `${DEPLOYMENTS}/${name}`,
      body(bumped.body.metadata.resourceVersion),
      contentType,
    );
    expect(current.status).toBe(200);
    expect(current.body.metadata.labels.seen).toBe('yes');
  });
});

describe('content types', () => {
  it.each(['application/json', 'text/plain'])('answers %s with 415', async (contentType) => {
    await created(`ct-${contentType.replace('/', '-')}`);
    const res = await ts.api.patch(`${DEPLOYMENTS}/ct-${contentType.replace('/', '-')}`, '{}', contentType);
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'UnsupportedMediaType', code: 415 });
  });
});

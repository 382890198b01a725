// PATCH over HTTP on real etcd: JSON and merge patches, their Kubernetes error statuses and texts, resourceVersion
// preconditions and unsupported content types.
import type { TestServer } from '../helpers/test-server';
import {
  badRequest,
  created,
  patchOf,
  startServer,
  stopServer,
  stored,
  DEPLOYMENTS,
  JSON_PATCH,
  MERGE,
  REJECTED,
  STRATEGIC,
} from './patch-fixture';

let ts: TestServer;
beforeAll(async () => ({ ts } = await startServer()));
afterAll(stopServer);

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

// Protobuf over HTTP: every served kind, its list, Scale, Status errors and discovery read in protobuf equal their
// JSON form once decoded by the independent test decoder; protobuf bodies in; bad bodies are 400s.
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { aDeployment, aFlowSchema, anHpa, aPriorityLevel, FLOWCONTROL } from '../helpers/fixtures';
import { decodeProtobufJson, decodeWatchFrames } from '../helpers/protobuf-decoder';
import { withoutNullsAndEmptyObjects } from '../helpers/protobuf-compare';
import { encodeProtobufResponse } from '../../lib/apimachinery/serializers/protobuf';

const PROTOBUF = 'application/vnd.orch.protobuf';
const ALIAS = 'application/vnd.kubernetes.protobuf';
const NS = 'proto';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const HPAS = `/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`;

let ts: TestServer;

interface Fetched {
  status: number;
  contentType: string;
  bytes: Buffer;
}

async function fetchRaw(
  path: string,
  init: { method?: string; accept?: string; body?: Buffer | string; contentType?: string } = {},
): Promise<Fetched> {
  const headers: Record<string, string> = {};
  if (init.accept) headers['Accept'] = init.accept;
  if (init.contentType) headers['Content-Type'] = init.contentType;
  const res = await fetch(ts.url + path, {
    method: init.method ?? 'GET',
    headers,
    ...(init.body !== undefined ? { body: init.body } : {}),
  });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

/** The same request in JSON and in protobuf: same status, and the decoded protobuf equals the JSON body. */
async function expectSameInBoth(path: string, expectedStatus = 200, method = 'GET'): Promise<Record<string, unknown>> {
  const json = await fetchRaw(path, { method, accept: 'application/json' });
  const proto = await fetchRaw(path, { method, accept: PROTOBUF });
  expect([json.status, proto.status]).toEqual([expectedStatus, expectedStatus]);
  expect(proto.contentType).toBe(PROTOBUF);
  const fromJson = JSON.parse(json.bytes.toString('utf8')) as Record<string, unknown>;
  expect(withoutNullsAndEmptyObjects(decodeProtobufJson(proto.bytes))).toEqual(withoutNullsAndEmptyObjects(fromJson));
  expect(proto.bytes.length).toBeLessThan(json.bytes.length);
  return fromJson;
}

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
  const web = aDeployment('web');
  web['spec'].template.spec.containers[0].resources = { limits: { cpu: '500m', memory: '128Mi' } };
  web['spec'].template.spec.containers[0].ports = [{ name: 'http', containerPort: 8080 }];
  web['spec'].template.spec.containers[0].readinessProbe = { httpGet: { path: '/', port: 'http' } };
  web['spec'].strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: '50%' } };
  web['metadata'].annotations = { note: 'ünïcødé ✓' };
  for (const [path, body] of [
    [DEPLOYMENTS, web],
    [DEPLOYMENTS, aDeployment('second')],
    [HPAS, anHpa('web')],
    [`${FLOWCONTROL}/prioritylevelconfigurations`, aPriorityLevel('proto-level')],
    [`${FLOWCONTROL}/flowschemas`, aFlowSchema('proto-schema', 'proto-level')],
  ] as const) {
    const res = await ts.api.post(path, body);
    if (res.status !== 201) throw new Error(`creating ${path}: ${res.status} ${res.text}`);
  }
  // The Dangling controller writes the new FlowSchema's status once; compare JSON and protobuf after that.
  await eventually(
    async () =>
      ((await ts.api.get(`${FLOWCONTROL}/flowschemas/proto-schema`)).body?.status?.conditions ?? []).length > 0,
    10_000,
    'the Dangling condition',
  );
});
afterAll(() => ts.stop());

describe('GET and LIST in protobuf decode to the JSON response', () => {
  it.each([
    ['a Deployment', `${DEPLOYMENTS}/web`],
    ['a Deployment status', `${DEPLOYMENTS}/web/status`],
    ['a Deployment scale (autoscaling/v1 Scale)', `${DEPLOYMENTS}/web/scale`],
    ['a HorizontalPodAutoscaler', `${HPAS}/web`],
    ['a FlowSchema', `${FLOWCONTROL}/flowschemas/proto-schema`],
    ['a PriorityLevelConfiguration', `${FLOWCONTROL}/prioritylevelconfigurations/proto-level`],
    ['a Namespace', `/api/v1/namespaces/${NS}`],
    ['a DeploymentList', DEPLOYMENTS],
    ['a DeploymentList across namespaces', '/apis/apps/v1/deployments'],
    ['a chunked DeploymentList (continue token)', `${DEPLOYMENTS}?limit=1`],
    ['a HorizontalPodAutoscalerList', HPAS],
    ['a FlowSchemaList', `${FLOWCONTROL}/flowschemas`],
    ['a PriorityLevelConfigurationList', `${FLOWCONTROL}/prioritylevelconfigurations`],
    ['a NamespaceList', '/api/v1/namespaces'],
  ])('%s', async (_what, path) => {
    await expectSameInBoth(path);
  });

  it('writes the envelope with the orch apiVersion and kind', async () => {
    const schema = decodeProtobufJson(
      (await fetchRaw(`${FLOWCONTROL}/flowschemas/proto-schema`, { accept: PROTOBUF })).bytes,
    );
    expect([schema['apiVersion'], schema['kind']]).toEqual(['flowcontrol.apiserver.orch.io/v1beta3', 'FlowSchema']);
    const scale = decodeProtobufJson((await fetchRaw(`${DEPLOYMENTS}/web/scale`, { accept: PROTOBUF })).bytes);
    expect([scale['apiVersion'], scale['kind']]).toEqual(['autoscaling/v1', 'Scale']);
  });

  it('answers the client-go alias with the alias as Content-Type', async () => {
    const res = await fetchRaw(`${DEPLOYMENTS}/web`, { accept: `${ALIAS}, application/json` });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe(ALIAS);
    expect(decodeProtobufJson(res.bytes)['kind']).toBe('Deployment');
  });

  it('serves a Table in JSON when the protobuf Table clause comes first (Tables are JSON/YAML only)', async () => {
    const res = await fetchRaw(DEPLOYMENTS, {
      accept: `${ALIAS};as=Table;v=v1;g=meta.k8s.io, application/json;as=Table;v=v1;g=meta.k8s.io`,
    });
    expect(res.status).toBe(200);
    expect(res.contentType).toBe('application/json');
    expect(JSON.parse(res.bytes.toString())).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
  });

  it('answers 406 to a protobuf-only Table request', async () => {
    const res = await fetchRaw(DEPLOYMENTS, { accept: `${PROTOBUF};as=Table;v=v1;g=meta.orch.io` });
    expect(res.status).toBe(406);
    expect(JSON.parse(res.bytes.toString())).toMatchObject({ kind: 'Status', code: 406, reason: 'NotAcceptable' });
  });
});

describe('errors and deletions in protobuf', () => {
  it('writes a 404 Status in protobuf equal to the JSON one', async () => {
    const status = await expectSameInBoth(`${DEPLOYMENTS}/missing`, 404);
    expect(status).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      message: 'deployments.apps "missing" not found',
    });
  });

  it('writes a 422 Status with its causes in protobuf', async () => {
    const invalid = { ...aDeployment('bad'), spec: { ...aDeployment('bad')['spec'], replicas: -1 } };
    const json = await fetchRaw(DEPLOYMENTS, {
      method: 'POST',
      accept: 'application/json',
      contentType: 'application/json',
      body: JSON.stringify(invalid),
    });
    const proto = await fetchRaw(DEPLOYMENTS, {
      method: 'POST',
      accept: PROTOBUF,
      contentType: 'application/json',
      body: JSON.stringify(invalid),
    });
    expect([json.status, proto.status, proto.contentType]).toEqual([422, 422, PROTOBUF]);
    expect(decodeProtobufJson(proto.bytes)).toEqual(JSON.parse(json.bytes.toString()));
  });

  it('answers a delete with a Status, and a namespace delete with the Namespace, in protobuf', async () => {
    await ts.api.post(DEPLOYMENTS, aDeployment('doomed'));
    const deleted = await fetchRaw(`${DEPLOYMENTS}/doomed`, { method: 'DELETE', accept: PROTOBUF });
    expect([deleted.status, deleted.contentType]).toEqual([200, PROTOBUF]);
    expect(decodeProtobufJson(deleted.bytes)).toMatchObject({
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Success',
      details: { name: 'doomed', group: 'apps', kind: 'deployments' },
    });
    await createNamespace(ts.api, 'proto-doomed');
    const ns = await fetchRaw('/api/v1/namespaces/proto-doomed', { method: 'DELETE', accept: PROTOBUF });
    expect(ns.status).toBe(200);
    expect(decodeProtobufJson(ns.bytes)).toMatchObject({
      kind: 'Namespace',
      metadata: { name: 'proto-doomed' },
      status: { phase: 'Terminating' },
    });
  });
});

describe('protobuf request bodies', () => {
  it('creates from a protobuf body and reads the object back in JSON', async () => {
    const dep = aDeployment('from-proto');
    dep['spec'].replicas = 3;
    const body = encodeProtobufResponse(dep);
    const res = await fetchRaw(DEPLOYMENTS, { method: 'POST', accept: 'application/json', contentType: ALIAS, body });
    expect(res.status).toBe(201);
    const read = (await ts.api.get(`${DEPLOYMENTS}/from-proto`)).body;
    expect(read).toMatchObject({
      kind: 'Deployment',
      metadata: { name: 'from-proto', labels: { app: 'from-proto' } },
      spec: { replicas: 3, template: { spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } } },
    });
  });

  it('updates from a protobuf body answered in protobuf', async () => {
    const current = (await ts.api.get(`${DEPLOYMENTS}/from-proto`)).body;
    current.spec.replicas = 5;
    const res = await fetchRaw(`${DEPLOYMENTS}/from-proto`, {
      method: 'PUT',
      accept: PROTOBUF,
      contentType: PROTOBUF,
      body: encodeProtobufResponse(current),
    });
    expect(res.status).toBe(200);
    expect(decodeProtobufJson(res.bytes)).toMatchObject({ kind: 'Deployment', spec: { replicas: 5 } });
  });

  it.each([
    [
      'a JSON body sent as protobuf',
      Buffer.from('{"kind":"Deployment"}'),
      /^the object provided is unrecognized \(must be of type Deployment\): provided data does not appear to be a protobuf message, expected prefix \[107 56 115 0\]/,
    ],
    [
      'garbage after the prefix',
      Buffer.from([0x6b, 0x38, 0x73, 0x00, 0x0a, 0xff, 0xff, 0x12]),
      /^the object provided is unrecognized \(must be of type Deployment\): /,
    ],
    ['an empty body', Buffer.alloc(0), /empty data/],
  ])('answers 400 to %s, and keeps serving', async (_what, body, message) => {
    const res = await fetchRaw(DEPLOYMENTS, { method: 'POST', accept: PROTOBUF, contentType: PROTOBUF, body });
    expect(res.status).toBe(400);
    const status = decodeProtobufJson(res.bytes);
    expect(status).toMatchObject({ kind: 'Status', reason: 'BadRequest', code: 400 });
    expect(status['message']).toMatch(message);
    expect((await fetchRaw(`${DEPLOYMENTS}/web`, { accept: PROTOBUF })).status).toBe(200);
  });
});

describe('discovery and kind-less documents', () => {
  it('serves APIResourceList in protobuf when asked, as kube-apiserver does', async () => {
    await expectSameInBoth('/apis/apps/v1');
  });

  it('keeps /version in JSON whatever the Accept header says', async () => {
    const res = await fetchRaw('/version', { accept: PROTOBUF });
    expect([res.status, res.contentType]).toEqual([200, 'application/json']);
    expect(JSON.parse(res.bytes.toString())).toMatchObject({ major: '1', minor: '26' });
  });
});

describe('watch in protobuf', () => {
  it('streams length-prefixed WatchEvent frames whose objects equal the JSON stream', async () => {
    const name = 'proto-watched';
    const created = await ts.api.post(DEPLOYMENTS, aDeployment(name));
    const from = created.body.metadata.resourceVersion;
    await ts.api.patch(`${DEPLOYMENTS}/${name}`, { spec: { replicas: 4 } });
    await ts.api.delete(`${DEPLOYMENTS}/${name}`);
    const path = `${DEPLOYMENTS}?watch=1&resourceVersion=${from}&timeoutSeconds=1&allowWatchBookmarks=true`;
    const [proto, json] = await Promise.all([
      fetchRaw(path, { accept: `${PROTOBUF};stream=watch` }),
      fetchRaw(path, { accept: 'application/json' }),
    ]);
    expect(proto.status).toBe(200);
    expect(proto.contentType).toBe(`${PROTOBUF};stream=watch`);
    const frames = decodeWatchFrames(proto.bytes).filter((e) => e.type !== 'BOOKMARK');
    const lines = json.bytes
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: Record<string, unknown> })
      .filter((e) => e.type !== 'BOOKMARK');
    expect(frames.map((e) => e.type)).toEqual(['MODIFIED', 'DELETED']);
    expect(frames.map((e) => withoutNullsAndEmptyObjects(e.object))).toEqual(
      lines.map((e) => withoutNullsAndEmptyObjects(e.object)),
    );
  });
});

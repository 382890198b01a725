// PartialObjectMetadata(List) answers for get, list and watch: what client-go's metadata client and metadata
// informers (garbage collector, quota) ask for, with the protobuf-first Accept header they send.
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';
import { decodeProtobufJson } from '../helpers/protobuf-decoder';

let ts: TestServer;
const NS = 'partial-meta';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const META = 'g=meta.k8s.io;v=v1';
/** client-go metadata client's Accept headers (k8s.io/client-go/metadata). */
const LIST_ACCEPT = `application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;${META},application/json;as=PartialObjectMetadataList;${META},application/json`;
const OBJECT_JSON = `application/json;as=PartialObjectMetadata;${META}`;
const LIST_JSON = `application/json;as=PartialObjectMetadataList;${META}`;

async function bytesOf(path: string, accept: string): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  const res = await fetch(ts.url + path, { headers: { Accept: accept } });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
  for (const name of ['a', 'b', 'c']) await ts.api.post(DEPLOYMENTS, aDeployment(name));
});
afterAll(() => ts.stop());

describe('lists', () => {
  it('answers the metadata client in protobuf: a PartialObjectMetadataList of each item’s metadata', async () => {
    const { status, contentType, bytes } = await bytesOf(DEPLOYMENTS, LIST_ACCEPT);
    expect(status).toBe(200);
    expect(contentType).toBe('application/vnd.kubernetes.protobuf');
    const list = decodeProtobufJson(bytes) as {
      kind: string;
      apiVersion: string;
      metadata: { resourceVersion: string };
      items: Array<Record<string, any>>;
    };
    expect(list.kind).toBe('PartialObjectMetadataList');
    expect(list.apiVersion).toBe('meta.k8s.io/v1');
    expect(Number(list.metadata.resourceVersion)).toBeGreaterThan(0);
    expect(list.items.map((i) => i['metadata'].name)).toEqual(['a', 'b', 'c']);
    expect(list.items[0]?.['spec']).toBeUndefined();
    expect(list.items[0]?.['metadata'].uid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('in JSON each item carries its kind, pages keep continue and remainingItemCount, and an empty list has items null', async () => {
    const page = await ts.api.get(`${DEPLOYMENTS}?limit=2`, { Accept: LIST_JSON });
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({
      kind: 'PartialObjectMetadataList',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { remainingItemCount: 1 },
    });
    expect(page.body.metadata.continue).toEqual(expect.any(String));
    expect(page.body.items).toEqual([
      {
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: expect.objectContaining({ name: 'a', namespace: NS }),
      },
      {
        kind: 'PartialObjectMetadata',
        apiVersion: 'meta.k8s.io/v1',
        metadata: expect.objectContaining({ name: 'b', namespace: NS }),
      },
    ]);
    const empty = await ts.api.get(`${DEPLOYMENTS}?labelSelector=none%3Dhere`, { Accept: LIST_JSON });
    expect(empty.body.items).toBeNull();
  });

  it('is 406 when a list is asked for as a single PartialObjectMetadata, and a single object as a list', async () => {
    const list = await ts.api.get(DEPLOYMENTS, { Accept: OBJECT_JSON });
    expect(list.status).toBe(406);
    expect(list.body).toMatchObject({
      reason: 'NotAcceptable',
      code: 406,
      message: 'you requested PartialObjectMetadata, but the requested object is a list (*apps.DeploymentList)',
    });
    const one = await ts.api.get(`${DEPLOYMENTS}/a`, { Accept: LIST_JSON });
    expect(one.status).toBe(406);
    expect(one.body.message).toBe(
      'you requested PartialObjectMetadataList, but the requested object is not a list (*apps.Deployment)',
    );
    const namespaces = await ts.api.get('/api/v1/namespaces', { Accept: OBJECT_JSON });
    expect(namespaces.body.message).toBe(
      'you requested PartialObjectMetadata, but the requested object is a list (*core.NamespaceList)',
    );
  });
});

describe('get', () => {
  it('answers PartialObjectMetadata in JSON and in protobuf', async () => {
    const json = await ts.api.get(`${DEPLOYMENTS}/b`, { Accept: OBJECT_JSON });
    expect(json.status).toBe(200);
    expect(Object.keys(json.body)).toEqual(['kind', 'apiVersion', 'metadata']);
    expect(json.body).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'b', labels: { app: 'b' } },
    });
    const proto = await bytesOf(
      `${DEPLOYMENTS}/b`,
      `application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;${META},application/json`,
    );
    expect(decodeProtobufJson(proto.bytes)).toMatchObject({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { name: 'b', uid: json.body.metadata.uid },
    });
  });

  it('still answers 404 for a missing object before any conversion', async () => {
    const missing = await ts.api.get(`${DEPLOYMENTS}/nope`, { Accept: LIST_JSON });
    expect(missing.status).toBe(404);
  });
});

describe('watch', () => {
  it('streams PartialObjectMetadata events, bookmarks included', async () => {
    const list = await ts.api.get(DEPLOYMENTS, { Accept: LIST_JSON });
    const res = fetch(
      `${ts.url}${DEPLOYMENTS}?watch=1&allowWatchBookmarks=true&timeoutSeconds=3&resourceVersion=${list.body.metadata.resourceVersion}`,
      { headers: { Accept: OBJECT_JSON } },
    );
    await new Promise((r) => setTimeout(r, 300));
    await ts.api.patch(`${DEPLOYMENTS}/c`, { metadata: { labels: { touched: 'yes' } } });
    const lines = (await (await res).text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: Record<string, any> });
    const modified = lines.find((e) => e.type === 'MODIFIED');
    expect(modified?.object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: expect.objectContaining({ name: 'c', labels: { app: 'c', touched: 'yes' } }),
    });
    const bookmark = lines.find((e) => e.type === 'BOOKMARK');
    expect(bookmark?.object).toEqual({
      kind: 'PartialObjectMetadata',
      apiVersion: 'meta.k8s.io/v1',
      metadata: { resourceVersion: expect.any(String), creationTimestamp: null },
    });
  });
});

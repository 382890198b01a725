// Protobuf LIST and GET served from message bytes kept per stored object version: the bodies decode (independent
// decoder) to the JSON responses on every read path, each object version is encoded once, and writes never leave
// stale bytes behind (new resourceVersion and content after an update, nothing after a delete).
import { createNamespace, eventually, startTestServer, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';
import { decodeProtobufJson, decodeWatchFrames } from '../helpers/protobuf-decoder';
import { withoutNullsAndEmptyObjects } from '../helpers/protobuf-compare';
import * as encodeMessage from '../../lib/apimachinery/serializers/protobuf/encode-message';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { Cacher } from '../../lib/storage/cacher/cacher';

const PROTOBUF = 'application/vnd.orch.protobuf';
const NS = 'proto-reuse';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const DEPLOYMENT_MESSAGE = 'k8s.io.api.apps.v1.Deployment';

interface Item {
  metadata: { name: string; resourceVersion: string };
  spec: { replicas: number };
}
interface ListJson {
  kind: string;
  apiVersion: string;
  metadata: { resourceVersion: string; continue?: string; remainingItemCount?: number };
  items: Item[];
}

let ts: TestServer;
const writeMessage = jest.spyOn(encodeMessage, 'writeMessage');

/** Deployment messages the server encoded from an object (not from kept bytes) since the last call. */
function deploymentsEncoded(): number {
  const n = writeMessage.mock.calls.filter(([, plan]) => plan.name === DEPLOYMENT_MESSAGE).length;
  writeMessage.mockClear();
  return n;
}

async function getBytes(path: string, accept: string): Promise<{ status: number; contentType: string; bytes: Buffer }> {
  const res = await fetch(ts.url + path, { headers: { Accept: accept } });
  return {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}

async function protobufBody<T>(path: string): Promise<T> {
  const res = await getBytes(path, PROTOBUF);
  expect([res.status, res.contentType]).toEqual([200, PROTOBUF]);
  return withoutNullsAndEmptyObjects(decodeProtobufJson(res.bytes)) as T;
}

async function jsonBody<T>(path: string): Promise<T> {
  const res = await getBytes(path, 'application/json');
  expect(res.status).toBe(200);
  return withoutNullsAndEmptyObjects(JSON.parse(res.bytes.toString('utf8'))) as T;
}

/** The list in both formats: same kind, apiVersion and items (etcd's revision may move between the two reads). */
async function expectSameList(path: string): Promise<ListJson> {
  const [json, proto] = [await jsonBody<ListJson>(path), await protobufBody<ListJson>(path)];
  expect({ ...proto, metadata: {} }).toEqual({ ...json, metadata: {} });
  return proto;
}

async function expectSameObject(path: string): Promise<Item> {
  const [json, proto] = [await jsonBody<Item>(path), await protobufBody<Item>(path)];
  expect(proto).toEqual(json);
  return proto;
}

/** The watch cache holds `name` at `resourceVersion` (or no `name` at all when undefined). */
async function cacheHolds(name: string, resourceVersion: string | undefined): Promise<void> {
  await eventually(
    async () => {
      const listed = await jsonBody<ListJson>(`${DEPLOYMENTS}?resourceVersion=0`);
      return listed.items.find((i) => i.metadata.name === name)?.metadata.resourceVersion === resourceVersion;
    },
    10_000,
    `the watch cache to hold ${name} at ${resourceVersion ?? 'nothing'}`,
  );
}

/**
 * Makes the watch cache look behind on `name`: it answers with the object it held at the first lookup after this
 * call, as a cache that has not applied the newer etcd events yet would. Returns the undo.
 */
function cacheLagsFor(name: string): () => void {
  const current = Cacher.prototype.get;
  let held: { found: ApiObject | undefined } | undefined;
  const spy = jest.spyOn(Cacher.prototype, 'get').mockImplementation(function (this: Cacher, key: string) {
    const found = current.call(this, key);
    if (!key.endsWith(`/${NS}/${name}`)) return found;
    held ??= { found };
    return held.found;
  });
  // A cache that lags has not caught up with etcd: reads without resourceVersion go to etcd.
  const behind = jest.spyOn(Cacher.prototype, 'caughtUpWithEtcd').mockResolvedValue(false);
  return () => {
    spy.mockRestore();
    behind.mockRestore();
  };
}

const names = (list: ListJson): string[] => list.items.map((i) => i.metadata.name);

beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
  for (const [name, tier] of [
    ['a', 'web'],
    ['b', 'web'],
    ['c', 'db'],
    ['d', 'db'],
  ] as const) {
    const dep = aDeployment(name);
    dep['metadata'].labels = { app: name, tier };
    const res = await ts.api.post(DEPLOYMENTS, dep);
    if (res.status !== 201) throw new Error(`creating ${name}: ${res.status} ${res.text}`);
    await cacheHolds(name, res.body.metadata.resourceVersion);
  }
});
afterAll(async () => {
  writeMessage.mockRestore();
  await ts.stop();
});

describe('protobuf reads reuse the bytes kept with each stored object version', () => {
  it.each([
    ['without resourceVersion (consistent: the caught-up watch cache, or etcd matched against it)', ''],
    ['at resourceVersion=0 (the watch cache)', '?resourceVersion=0'],
  ])('LIST and GET %s decode to the JSON responses, and a repeat encodes no Deployment again', async (_what, query) => {
    expect(names(await expectSameList(`${DEPLOYMENTS}${query}`))).toEqual(['a', 'b', 'c', 'd']);
    await expectSameObject(`${DEPLOYMENTS}/a${query}`);
    deploymentsEncoded();
    await protobufBody(`${DEPLOYMENTS}${query}`);
    await protobufBody(`${DEPLOYMENTS}/a${query}`);
    expect(deploymentsEncoded()).toBe(0);
  });

  it('serves an update with its new resourceVersion and content while the watch cache still holds the old version', async () => {
    const stopLagging = cacheLagsFor('b');
    try {
      await protobufBody(DEPLOYMENTS);
      const patched = await ts.api.patch(`${DEPLOYMENTS}/b`, { spec: { replicas: 3 } });
      expect(patched.status).toBe(200);
      const rv: string = patched.body.metadata.resourceVersion;
      const got = await protobufBody<Item>(`${DEPLOYMENTS}/b`);
      expect([got.metadata.resourceVersion, got.spec.replicas]).toEqual([rv, 3]);
      for (const query of ['', '?labelSelector=tier%3Dweb']) {
        const listed = await protobufBody<ListJson>(`${DEPLOYMENTS}${query}`);
        expect(listed.items.find((i) => i.metadata.name === 'b')).toMatchObject({
          metadata: { resourceVersion: rv },
          spec: { replicas: 3 },
        });
      }
    } finally {
      stopLagging();
    }
  });

  it('serves the update from the watch cache once it holds it, encoding only that object again', async () => {
    const rv = (await jsonBody<Item>(`${DEPLOYMENTS}/b`)).metadata.resourceVersion;
    await cacheHolds('b', rv);
    await expectSameObject(`${DEPLOYMENTS}/b`);
    await expectSameObject(`${DEPLOYMENTS}/b?resourceVersion=0`);
    const fromCache = await expectSameList(`${DEPLOYMENTS}?resourceVersion=0`);
    expect(fromCache.items.find((i) => i.metadata.name === 'b')).toMatchObject({
      metadata: { resourceVersion: rv },
      spec: { replicas: 3 },
    });
    deploymentsEncoded();
    await protobufBody(DEPLOYMENTS);
    await protobufBody(`${DEPLOYMENTS}?resourceVersion=0`);
    expect(deploymentsEncoded()).toBe(0);
  });

  it('drops a deleted object from protobuf lists and answers 404 for it', async () => {
    expect((await ts.api.delete(`${DEPLOYMENTS}/d`)).status).toBe(200);
    expect(names(await expectSameList(DEPLOYMENTS))).toEqual(['a', 'b', 'c']);
    const missing = await getBytes(`${DEPLOYMENTS}/d`, PROTOBUF);
    expect(missing.status).toBe(404);
    expect(decodeProtobufJson(missing.bytes)).toMatchObject({
      kind: 'Status',
      reason: 'NotFound',
      message: 'deployments.apps "d" not found',
    });
    await cacheHolds('d', undefined);
    expect(names(await expectSameList(`${DEPLOYMENTS}?resourceVersion=0`))).toEqual(['a', 'b', 'c']);
  });

  it('pages with limit/continue like JSON, the protobuf continue token reading the same snapshot', async () => {
    const first = await expectSameList(`${DEPLOYMENTS}?limit=2`);
    expect(names(first)).toEqual(['a', 'b']);
    expect(first.metadata.remainingItemCount).toBe(1);
    const token = first.metadata.continue ?? '';
    expect(token).not.toBe('');
    const next = `${DEPLOYMENTS}?limit=2&continue=${encodeURIComponent(token)}`;
    const [json, proto] = [await jsonBody<ListJson>(next), await protobufBody<ListJson>(next)];
    expect(proto).toEqual(json);
    expect(names(proto)).toEqual(['c']);
    expect(proto.metadata.continue).toBeUndefined();
  });

  it('applies label selectors on every path', async () => {
    for (const query of [
      '?labelSelector=tier%3Dweb',
      '?labelSelector=tier%3Dweb&resourceVersion=0',
      '?labelSelector=tier%3Dweb&limit=1',
    ]) {
      const list = await expectSameList(`${DEPLOYMENTS}${query}`);
      expect(names(list)).toEqual(query.includes('limit=1') ? ['a'] : ['a', 'b']);
    }
  });

  it('streams watch events from the same kept bytes', async () => {
    await protobufBody(`${DEPLOYMENTS}?resourceVersion=0`);
    deploymentsEncoded();
    const path = `${DEPLOYMENTS}?watch=1&resourceVersion=0&timeoutSeconds=1`;
    const [proto, json] = await Promise.all([
      getBytes(path, `${PROTOBUF};stream=watch`),
      getBytes(path, 'application/json'),
    ]);
    expect(deploymentsEncoded()).toBe(0);
    const frames = decodeWatchFrames(proto.bytes).map((e) => ({
      type: e.type,
      object: withoutNullsAndEmptyObjects(e.object),
    }));
    const lines = json.bytes
      .toString('utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; object: unknown });
    expect(frames).toEqual(lines.map((e) => ({ type: e.type, object: withoutNullsAndEmptyObjects(e.object) })));
    expect(frames.map((e) => e.type)).toEqual(['ADDED', 'ADDED', 'ADDED']);
  });

  it('leaves JSON and Table responses as they were', async () => {
    const list = await jsonBody<ListJson>(DEPLOYMENTS);
    expect(list.items.map((i) => [i.metadata.name, i.spec.replicas])).toEqual([
      ['a', 1],
      ['b', 3],
      ['c', 1],
    ]);
    const table = await ts.api.get(DEPLOYMENTS, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.body).toMatchObject({ kind: 'Table', apiVersion: 'meta.k8s.io/v1' });
    expect(table.body.rows.map((r: { cells: unknown[] }) => r.cells[0])).toEqual(['a', 'b', 'c']);
    const one = await ts.api.get(`${DEPLOYMENTS}/b`, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(one.body.rows[0].object.metadata).toMatchObject({
      name: 'b',
      resourceVersion: list.items[1]?.metadata.resourceVersion,
    });
  });
});

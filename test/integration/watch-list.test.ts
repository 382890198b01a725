// Watch-list (KEP-3157, feature gate WatchList): sendInitialEvents=true&resourceVersionMatch=NotOlderThan&
// allowWatchBookmarks=true, exercised the way client-go's reflector uses it (sync, end bookmark, resume), in JSON
// and protobuf, from the watch cache and straight from etcd; the 1.27+ ListOptions rules; the gate turned off.
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';
import { forbiddenCause, invalidListOptions, type Cause } from '../helpers/list-options-status';
import {
  keyOf,
  openEventStream,
  PROTOBUF_WATCH,
  watchListSync,
  type ReflectorEvent,
} from '../helpers/watch-list-reflector';

const NS = 'watchlist';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
  for (const name of ['a', 'b', 'c']) expect((await ts.api.post(DEPLOYMENTS, aDeployment(name))).status).toBe(201);
});
afterAll(() => ts.stop());

async function create(name: string): Promise<string> {
  const res = await ts.api.post(DEPLOYMENTS, aDeployment(name));
  expect(res.status).toBe(201);
  return res.body.metadata.resourceVersion as string;
}

const invalid = invalidListOptions;
const forbidden = forbiddenCause;
const REQUIRES_NOT_OLDER_THAN = forbidden(
  'resourceVersionMatch',
  'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
);
const UNLESS_SEND_INITIAL = forbidden(
  'resourceVersionMatch',
  'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
);

describe.each([
  ['JSON', 'application/json'],
  ['protobuf', PROTOBUF_WATCH],
])('watch-list through the reflector (%s)', (_label, accept) => {
  it('syncs the state, marks its end with an annotated BOOKMARK, streams changes, and resumes from the bookmark', async () => {
    const expected = new Set((await ts.api.get(DEPLOYMENTS)).body.items.map(keyOf));
    const synced = await watchListSync(ts.url, DEPLOYMENTS, '', accept);
    expect(synced.stream.contentType).toBe(accept);
    expect(new Set(synced.store.keys())).toEqual(expected);
    // Initial events are ADDED only, and the BOOKMARK comes right after them.
    expect(synced.events.slice(0, -1).every((e) => e.type === 'ADDED')).toBe(true);
    const bookmark = synced.events[synced.events.length - 1] as ReflectorEvent;
    expect(bookmark.object).toMatchObject({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    const maxItemRv = Math.max(...[...synced.store.values()].map((o) => Number(o.metadata.resourceVersion)));
    expect(Number(synced.resourceVersion)).toBeGreaterThanOrEqual(maxItemRv);

    // Changes follow on the same stream.
    const name = `later-${accept.length}`;
    const createdRv = await create(name);
    const added = await synced.stream.next();
    expect(added).toMatchObject({ type: 'ADDED', object: { metadata: { name, resourceVersion: createdRv } } });
    synced.stream.close();

    // While disconnected: a change and a deletion; the reflector re-watches from its last synced resourceVersion.
    expect((await ts.api.patch(`${DEPLOYMENTS}/${name}`, { spec: { replicas: 4 } })).status).toBe(200);
    expect((await ts.api.delete(`${DEPLOYMENTS}/${name}`)).status).toBe(200);
    const resumed = await openEventStream(
      ts.url,
      `${DEPLOYMENTS}?watch=1&allowWatchBookmarks=true&resourceVersion=${synced.resourceVersion}`,
      accept,
    );
    const seen = [await resumed.next(), await resumed.next(), await resumed.next()];
    resumed.close();
    expect(seen.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
      `ADDED ${name}`,
      `MODIFIED ${name}`,
      `DELETED ${name}`,
    ]);
  });

  it('resumes a watch-list from a last synced resourceVersion with a state at least that new', async () => {
    const rv = await create(`resume-${accept.length}`);
    const synced = await watchListSync(ts.url, DEPLOYMENTS, rv, accept);
    synced.stream.close();
    expect(synced.store.has(`${NS}/resume-${accept.length}`)).toBe(true);
    expect(Number(synced.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
  });
});

describe('watch-list semantics', () => {
  it('always includes a write acknowledged before the request (consistent read without resourceVersion)', async () => {
    for (let i = 0; i < 5; i++) {
      const name = `consistent-${i}`;
      const rv = await create(name);
      const synced = await watchListSync(ts.url, DEPLOYMENTS);
      synced.stream.close();
      expect(synced.store.get(`${NS}/${name}`)?.metadata.resourceVersion).toBe(rv);
      expect(Number(synced.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
    }
  });

  it('with resourceVersion=0 syncs the cache state and still ends it with the bookmark', async () => {
    const synced = await watchListSync(ts.url, DEPLOYMENTS, '0');
    synced.stream.close();
    expect(synced.store.size).toBeGreaterThanOrEqual(3);
  });

  it('sends no end bookmark unless bookmarks are allowed', async () => {
    const stream = await openEventStream(
      ts.url,
      `${DEPLOYMENTS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan`,
    );
    const count = (await ts.api.get(DEPLOYMENTS)).body.items.length as number;
    for (let i = 0; i < count; i++) expect((await stream.next()).type).toBe('ADDED');
    await create('after-no-bookmarks');
    const next = await stream.next();
    stream.close();
    expect(next).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'after-no-bookmarks' } } });
  });

  it('with sendInitialEvents=false starts at the current state without sending it', async () => {
    const stream = await openEventStream(
      ts.url,
      `${DEPLOYMENTS}?watch=1&sendInitialEvents=false&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true`,
    );
    await create('after-false');
    const first = await stream.next();
    stream.close();
    expect(first).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'after-false' } } });
  });

  it('answers a resourceVersion etcd has not reached with 504 Too large resource version', async () => {
    const current = Number((await ts.api.get(DEPLOYMENTS)).body.metadata.resourceVersion);
    const res = await ts.api.get(
      `${DEPLOYMENTS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&resourceVersion=${current + 1000}`,
    );
    expect(res.status).toBe(504);
    expect(res.body).toMatchObject({
      reason: 'Timeout',
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] },
    });
    expect(res.body.message).toMatch(
      new RegExp(`^Timeout: Too large resource version: ${current + 1000}, current: \\d+$`),
    );
  });
});

describe('ListOptions rules with WatchList (Kubernetes 1.27+)', () => {
  it.each([
    ['sendInitialEvents without resourceVersionMatch', 'watch=1&sendInitialEvents=true', [REQUIRES_NOT_OLDER_THAN]],
    [
      'resourceVersionMatch without sendInitialEvents',
      'watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1',
      [UNLESS_SEND_INITIAL],
    ],
    [
      'sendInitialEvents with Exact',
      'watch=1&sendInitialEvents=true&resourceVersionMatch=Exact&allowWatchBookmarks=true',
      [
        REQUIRES_NOT_OLDER_THAN,
        {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "Exact": supported values: "NotOlderThan"',
          field: 'resourceVersionMatch',
        },
      ],
    ],
    [
      'a continue token',
      'watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&continue=abc',
      [forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided')],
    ],
    [
      'sendInitialEvents on a list',
      'sendInitialEvents=false',
      [forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list')],
    ],
  ])('refuses %s with 422', async (_what, query, causes) => {
    const res = await ts.api.get(`${DEPLOYMENTS}?${query}`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(...(causes as Cause[])));
  });

  it('refuses sendInitialEvents on a deletecollection, changing nothing', async () => {
    const before = (await ts.api.get(DEPLOYMENTS)).body.items.length;
    const res = await ts.api.delete(`${DEPLOYMENTS}?sendInitialEvents=true`);
    expect(res.status).toBe(422);
    expect((await ts.api.get(DEPLOYMENTS)).body.items.length).toBe(before);
  });
});

describe('without a watch cache (--watch-cache=false)', () => {
  let direct: TestServer;
  beforeAll(async () => {
    direct = await startTestServer(['--watch-cache=false']);
    await createNamespace(direct.api, NS);
    expect((await direct.api.post(DEPLOYMENTS, aDeployment('x'))).status).toBe(201);
  });
  afterAll(() => direct.stop());

  it('serves the same watch-list from etcd', async () => {
    const synced = await watchListSync(direct.url, DEPLOYMENTS);
    expect([...synced.store.keys()]).toEqual([`${NS}/x`]);
    const res = await direct.api.post(DEPLOYMENTS, aDeployment('y'));
    expect(await synced.stream.next()).toMatchObject({
      type: 'ADDED',
      object: { metadata: { name: 'y', resourceVersion: res.body.metadata.resourceVersion } },
    });
    synced.stream.close();
  });
});

describe('with --feature-gates=WatchList=false (the 1.26 behaviour)', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer(['--feature-gates=WatchList=false']);
    await createNamespace(off.api, NS);
    expect((await off.api.post(DEPLOYMENTS, aDeployment('x'))).status).toBe(201);
  });
  afterAll(() => off.stop());

  it('refuses resourceVersionMatch on any watch with the 1.26 text', async () => {
    const res = await off.api.get(
      `${DEPLOYMENTS}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&resourceVersion=1`,
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual(invalid(forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch')));
  });

  it('ignores sendInitialEvents: a plain watch without end bookmark, and lists accept it', async () => {
    expect((await off.api.get(`${DEPLOYMENTS}?sendInitialEvents=true`)).status).toBe(200);
    const stream = await openEventStream(
      off.url,
      `${DEPLOYMENTS}?watch=1&sendInitialEvents=true&allowWatchBookmarks=true`,
    );
    expect(await stream.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'x' } } });
    await off.api.post(DEPLOYMENTS, aDeployment('z'));
    expect(await stream.next()).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'z' } } });
    stream.close();
  });
});

// Chunked lists on every collection path: one snapshot across pages while objects change, remainingItemCount, selectors, continue tokens.
import { startTestServer, uniqueName, type ApiResponse, type TestServer } from '../helpers/test-server';
import {
  COLLECTION_SHAPES,
  decodeContinueToken,
  encodeContinueToken,
  exactList,
  makeCollection,
  readAllPages,
  versionsOf,
  type ApiItem,
  type Collection,
  type CollectionShape,
} from '../helpers/collections';
import { badRequestStatus } from '../helpers/status';

const LIMIT = 2;
const TOKEN_VERSION = 'meta.k8s.io/v1'; // kept verbatim in orch tokens (reference/api-machinery.md 3.3)
const INVALID = 'invalid continue token: continue key is not valid'; // storage/continue.go, etcd3/store.go

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

/** Keys as etcd orders them (bytes; these names are ASCII). */
function expectStrictlyIncreasing(keys: string[]): void {
  for (let i = 1; i < keys.length; i++) expect((keys[i - 1] as string) < (keys[i] as string)).toBe(true);
}

describe.each(COLLECTION_SHAPES)('chunked list on the %s path', (shape: CollectionShape) => {
  let c: Collection;
  const list = (query: string): Promise<ApiResponse> => ts.api.get(`${c.path}?${query}`);
  const itemLabel = (suite: string) => (items: ApiItem[]) =>
    items
      .filter((i) => i.metadata.labels?.['suite'] === suite)
      .map((i) => `${i.metadata.labels?.['item']}:${i.metadata.labels?.['step']}`);

  beforeAll(async () => {
    c = await makeCollection(ts.api, shape);
  });

  it('keeps every page at the first page’s revision while objects are created, updated and deleted between pages', async () => {
    const suite = uniqueName('snap');
    const mine = itemLabel(suite);
    for (const item of ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7']) await c.create(item, { suite, item, step: 'a' });

    const first = await list(`limit=${LIMIT}`);
    expect(first.status).toBe(200);
    const rv: string = first.body.metadata.resourceVersion;
    const pages: ApiResponse[] = [first];
    // Changes a consistent snapshot must not show, wherever they fall relative to the next pages.
    const changes: (() => Promise<unknown>)[] = [
      () =>
        Promise.all([
          c.create('c35', { suite, item: 'c35', step: 'b' }),
          c.relabel('c5', { step: 'b' }),
          c.remove('c6'),
          c.relabel('c1', { step: 'b' }),
        ]),
      () =>
        Promise.all([
          c.create('c55', { suite, item: 'c55', step: 'b' }),
          c.remove('c7'),
          c.relabel('c4', { step: 'b' }),
        ]),
    ];
    for (let page = first; page.body.metadata.continue;) {
      await changes.shift()?.();
      page = await list(`limit=${LIMIT}&continue=${page.body.metadata.continue}`);
      expect(page.status).toBe(200);
      pages.push(page);
    }
    expect(changes).toHaveLength(0);
    expect(pages.length).toBeGreaterThanOrEqual(3);

    const items: ApiItem[] = pages.flatMap((p) => p.body.items);
    expect(pages.map((p) => p.body.metadata.resourceVersion)).toEqual(pages.map(() => rv));
    expect(pages.slice(0, -1).every((p) => p.body.items.length === LIMIT)).toBe(true);
    const keys = items.map(c.keyOf);
    expect(new Set(keys).size).toBe(keys.length);
    expectStrictlyIncreasing(keys);
    // The union of the pages is the collection as it was at rv, no more, no less.
    expect(versionsOf(items, c.keyOf)).toEqual(versionsOf(await exactList(ts.api, c.path, rv), c.keyOf));
    expect(mine(items)).toEqual(['c1:a', 'c2:a', 'c3:a', 'c4:a', 'c5:a', 'c6:a', 'c7:a']);
    // …while the collection itself has moved on.
    expect(mine((await list('')).body.items)).toEqual(expect.arrayContaining(['c1:b', 'c35:b', 'c55:b']));
  });

  it('sets remainingItemCount on every page but the last, counting what the following pages hold', async () => {
    const suite = uniqueName('count');
    for (const item of ['r1', 'r2', 'r3', 'r4', 'r5']) await c.create(item, { suite, item, step: 'a' });
    const paged = await readAllPages(ts.api, c.path, `limit=${LIMIT}`, `limit=${LIMIT}`);
    const total = paged.items.length;
    let seen = 0;
    for (const [i, page] of paged.pages.entries()) {
      seen += page.body.items.length;
      if (i < paged.pages.length - 1) expect(page.body.metadata.remainingItemCount).toBe(total - seen);
      else {
        expect(page.body.metadata.remainingItemCount).toBeUndefined();
        expect(page.body.metadata.continue).toBeUndefined();
      }
    }
    expect(paged.pages.length).toBeGreaterThanOrEqual(3);
  });

  it('fills every page but the last under a label selector, and never sets remainingItemCount', async () => {
    const suite = uniqueName('sel');
    const mine = itemLabel(suite);
    for (const [i, item] of ['s1', 's2', 's3', 's4', 's5', 's6', 's7', 's8'].entries())
      await c.create(item, { suite, item, step: i % 3 === 1 ? 'skip' : 'a' });
    const selector = encodeURIComponent(`suite=${suite},step=a`);
    const paged = await readAllPages(
      ts.api,
      c.path,
      `limit=${LIMIT}&labelSelector=${selector}`,
      `limit=${LIMIT}&labelSelector=${selector}`,
    );
    expect(paged.pages.map((p) => p.body.items.length)).toEqual([2, 2, 1]);
    expect(paged.pages.every((p) => p.body.metadata.remainingItemCount === undefined)).toBe(true);
    expect(
      paged.pages.every((p) => p.body.metadata.resourceVersion === paged.pages[0]?.body.metadata.resourceVersion),
    ).toBe(true);
    expect(mine(paged.items)).toEqual(['s1:a', 's3:a', 's4:a', 's6:a', 's7:a']);
  });

  it('never sets remainingItemCount under a field selector either', async () => {
    const res = await list(`limit=1&fieldSelector=${encodeURIComponent('metadata.name!=nothing-has-this-name')}`);
    expect(res.body.metadata.continue).toBeTruthy();
    expect(res.body.metadata.remainingItemCount).toBeUndefined();
  });

  it('encodes the continue token as Kubernetes does: raw base64url JSON of version, revision and the key after the last item', async () => {
    const res = await list(`limit=${LIMIT}`);
    const token: string = res.body.metadata.continue;
    expect(token).toMatch(/^[A-Za-z0-9_-]+$/);
    const last = res.body.items[LIMIT - 1] as ApiItem;
    expect(decodeContinueToken(token)).toEqual({
      v: TOKEN_VERSION,
      rv: Number(res.body.metadata.resourceVersion),
      start: `${c.keyOf(last)}\u0000`,
    });
  });

  describe('tampered and garbage tokens', () => {
    let good: { v: string; rv: number; start: string };
    beforeAll(async () => {
      await c.create('t1', {});
      await c.create('t2', {});
      good = decodeContinueToken((await list('limit=1')).body.metadata.continue) as typeof good;
    });

    it.each([
      ['not base64', () => 'abc*def', `${INVALID}: illegal base64 data at input byte 3`],
      ['a truncated quantum', () => 'abcde', `${INVALID}: illegal base64 data at input byte 4`],
      [
        'padding',
        () => `${Buffer.from('{"v":"meta.k8s.io/v1"}').toString('base64url')}==`,
        `${INVALID}: illegal base64 data at input byte 30`,
      ],
      [
        'not JSON',
        () => Buffer.from('hello').toString('base64url'),
        `${INVALID}: invalid character 'h' looking for beginning of value`,
      ],
      [
        'a string revision',
        () => encodeContinueToken({ ...good, rv: String(good.rv) }),
        `${INVALID}: json: cannot unmarshal string into Go struct field continueToken.rv of type int64`,
      ],
      [
        'another version',
        () => encodeContinueToken({ ...good, v: 'meta.k8s.io/v2' }),
        `${INVALID}: server does not recognize this encoded version "meta.k8s.io/v2"`,
      ],
      [
        'revision 0',
        () => encodeContinueToken({ ...good, rv: 0 }),
        `${INVALID}: incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`,
      ],
      [
        'an empty start key',
        () => encodeContinueToken({ ...good, start: '' }),
        `${INVALID}: encoded start key empty (version ${TOKEN_VERSION})`,
      ],
      [
        'a start key climbing out of the collection',
        () => encodeContinueToken({ ...good, start: '../../secrets/x' }),
        `${INVALID}: ../../secrets/x`,
      ],
    ])('answers a token with %s with 400 and Kubernetes’ text', async (_what, token, message) => {
      const res = await list(`limit=1&continue=${encodeURIComponent(token())}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequestStatus(message));
    });

    it('reports a bad token before a resourceVersion sent with it, in etcd3 GetList’s order', async () => {
      const res = await list(`limit=1&resourceVersion=${good.rv}&continue=${encodeContinueToken({ ...good, rv: 0 })}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`${INVALID}: incorrect encoded start resourceVersion (version ${TOKEN_VERSION})`);
    });
  });
});

describe('with --feature-gates=APIListChunking=false', () => {
  let off: TestServer;
  beforeAll(async () => {
    off = await startTestServer(['--feature-gates=APIListChunking=false']);
  });
  afterAll(() => off.stop());

  it.each(COLLECTION_SHAPES)(
    'ignores limit and continue on the %s path: the whole collection, no token',
    async (shape) => {
      const c = await makeCollection(off.api, shape);
      for (const item of ['o1', 'o2', 'o3']) await c.create(item, {});
      const all = await off.api.get(c.path);
      const key = c.keyOf(all.body.items[0] as ApiItem);
      const token = encodeContinueToken({
        v: TOKEN_VERSION,
        rv: Number(all.body.metadata.resourceVersion),
        start: `${key}\u0000`,
      });
      for (const query of [
        `limit=1&continue=${token}`,
        'limit=1&continue=garbage*',
        `limit=1&continue=${token}&resourceVersion=${all.body.metadata.resourceVersion}`,
      ]) {
        const res = await off.api.get(`${c.path}?${query}`);
        expect(res.status).toBe(200);
        expect(res.body.metadata.continue).toBeUndefined();
        expect(res.body.items.map(c.keyOf)).toEqual(expect.arrayContaining(all.body.items.map(c.keyOf)));
        expect(res.body.items.length).toBeGreaterThanOrEqual(3);
      }
    },
  );
});

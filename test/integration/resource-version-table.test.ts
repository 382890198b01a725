// The spec's resourceVersion tables for get and list, cell by cell, as a client observes them (Invalid cells answered like Kubernetes 1.26).
import { startTestServer, eventually, uniqueName, type ApiResponse, type TestServer } from '../helpers/test-server';
import { forbiddenCause, invalidListOptions, type Cause } from '../helpers/list-options-status';
import {
  COLLECTION_SHAPES,
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
const CONTINUE_WITH_RV = 'specifying resource version is not allowed when using continue'; // etcd3/store.go GetList
const UNLESS_RV = 'resourceVersionMatch is forbidden unless resourceVersion is provided'; // internalversion/validation
const EXACT_ZERO = 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"';
const WITH_CONTINUE = 'resourceVersionMatch is forbidden when continue is provided';
// Kubernetes 1.27+ (feature gate WatchList, on here); 1.26 said 'resourceVersionMatch is forbidden for watch' (watch-list.test.ts).
const FOR_WATCH = 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided';

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
});
afterAll(() => ts.stop());

const forbidden = (detail: string): Cause => forbiddenCause('resourceVersionMatch', detail);

function ok(res: ApiResponse): ApiResponse {
  if (res.status !== 200) throw new Error(`expected 200, got ${res.status} ${res.text}`);
  return res;
}

describe.each(COLLECTION_SHAPES)('list table on the %s path', (shape: CollectionShape) => {
  let c: Collection;
  const suite = uniqueName('suite');
  const mine = (items: ApiItem[]): ApiItem[] => items.filter((i) => i.metadata.labels?.['suite'] === suite);
  const mineVersions = (items: ApiItem[]): string[] => versionsOf(mine(items), c.keyOf);
  /** The collection's revision after x1..x3 were created, before x4 and the relabelling of x1. */
  let rvA: string;
  let stateA: string[];
  let lastWriteRv: string;

  const list = async (query: string): Promise<ApiResponse> => ts.api.get(`${c.path}?${query}`);
  const latest = async (): Promise<string[]> => mineVersions(ok(await list('')).body.items);
  /** Every item of a response is what etcd held at the response's resourceVersion (a consistent snapshot). */
  const expectSnapshot = async (resourceVersion: string, items: ApiItem[]): Promise<void> => {
    expect(versionsOf(items, c.keyOf)).toEqual(versionsOf(await exactList(ts.api, c.path, resourceVersion), c.keyOf));
  };
  /** Not-older-than and Any answers catch up with writes made before: eventually the latest state. */
  const expectEventuallyLatest = async (query: string): Promise<void> => {
    const want = await latest();
    expect(want).not.toEqual(stateA);
    await eventually(
      async () => JSON.stringify(mineVersions(ok(await list(query)).body.items)) === JSON.stringify(want),
      5000,
      `${query} to show the latest state`,
    );
  };

  beforeAll(async () => {
    c = await makeCollection(ts.api, shape);
    for (const item of ['x1', 'x2', 'x3']) await c.create(item, { suite, item, step: 'a' });
    const atA = ok(await list(''));
    rvA = atA.body.metadata.resourceVersion;
    stateA = mineVersions(atA.body.items);
    expect(stateA).toHaveLength(3);
    await c.create('x4', { suite, item: 'x4', step: 'b' });
    lastWriteRv = await c.relabel('x1', { step: 'b' });
  });

  describe('resourceVersionMatch unset, limit unset', () => {
    it('rv unset is Most Recent: a write made just before is listed', async () => {
      const written = await c.relabel('x3', { touched: String(Date.now()) });
      const res = ok(await list(''));
      expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(written));
      expect(mine(res.body.items).find((i) => i.metadata.labels?.['item'] === 'x3')?.metadata.resourceVersion).toBe(
        written,
      );
      await expectSnapshot(res.body.metadata.resourceVersion, res.body.items);
    });

    it('rv=0 is Any: a consistent snapshot that eventually shows earlier writes', async () => {
      const res = ok(await list('resourceVersion=0'));
      expect(res.body.metadata.continue).toBeUndefined();
      await expectSnapshot(res.body.metadata.resourceVersion, res.body.items);
      await expectEventuallyLatest('resourceVersion=0');
    });

    it('rv=N is Not older than: the collection resourceVersion is at least N, and not frozen at N', async () => {
      const res = ok(await list(`resourceVersion=${rvA}`));
      expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rvA));
      await expectSnapshot(res.body.metadata.resourceVersion, res.body.items);
      await expectEventuallyLatest(`resourceVersion=${rvA}`);
    });
  });

  describe('resourceVersionMatch unset, limit=n', () => {
    it('rv unset is Most Recent: paged at one revision no older than the last write', async () => {
      const paged = await readAllPages(ts.api, c.path, `limit=${LIMIT}`, `limit=${LIMIT}`);
      const rv = paged.pages[0]?.body.metadata.resourceVersion;
      expect(paged.pages[0]?.body.items).toHaveLength(LIMIT);
      expect(paged.pages.length).toBeGreaterThan(1);
      expect(paged.pages.every((p) => p.body.metadata.resourceVersion === rv)).toBe(true);
      expect(Number(rv)).toBeGreaterThanOrEqual(Number(lastWriteRv));
      expect(mineVersions(paged.items)).toEqual(await latest());
      await expectSnapshot(rv, paged.items);
    });

    it('rv=0 is Any: served whole from the watch cache, limit ignored', async () => {
      const res = ok(await list(`resourceVersion=0&limit=${LIMIT}`));
      expect(res.body.items.length).toBeGreaterThan(LIMIT);
      expect(res.body.metadata.continue).toBeUndefined();
      expect(res.body.metadata.remainingItemCount).toBeUndefined();
      await expectSnapshot(res.body.metadata.resourceVersion, res.body.items);
    });

    it('rv=N is Exact: every page is at N and shows the state at N', async () => {
      const paged = await readAllPages(ts.api, c.path, `limit=${LIMIT}&resourceVersion=${rvA}`, `limit=${LIMIT}`);
      expect(paged.pages[0]?.body.items).toHaveLength(LIMIT);
      expect(paged.pages.map((p) => p.body.metadata.resourceVersion)).toEqual(paged.pages.map(() => rvA));
      expect(mineVersions(paged.items)).toEqual(stateA);
      await expectSnapshot(rvA, paged.items);
    });
  });

  describe('resourceVersionMatch unset, limit=n with continue', () => {
    /** A first page read Exact at rvA: its token carries rvA. */
    let token: string;
    let atA: ApiItem[];
    beforeAll(async () => {
      const first = ok(await list(`limit=${LIMIT}&resourceVersion=${rvA}`));
      token = first.body.metadata.continue;
      expect(token).toBeTruthy();
      atA = await exactList(ts.api, c.path, rvA);
    });

    it.each([
      ['rv unset', ''],
      ['rv=0 (Invalid, treated as Continue Token Exact)', '&resourceVersion=0'],
    ])('%s is Continue Token Exact: the page is read at the token’s revision', async (_cell, rv) => {
      const res = ok(await list(`limit=${LIMIT}&continue=${token}${rv}`));
      expect(res.body.metadata.resourceVersion).toBe(rvA);
      expect(versionsOf(res.body.items, c.keyOf)).toEqual(versionsOf(atA.slice(LIMIT, 2 * LIMIT), c.keyOf));
    });

    it('rv=N is Invalid: 400 BadRequest', async () => {
      const res = await list(`limit=${LIMIT}&continue=${token}&resourceVersion=${rvA}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(badRequestStatus(CONTINUE_WITH_RV));
    });
  });

  describe('resourceVersionMatch=Exact', () => {
    it.each([
      ['limit unset, rv unset', 'resourceVersionMatch=Exact', UNLESS_RV],
      ['limit unset, rv=0', 'resourceVersionMatch=Exact&resourceVersion=0', EXACT_ZERO],
      ['limit=n, rv unset', `resourceVersionMatch=Exact&limit=${LIMIT}`, UNLESS_RV],
      ['limit=n, rv=0', `resourceVersionMatch=Exact&resourceVersion=0&limit=${LIMIT}`, EXACT_ZERO],
    ])('%s is Invalid: 422 on ListOptions', async (_cell, query, detail) => {
      const res = await list(query);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalidListOptions(forbidden(detail)));
    });

    it('limit unset, rv=N is Exact: the state at N with exactly that resourceVersion', async () => {
      const res = ok(await list(`resourceVersionMatch=Exact&resourceVersion=${rvA}`));
      expect(res.body.metadata.resourceVersion).toBe(rvA);
      expect(res.body.metadata.continue).toBeUndefined();
      expect(mineVersions(res.body.items)).toEqual(stateA);
      expect(mine(res.body.items).map((i) => i.metadata.labels?.['step'])).toEqual(['a', 'a', 'a']);
    });

    it('limit=n, rv=N is Exact: every page at N, together the state at N', async () => {
      const paged = await readAllPages(
        ts.api,
        c.path,
        `resourceVersionMatch=Exact&resourceVersion=${rvA}&limit=${LIMIT}`,
        `limit=${LIMIT}`,
      );
      expect(paged.pages[0]?.body.items).toHaveLength(LIMIT);
      expect(paged.pages.map((p) => p.body.metadata.resourceVersion)).toEqual(paged.pages.map(() => rvA));
      expect(mineVersions(paged.items)).toEqual(stateA);
    });
  });

  describe('resourceVersionMatch=NotOlderThan', () => {
    it.each([
      ['limit unset, rv unset', 'resourceVersionMatch=NotOlderThan'],
      ['limit=n, rv unset', `resourceVersionMatch=NotOlderThan&limit=${LIMIT}`],
    ])('%s is Invalid: 422 on ListOptions', async (_cell, query) => {
      const res = await list(query);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalidListOptions(forbidden(UNLESS_RV)));
    });

    it.each([
      ['limit unset', ''],
      ['limit=n', `&limit=${LIMIT}`],
    ])('%s, rv=0 is Any: the whole collection from the cache in one response', async (_cell, limit) => {
      const res = ok(await list(`resourceVersionMatch=NotOlderThan&resourceVersion=0${limit}`));
      expect(res.body.metadata.continue).toBeUndefined();
      expect(res.body.items.length).toBeGreaterThan(LIMIT);
      await expectSnapshot(res.body.metadata.resourceVersion, res.body.items);
      await expectEventuallyLatest(`resourceVersionMatch=NotOlderThan&resourceVersion=0${limit}`);
    });

    it('limit unset, rv=N is Not older than', async () => {
      const res = ok(await list(`resourceVersionMatch=NotOlderThan&resourceVersion=${rvA}`));
      expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rvA));
      await expectSnapshot(res.body.metadata.resourceVersion, res.body.items);
      await expectEventuallyLatest(`resourceVersionMatch=NotOlderThan&resourceVersion=${rvA}`);
    });

    it('limit=n, rv=N is Not older than: pages at one revision ≥ N', async () => {
      const paged = await readAllPages(
        ts.api,
        c.path,
        `resourceVersionMatch=NotOlderThan&resourceVersion=${rvA}&limit=${LIMIT}`,
        `limit=${LIMIT}`,
      );
      const rv = paged.pages[0]?.body.metadata.resourceVersion;
      expect(paged.pages[0]?.body.items).toHaveLength(LIMIT);
      // Read from etcd at its head (as Kubernetes does with a limit), so newer than N after the writes since N.
      expect(Number(rv)).toBeGreaterThan(Number(rvA));
      expect(paged.pages.every((p) => p.body.metadata.resourceVersion === rv)).toBe(true);
      await expectSnapshot(rv, paged.items);
    });
  });

  describe('other invalid list options', () => {
    it('answers an unknown resourceVersionMatch with 422 and the supported values', async () => {
      const res = await list(`resourceVersionMatch=Newest&resourceVersion=${rvA}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalidListOptions({
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
          field: 'resourceVersionMatch',
        }),
      );
    });

    it('reports every broken rule at once: resourceVersionMatch with continue and without resourceVersion', async () => {
      const res = await list(`resourceVersionMatch=NotOlderThan&limit=${LIMIT}&continue=abc`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalidListOptions(forbidden(UNLESS_RV), forbidden(WITH_CONTINUE)));
    });

    it('refuses resourceVersionMatch on a watch without sendInitialEvents with 422 before any stream starts (WatchList rules)', async () => {
      const res = await list(`watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=${rvA}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual(invalidListOptions(forbidden(FOR_WATCH)));
    });

    it('lists every rule a watch breaks, as Kubernetes validates all of them', async () => {
      const res = await list('watch=1&resourceVersionMatch=Exact');
      expect(res.status).toBe(422);
      expect(res.body).toEqual(
        invalidListOptions(forbidden(FOR_WATCH), {
          reason: 'FieldValueNotSupported',
          message: 'Unsupported value: "Exact": supported values: "NotOlderThan"',
          field: 'resourceVersionMatch',
        }),
      );
    });

    it('answers a non-numeric resourceVersion with 400', async () => {
      const res = await list('resourceVersion=abc');
      expect(res.status).toBe(400);
      expect(res.body).toEqual(
        badRequestStatus(
          'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
        ),
      );
    });

    it('validates resourceVersionMatch (422) before it parses the resourceVersion, like Kubernetes', async () => {
      const res = await list('resourceVersion=abc&resourceVersionMatch=Newest');
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(
        'ListOptions.meta.orch.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
      );
    });
  });
});

describe.each(['namespaced', 'cluster-scoped'] as const)('get table on a %s object', (shape) => {
  let c: Collection;
  const get = async (query: string, name = 'g1'): Promise<ApiResponse> => ts.api.get(`${c.objectPath(name)}?${query}`);

  beforeAll(async () => {
    c = await makeCollection(ts.api, shape);
    await c.create('g1', { step: 'a' });
  });

  it('rv unset is Most Recent: sees a write made just before', async () => {
    const written = await c.relabel('g1', { step: 'most-recent' });
    const res = ok(await get(''));
    expect(res.body.metadata.resourceVersion).toBe(written);
    expect(res.body.metadata.labels).toMatchObject({ step: 'most-recent' });
  });

  it('rv=0 is Any: returns the object, and eventually the state after a write', async () => {
    expect(ok(await get('resourceVersion=0')).body.metadata.name).toBe(c.objectPath('g1').split('/').pop());
    const written = await c.relabel('g1', { step: 'any' });
    await eventually(
      async () => ok(await get('resourceVersion=0')).body.metadata.resourceVersion === written,
      5000,
      'the cache to show the write',
    );
    expect(ok(await get('resourceVersion=0')).body.metadata.labels).toMatchObject({ step: 'any' });
  });

  it('rv=0 answers 404 for an object that does not exist', async () => {
    const res = await get('resourceVersion=0', 'missing');
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });

  it('rv=N is Not older than: a resourceVersion returned by a write gives an object at least that new', async () => {
    for (let i = 0; i < 5; i++) {
      const written = await c.relabel('g1', { step: `not-older-${i}` });
      const res = ok(await get(`resourceVersion=${written}`));
      expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(written));
      expect(res.body.metadata.labels).toMatchObject({ step: `not-older-${i}` });
    }
  });

  it('a non-numeric rv answers 400 (Kubernetes 1.26 answers 500)', async () => {
    const res = await get('resourceVersion=abc');
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      badRequestStatus(
        'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
      ),
    );
  });
});

describe('a resourceVersion far beyond etcd’s head', () => {
  const TOO_LARGE_CAUSES = [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }];
  /** Each request waits ~3 s before its 504, so all are sent at once and each test checks one answer. */
  const answers = new Map<string, Promise<ApiResponse>>();
  let beyond: number;

  beforeAll(async () => {
    const c = await makeCollection(ts.api, 'namespaced');
    await c.create('far', {});
    const namespaces = await makeCollection(ts.api, 'cluster-scoped');
    await namespaces.create('far', {});
    beyond = Number(ok(await ts.api.get('/api/v1/namespaces')).body.metadata.resourceVersion) + 1_000_000;
    const paths: Record<string, string> = {
      'get of a namespaced object': `${c.objectPath('far')}?resourceVersion=${beyond}`,
      'get of a cluster-scoped object': `${namespaces.objectPath('far')}?resourceVersion=${beyond}`,
      'list, NotOlderThan without limit (cluster-scoped)': `/api/v1/namespaces?resourceVersionMatch=NotOlderThan&resourceVersion=${beyond}`,
      'list, NotOlderThan with limit': `${c.path}?resourceVersionMatch=NotOlderThan&resourceVersion=${beyond}&limit=${LIMIT}`,
      'list, Exact': `/apis/apps/v1/deployments?resourceVersionMatch=Exact&resourceVersion=${beyond}`,
      'list, limit with rv (Exact)': `${c.path}?resourceVersion=${beyond}&limit=${LIMIT}`,
    };
    for (const [what, path] of Object.entries(paths)) answers.set(what, ts.api.get(path));
  });

  it.each([
    'get of a namespaced object',
    'get of a cluster-scoped object',
    'list, NotOlderThan without limit (cluster-scoped)',
    'list, NotOlderThan with limit',
    'list, Exact',
    'list, limit with rv (Exact)',
  ])('%s: 504 Timeout "Too large resource version" with Retry-After', async (what) => {
    const res = await (answers.get(what) as Promise<ApiResponse>);
    expect(res.status).toBe(504);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(res.body).toMatchObject({
      kind: 'Status',
      status: 'Failure',
      reason: 'Timeout',
      code: 504,
      details: { causes: TOO_LARGE_CAUSES, retryAfterSeconds: 1 },
    });
    expect(res.body.message).toMatch(new RegExp(`^Timeout: Too large resource version: ${beyond}, current: \\d+$`));
  });
});

// The server's own compactor (--etcd-compaction-interval, short) running while a long watch is open and a paged list
// is half read: the long watch goes on without a gap; the old continue token and a watch from the old resourceVersion
// get 410 Expired; a client that relists and watches from the new resourceVersion sees the later events.
import { Etcd3 } from 'etcd3';
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { openWatch, type WatchStream } from '../helpers/watch-client';
import { collectionPath, hpa } from './write-load';

jest.setTimeout(90_000);

const NS = 'compaction-recovery';
const BASE = collectionPath(NS);
const CONTINUE_TOO_OLD = 'The provided continue parameter is too old to display a consistent list result.';
const WATCH_TOO_OLD = 'The resourceVersion for the provided watch is too old.';

let ts: TestServer;
let etcd: Etcd3;
let longWatch: WatchStream;

beforeAll(async () => {
  ts = await startTestServer(['--etcd-compaction-interval=1s']);
  etcd = new Etcd3({ hosts: ts.etcd.clientUrl });
  await createNamespace(ts.api, NS);
});

afterAll(async () => {
  longWatch?.close();
  etcd?.close();
  await ts?.stop();
});

/** Whether etcd's history at `revision` is gone (a range at that revision answers "compacted"). */
async function compactedPast(revision: string): Promise<boolean> {
  try {
    await etcd.kv.range({ key: Buffer.from('/registry'), revision });
    return false;
  } catch (err) {
    return String(err).includes('compacted');
  }
}

describe('compaction by the server while clients hold old resourceVersions', () => {
  let pageRv: string;
  let oldContinue: string;
  let writes = 0;
  const written: string[] = [];

  it('compacts past a first page read and a long watch opened before it', async () => {
    for (let i = 0; i < 5; i++) expect((await ts.api.post(BASE, hpa(`h${i}`))).status).toBe(201);
    const page = await ts.api.get(`${BASE}?limit=2`);
    expect(page.status).toBe(200);
    pageRv = page.body.metadata.resourceVersion;
    oldContinue = page.body.metadata.continue;
    expect(oldContinue).toBeTruthy();
    longWatch = await openWatch(ts.url, `${BASE}?watch=1&resourceVersion=${pageRv}`);
    expect(longWatch.status).toBe(200);
    const startedAt = Date.now();
    // Writes keep the revision moving; the compactor's first round records a revision, a later one compacts past pageRv.
    await eventually(
      async () => {
        const name = `w${writes++}`;
        expect((await ts.api.post(BASE, hpa(name))).status).toBe(201);
        written.push(name);
        return compactedPast(pageRv);
      },
      30_000,
      `etcd compacted past ${pageRv}`,
    );
    console.log(
      `compacted past the page's resourceVersion ${Date.now() - startedAt} ms after it was read (${writes} writes)`,
    );
  });

  it('keeps the long watch going: every later write arrives once, in order, with no ERROR', async () => {
    const events = await longWatch.next(written.length, 10_000);
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(written.map((n) => `ADDED ${n}`));
  });

  it('answers the old continue token with 410 Expired, the too-old message and an inconsistent continue token', async () => {
    const res = await ts.api.get(`${BASE}?limit=2&continue=${encodeURIComponent(oldContinue)}`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(res.body.message).toContain(CONTINUE_TOO_OLD);
    const inconsistent: string = res.body.metadata.continue;
    expect(inconsistent).toBeTruthy();
    const rest = await ts.api.get(`${BASE}?limit=500&continue=${encodeURIComponent(inconsistent)}`);
    expect(rest.status).toBe(200);
    expect(rest.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(
      expect.arrayContaining(['h2', 'h3', 'h4', ...written]),
    );
  });

  it('ends a watch from the old resourceVersion with an ERROR 410 Expired; a relist and a watch from its resourceVersion see later events', async () => {
    const stale = await openWatch(ts.url, `${BASE}?watch=1&resourceVersion=${pageRv}&allowWatchBookmarks=true`);
    expect(stale.status).toBe(200);
    const [error] = await stale.next(1);
    expect(error).toMatchObject({
      type: 'ERROR',
      object: { kind: 'Status', reason: 'Expired', code: 410, message: WATCH_TOO_OLD },
    });
    await stale.ended;
    // The client's recovery (what a reflector does on 410): list again, watch from the list's resourceVersion.
    const relist = await ts.api.get(BASE);
    expect(relist.status).toBe(200);
    expect(relist.body.items).toHaveLength(5 + written.length);
    const fresh = await openWatch(ts.url, `${BASE}?watch=1&resourceVersion=${relist.body.metadata.resourceVersion}`);
    try {
      expect(fresh.status).toBe(200);
      expect((await ts.api.post(BASE, hpa('after-relist'))).status).toBe(201);
      expect((await ts.api.patch(`${BASE}/h0`, { metadata: { labels: { seen: 'yes' } } })).status).toBe(200);
      const events = await fresh.next(2, 10_000);
      expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual(['ADDED after-relist', 'MODIFIED h0']);
    } finally {
      fresh.close();
    }
  });
});

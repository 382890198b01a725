import { Etcd3 } from 'etcd3';
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { openWatch } from '../helpers/watch-client';
import { aDeployment } from '../helpers/fixtures';

// Texts from reference/api-machinery.md 1.4.
const LIST_TOO_OLD = 'The resourceVersion for the provided list is too old.';
const WATCH_TOO_OLD = 'The resourceVersion for the provided watch is too old.';
const CONTINUE_TOO_OLD_INCONSISTENT =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

const NS = 'compaction';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

function expired(message: string): Record<string, unknown> {
  return { kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'Expired', code: 410, message };
}

function decodeToken(token: string): unknown {
  return JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
}

/** Compacts etcd up to its current revision, as an operator running `etcdctl compact` would. */
async function compactEtcd(clientUrl: string): Promise<number> {
  const client = new Etcd3({ hosts: clientUrl });
  try {
    const head = Number((await client.kv.range({ key: Buffer.from('compaction-test/head') })).header.revision);
    await client.kv.compact({ revision: head, physical: true });
    return head;
  } finally {
    client.close();
  }
}

describe('after etcd compaction (operator-run, server compactor off)', () => {
  let ts: TestServer;
  /** A resourceVersion from before the compaction. */
  let oldRv: string;
  /** The continue token of a first page read before the compaction. */
  let oldContinue: string;

  beforeAll(async () => {
    ts = await startTestServer(['--etcd-compaction-interval=0']);
    await createNamespace(ts.api, NS);
    for (const name of ['d1', 'd2', 'd3']) await ts.api.post(DEPLOYMENTS, aDeployment(name));
    const firstPage = await ts.api.get(`${DEPLOYMENTS}?limit=1`);
    expect(firstPage.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['d1']);
    oldRv = firstPage.body.metadata.resourceVersion;
    oldContinue = firstPage.body.metadata.continue;
    // Changes after the first page, then compaction past them.
    await ts.api.post(DEPLOYMENTS, aDeployment('d4'));
    await ts.api.patch(`${DEPLOYMENTS}/d1`, { metadata: { labels: { touched: 'yes' } } });
    await compactEtcd(ts.etcd.clientUrl);
  });
  afterAll(() => ts.stop());

  it('answers 410 Expired to a list at a compacted resourceVersion with resourceVersionMatch=Exact', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?resourceVersion=${oldRv}&resourceVersionMatch=Exact`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject(expired(LIST_TOO_OLD));
  });

  it('answers 410 Expired to a limited list at a compacted resourceVersion (Exact by default with limit)', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?limit=1&resourceVersion=${oldRv}`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject(expired(LIST_TOO_OLD));
  });

  it('answers a compacted continue token with 410 and an inconsistent token that continues at the latest revision', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?limit=1&continue=${oldContinue}`);
    expect(res.status).toBe(410);
    expect(res.body).toMatchObject(expired(CONTINUE_TOO_OLD_INCONSISTENT));
    const inconsistent: string = res.body.metadata.continue;
    expect(inconsistent).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeToken(inconsistent)).toEqual({ v: 'meta.k8s.io/v1', rv: -1, start: 'd1\u0000' });

    // Following it lists the rest as of now, including d4 created after the first page.
    const names: string[] = [];
    let token = inconsistent;
    const revisions = new Set<string>();
    while (token) {
      const page = await ts.api.get(`${DEPLOYMENTS}?limit=1&continue=${token}`);
      expect(page.status).toBe(200);
      names.push(...page.body.items.map((i: { metadata: { name: string } }) => i.metadata.name));
      revisions.add(page.body.metadata.resourceVersion);
      token = page.body.metadata.continue ?? '';
    }
    expect(names).toEqual(['d2', 'd3', 'd4']);
    expect([...revisions].every((rv) => Number(rv) > Number(oldRv))).toBe(true);
  });

  it('ends a watch from a compacted resourceVersion with one ERROR event (410 Expired) on an HTTP 200 stream', async () => {
    const watch = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&resourceVersion=${oldRv}`);
    expect(watch.status).toBe(200);
    const [event] = await watch.next(1);
    expect(event).toEqual({ type: 'ERROR', object: { ...expired(WATCH_TOO_OLD), metadata: {} } });
    await watch.ended;
  });

  it('still answers a GET with a past resourceVersion (NotOlderThan) with the current object', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}/d1?resourceVersion=${oldRv}`);
    expect(res.status).toBe(200);
    expect(res.body.metadata.labels).toMatchObject({ touched: 'yes' });
    expect(Number(res.body.metadata.resourceVersion)).toBeGreaterThan(Number(oldRv));
  });

  it('still answers a list with a past resourceVersion and no limit (NotOlderThan) with the current state', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}?resourceVersion=${oldRv}`);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      'd1',
      'd2',
      'd3',
      'd4',
    ]);
  });
});

describe('the server’s own compactor (--etcd-compaction-interval)', () => {
  let ts: TestServer;

  beforeAll(async () => {
    ts = await startTestServer(['--etcd-compaction-interval=200ms']);
    await createNamespace(ts.api, NS);
  });
  afterAll(() => ts.stop());

  it('compacts history older than one interval, so old Exact lists become 410', async () => {
    const created = await ts.api.post(DEPLOYMENTS, aDeployment('c1'));
    const rv: string = created.body.metadata.resourceVersion;
    expect((await ts.api.get(`${DEPLOYMENTS}?resourceVersion=${rv}&resourceVersionMatch=Exact`)).status).toBe(200);
    // The first round records the revision, the next compacts to it; writes keep the revision moving.
    await eventually(
      async () => {
        await ts.api.patch(`${DEPLOYMENTS}/c1`, { metadata: { labels: { at: String(Date.now()) } } });
        return (await ts.api.get(`${DEPLOYMENTS}?resourceVersion=${rv}&resourceVersionMatch=Exact`)).status === 410;
      },
      10_000,
      'the server to compact etcd',
    );
  });
});

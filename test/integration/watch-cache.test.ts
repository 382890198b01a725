// The watch cache seen from clients: start modes, replay from the window, bookmarks, slow clients, metrics.
import { spawn } from 'node:child_process';
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { openWatch } from '../helpers/watch-client';
import { aDeployment } from '../helpers/fixtures';
import { STOPPED_READER } from '../helpers/stopped-reader';

let ts: TestServer;
const NS = 'cached';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer(['--watch-bookmark-interval=1s']);
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

async function create(name: string, labels: Record<string, string> = {}): Promise<string> {
  const body = aDeployment(name);
  Object.assign(body['metadata'].labels, labels);
  const res = await ts.api.post(DEPLOYMENTS, body);
  expect(res.status).toBe(201);
  return res.body.metadata.resourceVersion as string;
}

/** Connects with a 4 KiB receive buffer, sends the watch request, reads nothing until SIGUSR1, then counts events. */

async function metric(name: string, labelText: string): Promise<number> {
  const text = (await ts.api.get('/metrics')).text;
  const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labelText));
  return line === undefined ? NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('watch start modes', () => {
  it('resourceVersion=0 starts with the cached state as ADDED events, then changes', async () => {
    await create('m0-a');
    const rv = await create('m0-b');
    const list = await ts.api.get(`${DEPLOYMENTS}?resourceVersion=${rv}`);
    const watch = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&resourceVersion=0&labelSelector=app%3Dm0-a`);
    const [added] = await watch.next(1);
    expect(added).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'm0-a' } } });
    expect(list.body.items.map((i: any) => i.metadata.name)).toEqual(expect.arrayContaining(['m0-a', 'm0-b']));
    await ts.api.patch(`${DEPLOYMENTS}/m0-a`, { spec: { replicas: 4 } });
    const [modified] = await watch.next(1);
    expect(modified).toMatchObject({ type: 'MODIFIED', object: { spec: { replicas: 4 } } });
    watch.close();
  });

  it('an older resourceVersion replays every change after it from the cache window, in order', async () => {
    const from = await create('replay-a');
    await create('replay-b');
    await ts.api.patch(`${DEPLOYMENTS}/replay-a`, { spec: { replicas: 2 } });
    await ts.api.delete(`${DEPLOYMENTS}/replay-b`);
    const watch = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&resourceVersion=${from}`);
    const events = await watch.next(3);
    expect(events.map((e) => `${e.type} ${e.object.metadata.name}`)).toEqual([
      'ADDED replay-b',
      'MODIFIED replay-a',
      'DELETED replay-b',
    ]);
    const rvs = events.map((e) => Number(e.object.metadata.resourceVersion));
    expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
    expect(rvs[0]).toBeGreaterThan(Number(from));
    watch.close();
  });

  it('applies selector transitions to replayed events too', async () => {
    const from = await create('trans-a', { tier: 'front' });
    await ts.api.patch(`${DEPLOYMENTS}/trans-a`, { metadata: { labels: { tier: 'back' } } });
    await ts.api.patch(`${DEPLOYMENTS}/trans-a`, { metadata: { labels: { tier: 'front' } } });
    const watch = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&resourceVersion=${from}&labelSelector=tier%3Dfront`);
    const events = await watch.next(2);
    expect(events.map((e) => e.type)).toEqual(['DELETED', 'ADDED']);
    // The DELETED event carries the last matching state at the revision of the change that ended the match.
    expect(events[0]?.object.metadata.labels.tier).toBe('front');
    watch.close();
  });

  it('a resourceVersion=0 list is served from the cache: complete, with limit ignored (as Kubernetes 1.26)', async () => {
    await create('lim-a');
    await create('lim-b');
    const rv = await create('lim-c');
    await eventually(
      async () => (await ts.api.get(`${DEPLOYMENTS}?resourceVersion=0`)).body.metadata.resourceVersion >= rv,
      5000,
      'cache catching up',
    );
    const res = await ts.api.get(`${DEPLOYMENTS}?resourceVersion=0&limit=1`);
    expect(res.status).toBe(200);
    expect(res.body.metadata.continue).toBeUndefined();
    expect(res.body.items.map((i: any) => i.metadata.name)).toEqual(
      expect.arrayContaining(['lim-a', 'lim-b', 'lim-c']),
    );
    const names = res.body.items.map((i: any) => i.metadata.name);
    expect([...names].sort()).toEqual(names);
  });

  it('a GET with resourceVersion=0 or a past resourceVersion returns the object; a deleted one is 404', async () => {
    const rv = await create('get-cached');
    const any = await ts.api.get(`${DEPLOYMENTS}/get-cached?resourceVersion=0`);
    const notOlder = await ts.api.get(`${DEPLOYMENTS}/get-cached?resourceVersion=${rv}`);
    expect(notOlder.status).toBe(200);
    expect(notOlder.body.metadata.resourceVersion).toBe(rv);
    expect([200, 404]).toContain(any.status);
    expect((await ts.api.delete(`${DEPLOYMENTS}/get-cached`)).status).toBe(200);
    // A revision after the delete (the DELETE answers a Status without one): at an older revision the cache may
    // still hold the object, as Kubernetes' cache may.
    const afterDelete = await create('get-cached-after');
    const gone = await ts.api.get(`${DEPLOYMENTS}/get-cached?resourceVersion=${afterDelete}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404 });
  });
});

describe('bookmarks', () => {
  it('sends BOOKMARK events (an empty object carrying a resourceVersion) when asked, and none otherwise', async () => {
    const rv = await create('bm-a');
    const withBookmarks = await openWatch(
      ts.url,
      `${DEPLOYMENTS}?watch=1&resourceVersion=${rv}&allowWatchBookmarks=true`,
    );
    const without = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&resourceVersion=${rv}&timeoutSeconds=3`);
    const [bookmark] = await withBookmarks.next(1, 5000);
    expect(bookmark?.type).toBe('BOOKMARK');
    // An empty Deployment as Go writes one (api-machinery.md, Watch events), with only the resourceVersion set.
    expect(bookmark?.object).toEqual({
      kind: 'Deployment',
      apiVersion: 'apps/v1',
      metadata: { resourceVersion: expect.any(String), creationTimestamp: null },
      spec: {
        selector: null,
        template: { metadata: { creationTimestamp: null }, spec: { containers: null } },
        strategy: {},
      },
      status: {},
    });
    expect(Number(bookmark?.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(Number(rv));
    await expect(without.next(1, 2500)).rejects.toThrow();
    withBookmarks.close();
    without.close();
  });
});

describe('slow clients', () => {
  it('cuts a watcher that stops reading while a fast one receives every event', async () => {
    const rv = await create('slow-target');
    const big = 'x'.repeat(200 * 1024);
    const fast = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&resourceVersion=${rv}`);
    // A client that never reads, with a tiny receive buffer (Node cannot set SO_RCVBUF, Python can): the
    // server's unread bytes pass the cutoff after a few MiB instead of after the kernel's 32 MiB autotuning.
    const slow = spawn(
      'python3',
      ['-c', STOPPED_READER, new URL(ts.url).port, `${DEPLOYMENTS}?watch=1&resourceVersion=${rv}`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let slowOutput = '';
    slow.stdout.setEncoding('utf8').on('data', (d: string) => (slowOutput += d));
    const slowExited = new Promise<void>((resolve) => slow.once('exit', () => resolve()));
    await eventually(async () => slowOutput.includes('connected'), 5000, 'the slow client to connect');
    const writes = 80;
    for (let i = 0; i < writes; i++) {
      const res = await ts.api.patch(`${DEPLOYMENTS}/slow-target`, {
        metadata: { annotations: { blob: `${i}-${big}` } },
      });
      expect(res.status).toBe(200);
    }
    const events = await fast.next(writes, 30_000);
    expect(events.every((e) => e.type === 'MODIFIED')).toBe(true);
    expect(events.map((e) => e.object.metadata.annotations.blob.split('-')[0])).toEqual(
      Array.from({ length: writes }, (_, i) => String(i)),
    );
    await eventually(
      async () => (await metric('apiserver_terminated_watchers_total', 'resource="deployments.apps"')) >= 1,
      10_000,
      'the slow watcher to be cut off',
    );
    // The slow client, reading at last, finds its stream cut short of the events written.
    slow.kill('SIGUSR1');
    await slowExited;
    const received = Number(/events=(\d+)/.exec(slowOutput)?.[1]);
    expect(received).toBeLessThan(writes);
    fast.close();
  }, 60_000);
});

describe('metrics', () => {
  it('reports registered watchers, events sent and the cache window per resource', async () => {
    const rv = await create('metrics-a');
    const watch = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&resourceVersion=${rv}`);
    await ts.api.patch(`${DEPLOYMENTS}/metrics-a`, { spec: { replicas: 5 } });
    await watch.next(1);
    expect(
      await metric('apiserver_longrunning_requests', 'verb="WATCH",group="apps",version="v1",resource="deployments"'),
    ).toBeGreaterThanOrEqual(1);
    expect(await metric('apiserver_watch_events_total', 'kind="Deployment"')).toBeGreaterThanOrEqual(1);
    expect(await metric('apiserver_watch_cache_window_events', 'resource="deployments.apps"')).toBeGreaterThanOrEqual(
      2,
    );
    expect(await metric('watch_cache_capacity', 'resource="deployments.apps"')).toBe(102400);
    watch.close();
  });
});

describe('shutdown', () => {
  it('sends a last BOOKMARK to watchers that allow bookmarks, then ends their streams', async () => {
    const own = await startTestServer();
    try {
      await createNamespace(own.api, NS);
      const created = await own.api.post(DEPLOYMENTS, aDeployment('bye'));
      const watch = await openWatch(
        own.url,
        `${DEPLOYMENTS}?watch=1&resourceVersion=${created.body.metadata.resourceVersion}&allowWatchBookmarks=true`,
      );
      await own.api.patch(`${DEPLOYMENTS}/bye`, { spec: { replicas: 2 } });
      const [modified] = await watch.next(1);
      const stopping = own.server.shutdown();
      const [bookmark] = await watch.next(1);
      expect(bookmark?.type).toBe('BOOKMARK');
      expect(Number(bookmark?.object.metadata.resourceVersion)).toBeGreaterThanOrEqual(
        Number(modified?.object.metadata.resourceVersion),
      );
      await watch.ended;
      await stopping;
    } finally {
      await own.stop();
    }
  });
});

describe('--watch-cache=false', () => {
  it('serves the same watch and list contract straight from etcd', async () => {
    const direct = await startTestServer(['--watch-cache=false']);
    try {
      await createNamespace(direct.api, NS);
      const created = await direct.api.post(DEPLOYMENTS, aDeployment('direct-a'));
      const fromState = await openWatch(direct.url, `${DEPLOYMENTS}?watch=1`);
      const fromRv = await openWatch(
        direct.url,
        `${DEPLOYMENTS}?watch=1&resourceVersion=${created.body.metadata.resourceVersion}`,
      );
      expect((await fromState.next(1))[0]).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'direct-a' } } });
      await direct.api.patch(`${DEPLOYMENTS}/direct-a`, { spec: { replicas: 7 } });
      expect((await fromState.next(1))[0]).toMatchObject({ type: 'MODIFIED', object: { spec: { replicas: 7 } } });
      expect((await fromRv.next(1))[0]).toMatchObject({ type: 'MODIFIED', object: { spec: { replicas: 7 } } });
      const list = await direct.api.get(`${DEPLOYMENTS}?resourceVersion=0&limit=500`);
      expect(list.body.items.map((i: any) => i.metadata.name)).toEqual(['direct-a']);
      expect((await direct.api.get('/metrics')).text).not.toContain('watch_cache_capacity{');
      fromState.close();
      fromRv.close();
    } finally {
      await direct.stop();
    }
  });
});

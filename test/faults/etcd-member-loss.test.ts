// Three etcd members, two server replicas (in-process) on them, under a create/patch/delete load:
// - one member (a follower) killed: writes go on; started again, it catches up (its own revision and keys, read
//   serializably from that member alone, equal the others');
// - two members killed: every request fails fast (within --request-timeout plus a margin) with a 5xx Status, /readyz
//   fails on every replica, and all recovers once one member is back.
import { Etcd3 } from 'etcd3';
import { startEtcdCluster, type EtcdCluster } from '../helpers/etcd-cluster';
import {
  startServerOnEtcd,
  createNamespace,
  eventually,
  type ApiClient,
  type ApiResponse,
} from '../helpers/test-server';
import { startWriteLoad, collectionPath, hpa } from './write-load';
import type { ApiServer } from '../../lib/server/server';

jest.setTimeout(120_000);

const NAMESPACE = 'member-loss';
const KEY_PREFIX = '/registry/autoscaling/horizontalpodautoscalers/member-loss/';
const REQUEST_TIMEOUT_MS = 5_000;
const MARGIN_MS = 1_000;
const DOWN_MS = 3_000;

let cluster: EtcdCluster | undefined;
const servers: ApiServer[] = [];
const apis: ApiClient[] = [];

beforeAll(async () => {
  cluster = await startEtcdCluster({ size: 3 });
  for (let i = 0; i < 2; i++) {
    const started = await startServerOnEtcd(cluster.clientUrls, [
      `--request-timeout=${REQUEST_TIMEOUT_MS / 1000}s`,
      '--etcd-compaction-interval=0',
    ]);
    servers.push(started.server);
    apis.push(started.api);
  }
  await createNamespace(apis[0] as ApiClient, NAMESPACE);
});

afterAll(async () => {
  for (const s of servers) await s.shutdown();
  await cluster?.stop();
});

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** A client of one member only: what it answers comes from that member's own store (serializable reads). */
function memberClient(url: string): Etcd3 {
  return new Etcd3({ hosts: url });
}

async function memberView(url: string): Promise<{ revision: string; keys: string[] }> {
  const client = memberClient(url);
  try {
    const res = await client.kv.range({
      key: Buffer.from(KEY_PREFIX),
      range_end: Buffer.from(KEY_PREFIX.slice(0, -1) + '0'),
      serializable: true,
      keys_only: true,
    });
    return { revision: res.header.revision, keys: res.kvs.map((kv) => `${kv.key.toString()}@${kv.mod_revision}`) };
  } finally {
    client.close();
  }
}

describe('one etcd member of three stopped under load', () => {
  it('keeps writes going, and the restarted member catches up with the others', async () => {
    const c = cluster as EtcdCluster;
    const leader = await c.waitForLeader();
    const victim = (leader + 1) % 3;
    const load = startWriteLoad(apis[0] as ApiClient, NAMESPACE, 4, 'a');
    const loadB = startWriteLoad(apis[1] as ApiClient, NAMESPACE, 4, 'b');
    await sleep(500);
    await c.members[victim]?.stop('SIGKILL');
    const downAt = Date.now();
    // Objects the load never deletes, written while the member is down: the restarted member must get them (the
    // load's own objects may all be deleted by the time it stops).
    const kept = ['kept-0', 'kept-1', 'kept-2'];
    for (const name of kept)
      expect((await (apis[1] as ApiClient).post(collectionPath(NAMESPACE), hpa(name))).status).toBe(201);
    await sleep(Math.max(0, DOWN_MS - (Date.now() - downAt)));
    const upAt = Date.now();
    await c.members[victim]?.start();
    await sleep(1_000);
    await Promise.all([load.stop(), loadB.stop()]);
    const requests = [...load.requests, ...loadB.requests];
    const whileDown = requests.filter((r) => r.start >= downAt && r.end <= upAt);
    const createdWhileDown = whileDown.filter((r) => r.op === 'create' && r.status === 201).length;
    expect(createdWhileDown).toBeGreaterThan(10);
    expect(
      whileDown.filter((r) => r.status >= 500 || r.status === 0).map((r) => `${r.op} ${r.status} ${r.body?.message}`),
    ).toEqual([]);

    // Catch-up: the member's own revision and keys equal the others' (the load has stopped, so they hold still).
    const restarted = c.members[victim]?.clientUrl as string;
    const others = c.members.filter((_, i) => i !== victim).map((m) => m.clientUrl);
    let caughtUpMs = 0;
    await eventually(
      async () => {
        const [mine, ...theirs] = await Promise.all(
          [restarted, ...others].map((u) => memberView(u).catch(() => undefined)),
        );
        const same =
          mine !== undefined &&
          theirs.every(
            (t) =>
              t !== undefined && t.revision === mine.revision && JSON.stringify(t.keys) === JSON.stringify(mine.keys),
          );
        if (same) caughtUpMs = Date.now() - upAt;
        return same;
      },
      30_000,
      'the restarted member to catch up',
    );
    const view = await memberView(restarted);
    expect(kept.map((name) => view.keys.some((k) => k.startsWith(`${KEY_PREFIX}${name}@`)))).toEqual([
      true,
      true,
      true,
    ]);
    console.log(
      `one member down ${upAt - downAt} ms: ${createdWhileDown} creates answered 201 meanwhile, no 5xx; restarted member caught up (revision ${view.revision}, ${view.keys.length} keys) within ${caughtUpMs} ms of its restart`,
    );
  });
});

describe('two etcd members of three stopped', () => {
  it('answers every request fast with a 5xx Status, fails /readyz on every replica, and recovers when a member returns', async () => {
    const c = cluster as EtcdCluster;
    await c.waitHealthy();
    const leader = await c.waitForLeader();
    const down = [leader, (leader + 1) % 3];
    await Promise.all(down.map((i) => c.members[i]?.stop('SIGKILL')));
    const stoppedAt = Date.now();
    for (const api of apis)
      await eventually(async () => (await api.get('/readyz')).status === 500, 10_000, '/readyz to fail');
    const readyzFailedMs = Date.now() - stoppedAt;
    const readyz = await Promise.all(apis.map((api) => api.get('/readyz?verbose')));
    for (const r of readyz) expect(r.text).toContain('[-]etcd failed');

    const base = collectionPath(NAMESPACE);
    const timed: Array<{ what: string; ms: number; res: ApiResponse }> = [];
    const time = async (what: string, call: () => Promise<ApiResponse>): Promise<void> => {
      const start = Date.now();
      const res = await call();
      timed.push({ what, ms: Date.now() - start, res });
    };
    for (const [r, api] of apis.entries()) {
      for (let i = 0; i < 3; i++) {
        await time(`create ${r}`, () => api.post(base, hpa(`no-quorum-${r}-${i}`)));
        await time(`get ${r}`, () => api.get(`${base}/a-0-0`));
        await time(`list ${r}`, () => api.get(base));
        await time(`patch ${r}`, () => api.patch(`${base}/a-0-0`, { metadata: { labels: { x: String(i) } } }));
      }
    }
    for (const t of timed) {
      expect({ what: t.what, slow: t.ms >= REQUEST_TIMEOUT_MS + MARGIN_MS }).toEqual({ what: t.what, slow: false });
      expect(t.res.status).toBeGreaterThanOrEqual(500);
      expect(t.res.body).toMatchObject({ kind: 'Status', apiVersion: 'v1', status: 'Failure', code: t.res.status });
      expect(['ServerTimeout', 'Timeout', 'InternalError']).toContain(t.res.body.reason);
    }
    const answers = new Map<string, number>();
    for (const t of timed)
      answers.set(
        `${t.what.split(' ')[0]} ${t.res.status} ${t.res.body.reason}`,
        (answers.get(`${t.what.split(' ')[0]} ${t.res.status} ${t.res.body.reason}`) ?? 0) + 1,
      );

    const restartedAt = Date.now();
    await c.members[down[1] as number]?.start();
    for (const api of apis)
      await eventually(async () => (await api.get('/readyz')).status === 200, 30_000, '/readyz to recover');
    for (const [r, api] of apis.entries()) {
      await eventually(
        async () => (await api.post(base, hpa(`quorum-back-${r}-${Date.now()}`))).status === 201,
        30_000,
        'a create to succeed',
      );
    }
    const recoveredMs = Date.now() - restartedAt;
    await c.members[down[0] as number]?.start();
    const ms = timed.map((t) => t.ms).sort((a, b) => a - b);
    console.log(
      `two members down: /readyz failed on both replicas ${readyzFailedMs} ms after the kill; ${timed.length} requests answered in ${ms[0]}–${ms[ms.length - 1]} ms (median ${ms[Math.floor(ms.length / 2)]}; bound ${REQUEST_TIMEOUT_MS + MARGIN_MS}): ${JSON.stringify(Object.fromEntries(answers))}; recovered (readyz and creates on both replicas) ${recoveredMs} ms after one member restarted`,
    );
  });
});

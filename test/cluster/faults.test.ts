// Fault tests of the local cluster (deploy/local/cluster.sh: 3 etcd members, 3 replicas, haproxy): a replica killed
// with SIGKILL under thousands of creates, and the controllers' leader killed.
import { request } from 'node:https';
import { LocalCluster, etcdctl } from './local-cluster';

jest.setTimeout(240_000);

const cluster = new LocalCluster();
const watches: { stop(): void }[] = [];
const NS_PATH = '/apis/apps/v1/namespaces/default/deployments';
const CREATES = 5000;
const CONCURRENCY = 32;

function deployment(name: string, extra: Record<string, unknown> = {}): unknown {
  const labels = { app: 'fault' };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels, ...extra },
    spec: { selector: { matchLabels: labels }, template: { metadata: { labels }, spec: { containers: [{ name: 'c', image: 'img' }] } } },
  };
}

interface WatchedEvent {
  type: string;
  name: string;
  rv: number;
}

/**
 * A watch that starts on one replica and, whenever its stream ends, resumes through the load balancer from the last
 * resourceVersion it saw.
 */
class ResumingWatch {
  readonly events: WatchedEvent[] = [];
  resumes = 0;
  #rv: string;
  #stopped = false;
  #current: { destroy(): void } | undefined;

  #port: number;

  constructor(fromRv: string, firstPort: number) {
    this.#rv = fromRv;
    this.#port = firstPort;
    this.#open();
  }

  #open(): void {
    if (this.#stopped) return;
    // However this stream ends (server closed it, connection reset or refused), resume once.
    let ended = false;
    const again = (): void => {
      if (ended) return;
      ended = true;
      this.#again();
    };
    const req = request(
      { host: '127.0.0.1', port: this.#port, path: `${NS_PATH}?watch=1&labelSelector=app%3Dfault&resourceVersion=${this.#rv}`, agent: false, ca: cluster.agent?.options.ca, headers: { authorization: cluster.authorization } },
      (res) => {
        let buf = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          buf += chunk;
          let nl: number;
          while ((nl = buf.indexOf('\n')) >= 0) {
            const line = buf.slice(0, nl);
            buf = buf.slice(nl + 1);
            if (!line.trim()) continue;
            const ev = JSON.parse(line) as { type: string; object: { metadata: { name: string; resourceVersion: string } } };
            if (ev.type === 'ERROR') throw new Error(`watch error: ${line}`);
            this.#rv = ev.object.metadata.resourceVersion;
            if (ev.type !== 'BOOKMARK') this.events.push({ type: ev.type, name: ev.object.metadata.name, rv: Number(this.#rv) });
          }
        });
        res.on('end', again);
        res.on('close', again);
        res.on('error', again);
      },
    );
    req.on('error', again);
    req.end();
    this.#current = req;
  }

  #again(): void {
    if (this.#stopped) return;
    this.resumes++;
    this.#port = cluster.lb;
    setTimeout(() => this.#open(), 200);
  }

  stop(): void {
    this.#stopped = true;
    this.#current?.destroy();
  }
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs: number): Promise<number> {
  const start = Date.now();
  for (;;) {
    if (await check()) return Date.now() - start;
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  await cluster.up();
}, 200_000);

afterAll(async () => {
  for (const w of watches) w.stop();
  await cluster.down();
}, 60_000);

test('kill -9 of one replica during 5,000 creates through haproxy: every 201 is in etcd once, the watch misses and repeats nothing', async () => {
  const list = await cluster.call('GET', cluster.lb, `${NS_PATH}?labelSelector=app%3Dfault`);
  expect(list.status).toBe(200);
  // One watch opened on each replica, so the killed one (replica2) carries one of them; resumes go through haproxy.
  const fromRv = (JSON.parse(list.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
  const mine = [1, 2, 3].map((i) => new ResumingWatch(fromRv, cluster.ports[`REPLICA${i}_PORT`] ?? 0));
  watches.push(...mine);

  const acknowledged = new Set<string>();
  const afterRetry409: string[] = [];
  const failures: string[] = [];
  let connectionRetries = 0;
  let next = 0;
  let killed = false;
  const victim = cluster.pid('replica2');
  const worker = async (): Promise<void> => {
    for (let i = next++; i < CREATES; i = next++) {
      const name = `f-${i}`;
      if (i === 1000 && !killed) {
        killed = true;
        process.kill(victim, 'SIGKILL');
      }
      for (let attempt = 0; ; attempt++) {
        let reply;
        try {
          reply = await cluster.call('POST', cluster.lb, NS_PATH, deployment(name));
        } catch {
          connectionRetries++;
          if (attempt > 20) throw new Error(`${name}: no answer after ${attempt} attempts`);
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        if (reply.status === 201) acknowledged.add(name);
        // A retried create whose first attempt committed before the connection broke: the object exists.
        else if (reply.status === 409 && attempt > 0) afterRetry409.push(name);
        else failures.push(`${name}: ${reply.status} ${reply.body.slice(0, 200)}`);
        break;
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  expect(killed).toBe(true);
  expect(failures).toEqual([]);
  expect(acknowledged.size + afterRetry409.length).toBe(CREATES);

  // etcd holds every acknowledged object exactly once (keys are unique; the count rules out strays).
  const keys = (await etcdctl(cluster.etcdEndpoints(), 'get', '--prefix', '--keys-only', '/registry/apps/deployments/default/f-'))
    .split('\n')
    .filter((l) => l.trim());
  expect(keys.length).toBe(CREATES);
  const stored = new Set(keys.map((k) => k.slice('/registry/apps/deployments/default/'.length)));
  for (const name of acknowledged) expect(stored.has(name)).toBe(true);

  // Each watch saw each creation exactly once, in strictly increasing resourceVersion order, across its resumes.
  for (const watch of mine) {
    await until('watch catches up', () => watch.events.length >= CREATES, 60_000);
    watch.stop();
    const rvs = watch.events.map((e) => e.rv);
    expect(rvs.every((rv, i) => i === 0 || rv > (rvs[i - 1] ?? 0))).toBe(true);
    expect(watch.events.every((e) => e.type === 'ADDED')).toBe(true);
    expect(new Set(watch.events.map((e) => e.name))).toEqual(stored);
    expect(watch.events.length).toBe(CREATES);
  }
  expect(mine[1]?.resumes).toBeGreaterThan(0);
  console.log(`creates: ${acknowledged.size} × 201, ${afterRetry409.length} × 409 after a retry, ${connectionRetries} connection retries; watch resumes ${mine.map((w) => w.resumes).join('/')}`);

  // Bring the killed replica back for the next test.
  await cluster.up();
});

test('controllers leader killed: another replica leads within 15 s and garbage collection runs there', async () => {
  const leaderKey = '/registry/orch-leader-election/controllers';
  const leaderOf = async (): Promise<string> => (await etcdctl(cluster.etcdEndpoints(), 'get', '--print-value-only', leaderKey)).trim();
  await until('a controllers leader', async () => (await leaderOf()) !== '', 30_000);
  const before = await leaderOf();
  // The leader is the replica whose election logged "started leading" with the identity the election key holds
  // (a replica restarted earlier has a new identity, so an old process's lines in the same log do not match).
  const victims = [1, 2, 3].filter((i) => cluster.log(`replica${i}`).split('\n').some((l) => l.includes(before) && l.includes('started leading')));
  expect(victims.length).toBe(1);
  const victim = victims[0] ?? 0;
  process.kill(cluster.pid(`replica${victim}`), 'SIGKILL');
  const moved = await until('leadership moves', async () => {
    const now = await leaderOf().catch(() => '');
    return now !== '' && now !== before;
  }, 15_000);
  console.log(`controllers leadership moved ${moved} ms after kill -9`);

  // Garbage collection works on the new leader: a dependent of a deleted owner disappears.
  const owner = await cluster.call('POST', cluster.lb, NS_PATH, deployment('gc-owner'));
  expect(owner.status).toBe(201);
  const uid = (JSON.parse(owner.body) as { metadata: { uid: string } }).metadata.uid;
  const dep = await cluster.call('POST', cluster.lb, NS_PATH, deployment('gc-dependent', { ownerReferences: [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'gc-owner', uid, blockOwnerDeletion: true }] }));
  expect(dep.status).toBe(201);
  // Foreground deletion: the garbage collector (on the leader only) deletes the dependent, then the owner.
  const del = await cluster.call('DELETE', cluster.lb, `${NS_PATH}/gc-owner?propagationPolicy=Foreground`);
  expect(`${del.status} ${del.body}`).toMatch(/^200 /);
  await until('owner removed after its dependent', async () => (await cluster.call('GET', cluster.lb, `${NS_PATH}/gc-owner`)).status === 404, 30_000);
  expect((await cluster.call('GET', cluster.lb, `${NS_PATH}/gc-dependent`)).status).toBe(404);
  await cluster.up();
});

test('rolling restart (make cluster-restart) under steady load: no acknowledged write lost, retrying clients see no error', async () => {
  const acknowledged = new Set<string>();
  const failures: string[] = [];
  let connectionRetries = 0;
  let done = false;
  let n = 0;
  const worker = async (): Promise<void> => {
    while (!done) {
      const name = `r-${n++}`;
      for (let attempt = 0; ; attempt++) {
        let reply;
        try {
          reply = await cluster.call('POST', cluster.lb, NS_PATH, deployment(name));
        } catch {
          connectionRetries++;
          if (attempt > 50) throw new Error(`${name}: no answer after ${attempt} attempts`);
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        if (reply.status === 201) acknowledged.add(name);
        else if (!(reply.status === 409 && attempt > 0)) failures.push(`${name}: ${reply.status} ${reply.body.slice(0, 200)}`);
        break;
      }
    }
  };
  const load = Promise.all(Array.from({ length: 8 }, worker));
  await cluster.script('restart');
  done = true;
  await load;
  expect(failures).toEqual([]);
  expect(acknowledged.size).toBeGreaterThan(100);
  const stored = new Set(
    (await etcdctl(cluster.etcdEndpoints(), 'get', '--prefix', '--keys-only', '/registry/apps/deployments/default/r-'))
      .split('\n')
      .filter((l) => l.trim())
      .map((k) => k.slice('/registry/apps/deployments/default/'.length)),
  );
  for (const name of acknowledged) expect(stored.has(name)).toBe(true);
  console.log(`rolling restart: ${acknowledged.size} creates acknowledged, ${connectionRetries} connection retries`);
});

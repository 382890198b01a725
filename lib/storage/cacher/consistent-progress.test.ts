// Consistent reads of a quiet resource while another one is written (real etcd): the quiet cache catches up through
// a progress answer on the shared watch stream where answers can be applied, and reads etcd at once where not.
import pino from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { newEtcdClient } from '../etcd/client';
import { EtcdStorage } from '../etcd/store';
import { answersInOrder, watchProgressOf } from '../etcd/watch-progress';
import { Cacher } from './cacher';
import { RevisionLedger } from './revision-ledger';

const shared = useTestEtcd();
let run = 0;

const thing = (name: string): ApiObject => ({ apiVersion: 'v1', kind: 'Thing', metadata: { name } }) as ApiObject;

async function setUp(ledger?: RevisionLedger): Promise<{
  client: ReturnType<typeof newEtcdClient>;
  storage: EtcdStorage;
  quiet: Cacher;
  busy: Cacher;
  busyPrefix: string;
  quietPrefix: string;
}> {
  const client = newEtcdClient(shared.etcd().clientUrl);
  const storage = new EtcdStorage(client);
  const base = `/consistent-progress/${++run}`;
  const cacher = (prefix: string): Cacher =>
    new Cacher({
      storage,
      prefix,
      keyOf: (obj) => `${prefix}${obj.metadata.name ?? ''}`,
      capacity: 100,
      minAgeMs: 0,
      bookmarkIntervalMs: 60_000,
      consistentReads: true,
      ...(ledger ? { ledger } : {}),
      log: pino({ level: 'silent' }),
    });
  const quietPrefix = `${base}/quiet/`;
  const busyPrefix = `${base}/busy/`;
  const quiet = cacher(quietPrefix);
  const busy = cacher(busyPrefix);
  await storage.create(`${quietPrefix}a`, thing('a'));
  for (const c of [quiet, busy]) {
    c.start();
    await c.waitReady();
  }
  return { client, storage, quiet, busy, busyPrefix, quietPrefix };
}

/** Writes under the busy prefix and waits until the busy cache has them all (nothing left in flight on the stream). */
async function writeBusy(storage: EtcdStorage, busy: Cacher, prefix: string, count: number, from = 0): Promise<number> {
  let last = 0;
  for (let i = from; i < from + count; i++)
    last = Number((await storage.create(`${prefix}b${i}`, thing(`b${i}`))).metadata.resourceVersion);
  expect(await busy.waitForRevision(last, 5000)).toBe(true);
  return last;
}

describe('consistent reads of a quiet resource while another is written', () => {
  it('catch up through one progress answer on the shared watch stream when its answers can be applied', async () => {
    const { client, storage, quiet, busy, busyPrefix, quietPrefix } = await setUp();
    try {
      // Both watches are synced and every write was delivered: the state in which even etcd 3.4.23 answers truly.
      watchProgressOf(client)?.assumeAnswersInOrder();
      const last = await writeBusy(storage, busy, busyPrefix, 20);
      expect(quiet.revision).toBeLessThan(last);
      expect(await quiet.caughtUpWithEtcd()).toBe(true);
      expect(quiet.revision).toBeGreaterThanOrEqual(last);
      expect(quiet.list(quietPrefix).items.map((o) => o.metadata.name)).toEqual(['a']);
      expect(quiet.stats()).toMatchObject({ consistentReadsFromCache: 1, consistentReadsFellBack: 0 });
      expect(watchProgressOf(client)?.answers).toBeGreaterThanOrEqual(1);
    } finally {
      await quiet.stop();
      await busy.stop();
      client.close();
    }
  });

  it("read etcd where the answers cannot be applied (this etcd's own version decides)", async () => {
    const { client, storage, quiet, busy, busyPrefix } = await setUp();
    try {
      const { version } = await client.maintenance.status();
      const last = await writeBusy(storage, busy, busyPrefix, 20);
      const caughtUp = await quiet.caughtUpWithEtcd();
      // 3.4.31+ / 3.5.13+ answer in order: the quiet cache catches up; older versions: etcd is read.
      const inOrder = answersInOrder(version);
      expect(caughtUp).toBe(inOrder);
      if (!inOrder) {
        expect(quiet.revision).toBeLessThan(last);
        expect(quiet.stats()).toMatchObject({ consistentReadsFromCache: 0, consistentReadsFellBack: 1 });
      }
    } finally {
      await quiet.stop();
      await busy.stop();
      client.close();
    }
  });

  it('catch up through the other caches applying the revisions in between (the revision ledger, any etcd)', async () => {
    const { client, storage, quiet, busy, busyPrefix, quietPrefix } = await setUp(new RevisionLedger());
    try {
      const last = await writeBusy(storage, busy, busyPrefix, 20);
      expect(quiet.revision).toBeLessThan(last);
      expect(await quiet.caughtUpWithEtcd()).toBe(true);
      expect(quiet.revision).toBeGreaterThanOrEqual(last);
      expect(quiet.list(quietPrefix).items.map((o) => o.metadata.name)).toEqual(['a']);
      // The same for a watch's quorum revision (cached-watch.ts waits through reach()).
      const next = await writeBusy(storage, busy, busyPrefix, 3, 50);
      expect(await quiet.reach(next, 1000)).toBe(true);
      expect(quiet.revision).toBe(next);
      expect(await quiet.reach(next + 1, 20)).toBe(false); // nobody wrote next + 1 yet

      // A write of the quiet resource itself is never skipped: read at once after it was acknowledged, the cache
      // either has it or the caller reads etcd.
      for (let i = 0; i < 20; i++) {
        await writeBusy(storage, busy, busyPrefix, 1, 100 + i);
        await storage.create(`${quietPrefix}q${i}`, thing(`q${i}`));
        const fromCache = await quiet.caughtUpWithEtcd();
        if (fromCache) expect(quiet.get(`${quietPrefix}q${i}`)?.metadata.name).toBe(`q${i}`);
      }
      // Once the quiet cache's own events arrived, the busy writes in between are accounted for again.
      const lastBusy = await writeBusy(storage, busy, busyPrefix, 5, 200);
      expect(await quiet.waitForRevision(lastBusy - 5, 5000)).toBe(true);
      expect(await quiet.caughtUpWithEtcd()).toBe(true);
      expect(quiet.list(quietPrefix).items).toHaveLength(21);
    } finally {
      await quiet.stop();
      await busy.stop();
      client.close();
    }
  });
});

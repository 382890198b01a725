import { Etcd3 } from 'etcd3';
import pino, { type Logger } from 'pino';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { COMPACT_REV_KEY, Compactor } from './compactor';

/** Long enough that no timer round runs while a test drives rounds with compactNow(). */
const MANUAL_INTERVAL_MS = 3_600_000;
const SHORT_INTERVAL_MS = 150;

const shared = useTestEtcd();
let lines: { level: number; msg: string; revision?: number }[];
let log: Logger;
const running: Compactor[] = [];

beforeEach(async () => {
  // Every test starts like a fresh cluster: no compactor has run yet.
  await shared.client().delete().key(COMPACT_REV_KEY).exec();
  lines = [];
  log = pino(
    { level: 'debug' },
    { write: (line: string) => void lines.push(JSON.parse(line) as (typeof lines)[number]) },
  );
});
afterEach(async () => {
  await Promise.all(running.splice(0).map((c) => c.stop()));
});

function compactor(intervalMs = MANUAL_INTERVAL_MS, etcdClient: Etcd3 = shared.client()): Compactor {
  const c = new Compactor(etcdClient, intervalMs, log);
  running.push(c);
  return c;
}

async function writeSome(n: number): Promise<number> {
  let revision = 0;
  for (let i = 0; i < n; i++)
    revision = Number(
      (await shared.client().put(`/compactor-test/k${i}`).value(String(Date.now())).exec()).header.revision,
    );
  return revision;
}

/** Whether etcd still keeps its history at `revision` (a range there fails once compacted past it). */
async function readableAt(revision: number): Promise<boolean> {
  try {
    await shared
      .client()
      .kv.range({ key: Buffer.from('/compactor-test/'), range_end: Buffer.from('/compactor-test0'), revision });
    return true;
  } catch (err) {
    if (err instanceof Error && err.message.includes('compacted')) return false;
    throw err;
  }
}

async function compactRevKey(): Promise<{ value: string; version: number; modRevision: number }> {
  const kv = (await shared.client().get(COMPACT_REV_KEY).exec()).kvs[0];
  if (!kv) throw new Error(`${COMPACT_REV_KEY} is absent`);
  return { value: kv.value.toString(), version: Number(kv.version), modRevision: Number(kv.mod_revision) };
}

async function eventually(probe: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('Compactor', () => {
  it('only records in the first round and compacts to that round’s revision in the second', async () => {
    const c = compactor();
    await writeSome(3);
    expect(await c.compactNow()).toEqual({ won: true });
    const first = await compactRevKey();
    expect(first).toMatchObject({ value: '0', version: 1 });
    // The winning transaction's put is its last write, so the key's mod revision is the revision it saw.
    const recorded = first.modRevision;
    const before = recorded - 1;
    expect(await readableAt(before)).toBe(true);

    const afterFirstRound = await writeSome(3);
    expect(await c.compactNow()).toEqual({ won: true, compactedRevision: recorded });
    expect(await compactRevKey()).toMatchObject({ value: String(recorded), version: 2 });
    expect(await readableAt(before)).toBe(false);
    // History since the previous round (at least one interval) is kept.
    expect(await readableAt(recorded)).toBe(true);
    expect(await readableAt(afterFirstRound - 1)).toBe(true);
    expect(lines).toContainEqual(expect.objectContaining({ level: 30, msg: 'compacted etcd', revision: recorded }));
  });

  it('lets only one of two replicas on one etcd compact per round', async () => {
    const a = compactor();
    const b = compactor();
    expect(await a.compactNow()).toEqual({ won: true });
    expect(await b.compactNow()).toEqual({ won: false });
    const recorded = (await compactRevKey()).modRevision;
    await writeSome(2);

    // b adopted the key's version, so whichever replica goes first in the next round wins it.
    const second = await b.compactNow();
    expect(second).toEqual({ won: true, compactedRevision: recorded });
    expect(await a.compactNow()).toEqual({ won: false });
    expect(await compactRevKey()).toMatchObject({ version: 2 });
    expect(lines.filter((l) => l.msg === 'compacted etcd')).toHaveLength(1);
  });

  it('compacts once per interval in total when two replicas run on timers', async () => {
    const a = compactor(SHORT_INTERVAL_MS);
    const b = compactor(SHORT_INTERVAL_MS);
    a.start();
    b.start();
    await eventually(
      async () => Number((await shared.client().get(COMPACT_REV_KEY).exec()).kvs[0]?.version ?? 0) >= 4,
      `${COMPACT_REV_KEY} version 4`,
    );
    await Promise.all([a.stop(), b.stop()]);
    const { version, value } = await compactRevKey();
    const compactions = lines.filter((l) => l.msg === 'compacted etcd');
    // Every winning round but the first compacts; the loser's rounds add nothing.
    expect(compactions).toHaveLength(version - 1);
    expect(lines.filter((l) => l.msg === 'etcd compaction done elsewhere this interval').length).toBeGreaterThanOrEqual(
      version - 1,
    );
    expect(compactions[compactions.length - 1]?.revision).toBe(Number(value));
    expect(await readableAt(Number(value) - 1)).toBe(false);
    expect(await readableAt(Number(value))).toBe(true);
  });

  it('runs no round after stop()', async () => {
    const c = compactor(SHORT_INTERVAL_MS);
    c.start();
    await eventually(
      async () => (await shared.client().get(COMPACT_REV_KEY).exec()).kvs.length > 0,
      `${COMPACT_REV_KEY} written`,
    );
    await c.stop();
    const { version } = await compactRevKey();
    await new Promise((r) => setTimeout(r, SHORT_INTERVAL_MS * 3));
    expect((await compactRevKey()).version).toBe(version);
  });

  it('treats history already compacted further (etcdctl compact) as done', async () => {
    const c = compactor();
    await c.compactNow();
    const head = await writeSome(2);
    await shared.client().kv.compact({ revision: head });
    expect(await c.compactNow()).toEqual({ won: true });
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
  });

  it('warns when a round fails and keeps trying', async () => {
    const closed = new Etcd3({ hosts: shared.etcd().clientUrl });
    closed.close();
    const c = compactor(SHORT_INTERVAL_MS, closed);
    await expect(c.compactNow()).rejects.toThrow();
    c.start();
    await eventually(
      async () => lines.filter((l) => l.level === 40 && l.msg === 'etcd compaction failed').length >= 2,
      'two failed rounds logged',
    );
  });

  it('refuses a non-positive interval', () => {
    expect(() => new Compactor(shared.client(), 0, log)).toThrow(RangeError);
  });
});

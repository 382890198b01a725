// Cacher on a real etcd, with the etcd change stream broken on demand: resume without loss or duplicates,
// and re-list with 410 to watchers when the resume revision has been compacted meanwhile; the paged fill with progress.
import pino from 'pino';
import { startedCacher } from '../testing/started-cacher';
import type { ApiObject } from '../../apimachinery/meta/types';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { EtcdStorage } from '../etcd/store';
import type { ChangeSink, Storage, WatchHandle } from '../storage';
import { StorageError } from '../storage-error';
import type { Cacher } from './cacher';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';
import { sinkDelivery } from './sink-delivery';
import type { ListOptions, ListResult, StorageEvent } from '../storage';
import { Writable } from 'node:stream';

const shared = useTestEtcd();
let prefixCounter = 0;

/** Storage whose change streams the test can break, holding re-watches until released. */
class BreakableStorage extends EtcdStorage {
  #sinks: ChangeSink[] = [];
  #gate: Promise<void> | undefined;
  #open: (() => void) | undefined;
  watches = 0;

  override async watchChanges(prefix: string, afterRevision: number, sink: ChangeSink): Promise<WatchHandle> {
    await this.#gate;
    this.watches++;
    const handle = await super.watchChanges(prefix, afterRevision, sink);
    this.#sinks.push(sink);
    return handle;
  }

  /** Change streams open now (a ready cache may still be opening its first one). */
  get streams(): number {
    return this.#sinks.length;
  }

  /** Breaks every open change stream; new ones wait until release(). */
  break(): void {
    this.#gate = new Promise((resolve) => (this.#open = resolve));
    for (const sink of this.#sinks.splice(0)) sink.error(new StorageError('Unreachable', '', 'test: connection lost'));
  }

  release(): void {
    this.#open?.();
    this.#gate = undefined;
  }
}

/** Storage that runs `between` once, after the first page of a paged list was read. */
class InterleavingStorage extends EtcdStorage {
  between: (() => Promise<void>) | undefined;
  pages = 0;

  override async list(prefix: string, options?: ListOptions): Promise<ListResult> {
    const result = await super.list(prefix, options);
    if (options?.limit !== undefined) this.pages++;
    const between = this.between;
    this.between = undefined;
    if (between) await between();
    return result;
  }
}

function capturedLog(): { lines: Record<string, unknown>[]; log: pino.Logger } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString('utf8').split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, log: pino({ level: 'info' }, stream) };
}

const summary = (o: ApiObject): string =>
  `${o.metadata.name} ${o.metadata.resourceVersion} ${(o as { spec?: { value?: string } }).spec?.value}`;

interface Recorded {
  events: string[];
  failures: Error[];
  delivery: WatchDelivery;
}

function recorder(): Recorded {
  const out: Recorded = {
    events: [],
    failures: [],
    delivery: {
      send: (type, object) => out.events.push(`${type} ${object.metadata.name} ${object.metadata.resourceVersion}`),
      flush: () => undefined,
      bookmark: () => undefined,
      fail: (err) => out.failures.push(err),
      end: () => undefined,
    },
  };
  return out;
}

function thing(name: string, value: string): ApiObject {
  return { apiVersion: 'v1', kind: 'Thing', metadata: { name }, spec: { value } } as ApiObject;
}

async function until(probe: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function setup(): { storage: BreakableStorage; cacher: Cacher; prefix: string } {
  const storage = new BreakableStorage(shared.client());
  const prefix = `/cacher-${++prefixCounter}/things/`;
  return { storage, cacher: startedCacher(storage, prefix), prefix };
}

describe('Cacher on etcd', () => {
  it('resumes a broken etcd watch from the revision it applied: nothing lost, nothing repeated', async () => {
    const { storage, cacher, prefix } = setup();
    try {
      await cacher.waitReady();
      const watcher = recorder();
      const start = cacher.watch({ prefix, delivery: watcher.delivery }, undefined);
      expect(start.kind).toBe('started');
      await storage.create(`${prefix}a`, thing('a', '1'));
      await until(() => watcher.events.length === 1, 'the first event');
      storage.break();
      const b = await storage.create(`${prefix}b`, thing('b', '1'));
      await storage.guaranteedUpdate(`${prefix}a`, (cur) => ({ object: { ...cur, spec: { value: '2' } } }));
      await storage.delete(`${prefix}b`);
      storage.release();
      await until(() => watcher.events.length === 4, 'the events written while the stream was broken');
      expect(watcher.events.map((e) => e.split(' ').slice(0, 2).join(' '))).toEqual([
        'ADDED a',
        'ADDED b',
        'MODIFIED a',
        'DELETED b',
      ]);
      expect(watcher.events[1]).toBe(`ADDED b ${b.metadata.resourceVersion}`);
      expect(watcher.failures).toEqual([]);
      expect(cacher.stats().initializations).toBe(1);
      expect(storage.watches).toBe(2);
    } finally {
      await cacher.stop();
    }
  });

  it('re-lists when its resume revision was compacted, and its watchers get one 410 error', async () => {
    const { storage, cacher, prefix } = setup();
    try {
      await cacher.waitReady();
      await storage.create(`${prefix}a`, thing('a', '1'));
      const watcher = recorder();
      cacher.watch({ prefix, delivery: watcher.delivery }, undefined);
      // Ready means listed; the etcd watch may still be opening, and breaking before it exists breaks nothing.
      await until(() => storage.streams === 1, 'the etcd watch to open');
      storage.break();
      await storage.create(`${prefix}b`, thing('b', '1'));
      await storage.guaranteedUpdate(`${prefix}a`, (cur) => ({ object: { ...cur, spec: { value: '2' } } }));
      await shared.client().kv.compact({ revision: await storage.currentRevision(), physical: true });
      storage.release();
      await until(() => watcher.failures.length === 1, 'the 410 error');
      expect(watcher.failures[0]?.message).toMatch(/^too old resource version: \d+ \(\d+\)$/);
      expect(cacher.stats()).toMatchObject({ initializations: 2, watchers: 0, objects: 2 });
      const listed = cacher.list(prefix);
      expect(listed.items.map((o) => [o.metadata.name, (o['spec'] as { value: string }).value])).toEqual([
        ['a', '2'],
        ['b', '1'],
      ]);
      // A new watcher from the re-listed state gets later changes as usual.
      const again = recorder();
      cacher.watch({ prefix, delivery: again.delivery }, listed.revision);
      await storage.delete(`${prefix}a`);
      await until(() => again.events.length === 1, 'an event after the re-list');
      expect(again.events[0]).toMatch(/^DELETED a /);
    } finally {
      await cacher.stop();
    }
  });

  it('refuses a watch from before its window (too old) and serves one from inside it', async () => {
    const storage = new EtcdStorage(shared.client()) as Storage;
    const prefix = `/cacher-${++prefixCounter}/things/`;
    const cacher = startedCacher(storage, prefix, { capacity: 2 });
    try {
      await cacher.waitReady();
      const first = await storage.create(`${prefix}a`, thing('a', '1'));
      await storage.create(`${prefix}b`, thing('b', '1'));
      await storage.create(`${prefix}c`, thing('c', '1'));
      const last = await storage.create(`${prefix}d`, thing('d', '1'));
      await until(() => cacher.revision >= Number(last.metadata.resourceVersion), 'the cache to catch up');
      expect(
        cacher.watch({ prefix, delivery: recorder().delivery }, Number(first.metadata.resourceVersion)),
      ).toMatchObject({ kind: 'too-old' });
      const inside = recorder();
      const start = cacher.watch({ prefix, delivery: inside.delivery }, Number(last.metadata.resourceVersion) - 1);
      expect(start.kind).toBe('started');
      expect(inside.events.map((e) => e.split(' ')[1])).toEqual(['d']);
    } finally {
      await cacher.stop();
    }
  });

  it('feeds an in-process watch each change with its previous state, and leaves it out of the client watch count', async () => {
    const { storage, cacher, prefix } = setup();
    try {
      await cacher.waitReady();
      const a = await storage.create(`${prefix}a`, thing('a', '1'));
      const seen: StorageEvent[] = [];
      const errors: Error[] = [];
      const start = cacher.watch(
        {
          prefix,
          delivery: sinkDelivery({ event: (e) => seen.push(e), error: (e) => errors.push(e) }),
          internal: true,
        },
        Number(a.metadata.resourceVersion),
      );
      expect(start.kind).toBe('started');
      const client = recorder();
      cacher.watch({ prefix, delivery: client.delivery }, Number(a.metadata.resourceVersion));
      const { object: updated } = await storage.guaranteedUpdate(`${prefix}a`, (cur) => ({
        object: { ...cur, spec: { value: '2' } },
      }));
      await storage.delete(`${prefix}a`);
      await until(() => seen.length === 2, 'both events');
      expect(seen.map((e) => [e.type, e.revision])).toEqual([
        ['MODIFIED', Number(updated.metadata.resourceVersion)],
        ['DELETED', Number(updated.metadata.resourceVersion) + 1],
      ]);
      expect(seen[0]?.type === 'MODIFIED' && (seen[0].previous?.['spec'] as { value: string }).value).toBe('1');
      expect(errors).toEqual([]);
      expect(cacher.stats()).toMatchObject({ watchers: 1, eventsSent: 2 });
    } finally {
      await cacher.stop();
    }
  });

  it('hands grouped watchers whole batches: same events as one-by-one delivery, none repeated after a window replay, bookmarks after the events they cover', async () => {
    const storage = new EtcdStorage(shared.client()) as Storage;
    const prefix = `/cacher-${++prefixCounter}/things/`;
    const cacher = startedCacher(storage, prefix, { bookmarkIntervalMs: 15 });
    /** A recorder in a group: events arrive through sendBatch; bookmarks are recorded in the same sequence. */
    const grouped = (): Recorded & { batches: number; seq: string[] } => {
      const out = recorder() as Recorded & { batches: number; seq: string[] };
      out.batches = 0;
      out.seq = [];
      const base = out.delivery;
      out.delivery = {
        ...base,
        send: (type, object, source) => {
          base.send(type, object, source);
          out.seq.push(`E ${object.metadata.resourceVersion}`);
        },
        bookmark: (rv) => out.seq.push(`B ${rv}`),
        shareKey: 'json',
        sendBatch: (events) => {
          out.batches++;
          for (const e of events) out.delivery.send(e.type, e.object, e);
        },
      };
      return out;
    };
    try {
      await cacher.waitReady();
      const start = await storage.create(`${prefix}a`, thing('a', '0'));
      const from = Number(start.metadata.resourceVersion);
      const one = grouped();
      const two = grouped();
      const single = recorder();
      cacher.watch({ prefix, delivery: one.delivery }, from);
      cacher.watch({ prefix, delivery: two.delivery }, from);
      cacher.watch({ prefix, delivery: single.delivery }, from);
      const revisions: number[] = [];
      for (let i = 1; i <= 20; i++) {
        const { object } = await storage.guaranteedUpdate(`${prefix}a`, (cur) => ({
          object: { ...cur, spec: { value: String(i) } },
        }));
        revisions.push(Number(object.metadata.resourceVersion));
        if (i === 10) {
          // Once the cache holds write 10 (usually still in an unflushed batch), a late watcher replays 1..10
          // from the window; batched events it already has must not come again.
          await until(() => cacher.revision >= revisions[9]!, 'the cache to apply write 10');
          const late = grouped();
          cacher.watch({ prefix, delivery: late.delivery }, from);
          (one as unknown as { late: typeof late }).late = late;
        }
      }
      const late = (one as unknown as { late: ReturnType<typeof grouped> }).late;
      const expected = revisions.map((rv) => `MODIFIED a ${rv}`);
      await until(
        () => [one, two, late, single].every((r) => r.events.length >= 20),
        'every watcher to get the 20 events',
      );
      await new Promise((r) => setTimeout(r, 50));
      for (const r of [one, two, late, single]) expect(r.events).toEqual(expected);
      expect(one.batches).toBeGreaterThan(0);
      // Bookmarks never claim a revision whose event comes later.
      for (const r of [one, two, late]) {
        let bookmarked = 0;
        for (const entry of r.seq) {
          const [kind, rv] = entry.split(' ');
          if (kind === 'B') bookmarked = Math.max(bookmarked, Number(rv));
          else expect(Number(rv)).toBeGreaterThan(bookmarked);
        }
      }
    } finally {
      await cacher.stop();
    }
  });

  it('reads etcd in pages at one revision, logs progress per page and the total, and equals etcd afterwards', async () => {
    const storage = new InterleavingStorage(shared.client());
    const prefix = `/cacher-fill-${++prefixCounter}/things/`;
    for (let i = 0; i < 25; i++) {
      const name = `t-${String(i).padStart(2, '0')}`;
      await storage.create(`${prefix}${name}`, thing(name, '1'));
    }
    // Between the first and the second page: a new object, a changed one and a deleted one (after the fill's revision).
    storage.between = async () => {
      await storage.create(`${prefix}t-99`, thing('t-99', '1'));
      await storage.guaranteedUpdate(`${prefix}t-15`, (cur) => ({ object: { ...cur, spec: { value: '2' } } }));
      await storage.delete(`${prefix}t-20`);
    };
    const { lines, log } = capturedLog();
    const cacher = startedCacher(storage, prefix, { fillPageSize: 10, log });
    try {
      expect(await cacher.waitReady()).toBe(true);
      expect(storage.pages).toBe(3);
      const progress = lines.filter((l) => l['msg'] === 'watch cache filling');
      expect(progress.map((l) => [l['objects'], l['remaining']])).toEqual([
        [10, 15],
        [20, 5],
      ]);
      const done = lines.find((l) => l['msg'] === 'watch cache initialized');
      expect(done).toMatchObject({ prefix, objects: 25 });
      expect(typeof done?.['durationMs']).toBe('number');
      // The fill's revision predates the changes made between pages: the watch brings them in.
      const current = await storage.currentRevision();
      await until(() => cacher.revision >= current, 'the cache to reach etcd');
      const fromEtcd = (await storage.list(prefix)).items.map(summary);
      expect(cacher.list(prefix).items.map(summary)).toEqual(fromEtcd);
      expect(fromEtcd.some((s) => s.startsWith('t-99 '))).toBe(true);
      expect(cacher.get(`${prefix}t-20`)).toBeUndefined();
      expect(cacher.get(`${prefix}t-15`)?.spec).toEqual({ value: '2' });
    } finally {
      await cacher.stop();
    }
  });
});

// The reads by resourceVersion every Storage must answer alike, whether etcd answers them or the watch cache:
// storage-contract.ts runs these against each implementation with the same assertions.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';
import type { ListRequest, StartedWatch, Storage, StorageEvent } from '../storage';
import { isStorageError } from '../storage-error';

export interface ContractSubject {
  storage: Storage;
  /** A fresh key prefix for this test (keys are `${prefix}/...`). */
  prefix: string;
  /** Compacts etcd's history up to `revision`. */
  compact(revision: number): Promise<void>;
}

const anObject = (name: string, n = 0): ApiObject => ({ kind: 'Thing', metadata: { name }, spec: { n } });
const EVERYTHING: ListRequest = { hasSelector: false, limit: 0, continueToken: '', resourceVersionMatch: '' };
const names = (items: ApiObject[]): (string | undefined)[] => items.map((o) => o.metadata.name);
const rvOf = (obj: ApiObject): number => Number(obj.metadata.resourceVersion);

/** A WatchDelivery recording `TYPE name` per event and the failures. */
function recorder(): { delivery: WatchDelivery; events: string[]; failures: Error[] } {
  const events: string[] = [];
  const failures: Error[] = [];
  const delivery: WatchDelivery = {
    send: (type, object) => events.push(`${type} ${object.metadata.name ?? ''}`),
    flush: () => undefined,
    bookmark: () => undefined,
    fail: (err) => failures.push(err),
    end: () => undefined,
  };
  return { delivery, events, failures };
}

async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Until a resourceVersion=0 list (the watch cache's, where there is one) has reached `revision`. */
async function caughtUp(storage: Storage, dir: string, revision: number): Promise<void> {
  for (let page = await storage.getList(dir, { ...EVERYTHING, resourceVersion: 0 }); ;) {
    if (Number(page.resourceVersion) >= revision) return;
    await new Promise((r) => setTimeout(r, 10));
    page = await storage.getList(dir, { ...EVERYTHING, resourceVersion: 0 });
  }
}

export function describeVersionedReads(subject: () => ContractSubject): void {
  let storage: Storage;
  let prefix: string;
  let dir: string;
  const started: StartedWatch[] = [];
  beforeEach(() => {
    ({ storage, prefix } = subject());
    dir = `${prefix}/`;
  });
  afterEach(() => {
    for (const s of started.splice(0)) s.watch.stop();
  });

  it('lists the latest state without a resourceVersion, at least as new as every acknowledged write', async () => {
    await storage.create(`${dir}a`, anObject('a'));
    const b = await storage.create(`${dir}b`, anObject('b'));
    const page = await storage.getList(dir, EVERYTHING);
    expect(names(page.items)).toEqual(['a', 'b']);
    expect(Number(page.resourceVersion)).toBeGreaterThanOrEqual(rvOf(b));
    expect(page.continue).toBeUndefined();
  });

  it('lists a state not older than the resourceVersion asked for, and any complete state for 0', async () => {
    await storage.create(`${dir}a`, anObject('a'));
    const b = await storage.create(`${dir}b`, anObject('b'));
    const notOlder = await storage.getList(dir, { ...EVERYTHING, resourceVersion: rvOf(b) });
    expect(names(notOlder.items)).toEqual(['a', 'b']);
    expect(Number(notOlder.resourceVersion)).toBeGreaterThanOrEqual(rvOf(b));
    const any = await storage.getList(dir, { ...EVERYTHING, resourceVersion: 0 });
    const exact = await storage.getList(dir, {
      ...EVERYTHING,
      resourceVersion: Number(any.resourceVersion),
      resourceVersionMatch: 'Exact',
    });
    expect(names(any.items)).toEqual(names(exact.items));
  });

  it('pages an Exact list at its revision and continues there, whatever was written since', async () => {
    for (const n of ['p1', 'p2']) await storage.create(`${dir}${n}`, anObject(n));
    const p3 = await storage.create(`${dir}p3`, anObject('p3'));
    await storage.create(`${dir}p4`, anObject('p4'));
    const request = { ...EVERYTHING, limit: 2, resourceVersion: rvOf(p3), resourceVersionMatch: 'Exact' as const };
    const first = await storage.getList(dir, request);
    expect([names(first.items), first.resourceVersion, first.remainingItemCount]).toEqual([
      ['p1', 'p2'],
      String(rvOf(p3)),
      1,
    ]);
    const second = await storage.getList(dir, { ...EVERYTHING, limit: 2, continueToken: first.continue ?? '' });
    expect([names(second.items), second.resourceVersion, second.continue]).toEqual([
      ['p3'],
      String(rvOf(p3)),
      undefined,
    ]);
    const withSelector = await storage.getList(dir, { ...request, hasSelector: true, predicate: () => true });
    expect([names(withSelector.items), withSelector.remainingItemCount]).toEqual([['p1', 'p2'], undefined]);
  });

  it('refuses a continue token with a resourceVersion, and a malformed one, as storage errors', async () => {
    await storage.create(`${dir}a`, anObject('a'));
    await storage.create(`${dir}b`, anObject('b'));
    const first = await storage.getList(dir, { ...EVERYTHING, limit: 1 });
    const withRv = { ...EVERYTHING, continueToken: first.continue ?? '', resourceVersion: 1 };
    await expect(storage.getList(dir, withRv)).rejects.toMatchObject({ code: 'InvalidRequest' });
    await expect(storage.getList(dir, { ...EVERYTHING, continueToken: '%%%' })).rejects.toMatchObject({
      code: 'InvalidContinue',
    });
  });

  it('waits for a resourceVersion etcd has not reached, then reports TooLargeResourceVersion', async () => {
    const head = rvOf(await storage.create(`${dir}a`, anObject('a')));
    const err = await storage.getList(dir, { ...EVERYTHING, resourceVersion: head + 1000 }).catch((e: unknown) => e);
    expect(isStorageError(err, 'TooLargeResourceVersion')).toBe(true);
    expect(err).toMatchObject({ revision: head + 1000 });
  });

  it('gets an object by resourceVersion (N, unset, then 0) and reports a missing key', async () => {
    const a = await storage.create(`${dir}a`, anObject('a'));
    expect(await storage.getAtResourceVersion(`${dir}a`, rvOf(a))).toEqual(a);
    expect(await storage.getAtResourceVersion(`${dir}a`, undefined)).toEqual(a);
    await caughtUp(storage, dir, rvOf(a));
    expect(await storage.getAtResourceVersion(`${dir}a`, 0)).toEqual(a);
    await expect(storage.getAtResourceVersion(`${dir}nothing`, rvOf(a))).rejects.toMatchObject({
      code: 'KeyNotFound',
    });
  });

  it('starts a watch after a resourceVersion with every change since, then the changes that follow', async () => {
    const a = await storage.create(`${dir}a`, anObject('a'));
    await storage.guaranteedUpdate(`${dir}a`, (cur) => ({ object: { ...cur, spec: { n: 1 } } }));
    await storage.create(`${dir}b`, anObject('b'));
    const { delivery, events } = recorder();
    const start = await storage.startWatch(dir, { resourceVersion: rvOf(a), delivery });
    started.push(start);
    expect([start.initial, start.expired]).toEqual([[], undefined]);
    await storage.delete(`${dir}b`);
    await until(() => events.length >= 3, 'three events');
    expect(events).toEqual(['MODIFIED a', 'ADDED b', 'DELETED b']);
  });

  it('starts a watch without a resourceVersion, or with sendInitialEvents, from the current state', async () => {
    const a = await storage.create(`${dir}a`, anObject('a'));
    const plain = recorder();
    const start = await storage.startWatch(dir, { resourceVersion: undefined, delivery: plain.delivery });
    started.push(start);
    expect([names(start.initial), start.initialEventsEnd]).toEqual([['a'], undefined]);
    const list = recorder();
    const watchList = await storage.startWatch(dir, {
      resourceVersion: undefined,
      sendInitialEvents: true,
      delivery: list.delivery,
    });
    started.push(watchList);
    expect(names(watchList.initial)).toEqual(['a']);
    expect(watchList.initialEventsEnd).toBeGreaterThanOrEqual(rvOf(a));
    await storage.create(`${dir}b`, anObject('b'));
    await until(() => plain.events.length >= 1 && list.events.length >= 1, 'the ADDED events');
    expect([plain.events, list.events]).toEqual([['ADDED b'], ['ADDED b']]);
  });

  it('answers a watch or a continued list from a compacted revision with Compacted', async () => {
    const a = await storage.create(`${dir}a`, anObject('a'));
    await storage.create(`${dir}b`, anObject('b'));
    const first = await storage.getList(dir, { ...EVERYTHING, limit: 1 });
    const updated = await storage.guaranteedUpdate(`${dir}a`, (cur) => ({ object: { ...cur, spec: { n: 2 } } }));
    const head = rvOf(updated.object);
    await caughtUp(storage, dir, head);
    await subject().compact(head);
    // Refused at the start, or (etcd's watch) failed as its first delivery: either way the client's ERROR event.
    const watcher = recorder();
    const start = await storage.startWatch(dir, { resourceVersion: rvOf(a), delivery: watcher.delivery });
    started.push(start);
    if (start.expired === undefined) await until(() => watcher.failures.length > 0, 'the watch to fail');
    expect(isStorageError(start.expired ?? watcher.failures[0], 'Compacted')).toBe(true);
    expect(watcher.events).toEqual([]);
    const err = await storage
      .getList(dir, { ...EVERYTHING, limit: 1, continueToken: first.continue ?? '' })
      .catch((e: unknown) => e);
    expect(isStorageError(err, 'Compacted')).toBe(true);
    expect((err as { continueToken?: string }).continueToken).toEqual(expect.any(String));
  });

  it('hands a controller watch every change after a revision', async () => {
    const a = await storage.create(`${dir}a`, anObject('a'));
    await storage.create(`${dir}b`, anObject('b'));
    const seen: string[] = [];
    const handle = await storage.watch(dir, rvOf(a), {
      event: (event: StorageEvent) => seen.push(`${event.type} ${event.object.metadata.name ?? ''}`),
      error: () => undefined,
    });
    try {
      await storage.delete(`${dir}a`);
      await until(() => seen.length >= 2, 'two events');
      expect(seen).toEqual(['ADDED b', 'DELETED a']);
    } finally {
      await handle.cancel();
    }
  });
}

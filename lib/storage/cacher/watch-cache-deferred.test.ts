// Followed writes kept undecoded (a put change with `deferred`): the cache entry and the watch event share one object,
// decoded when either is first read; a value in another layout is decoded at once; a storage that converts objects
// on their way up passes no deferred value on (real etcd for the watch).
import { startedCacher } from '../testing/started-cacher';
import type { ApiObject } from '../../apimachinery/meta/types';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { encodeObject } from '../etcd/codec';
import { deferredPut } from '../etcd/pending-object';
import { EtcdStorage } from '../etcd/store';
import type { StorageChange } from '../storage';
import type { CachedEvent } from '../../apimachinery/watch/cached-event';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';
import { CacheWatcher } from './cache-watcher';
import { PendingObject } from './pending-object';
import { WatchCache } from './watch-cache';

const shared = useTestEtcd();

function thing(name: string, value: string): ApiObject {
  return { apiVersion: 'v1', kind: 'Thing', metadata: { name, labels: { a: 'b' } }, spec: { value } } as ApiObject;
}

function deferredThing(obj: ApiObject, revision: number): { change: StorageChange; bytes: Buffer } {
  const bytes = Buffer.from(encodeObject(obj));
  return { bytes, change: deferredPut(`/r/${obj.metadata.name}`, bytes, String(revision), revision) };
}

describe('WatchCache deferred puts', () => {
  it('keep the value undecoded until the entry or its event is read, then both are one object', () => {
    const cache = new WatchCache({ capacity: 100, minAgeMs: 60_000, now: () => 0 });
    const { change, bytes } = deferredThing(thing('x', 'first'), 5);
    const event = cache.apply(change);
    // Not decoded yet: what the bytes say when first read is what every reader sees.
    bytes.write(JSON.stringify('later'), bytes.indexOf('"first"'), 'utf8');
    expect(event?.type).toBe('ADDED');
    expect(event?.object.spec).toEqual({ value: 'later' });
    expect(cache.get('/r/x')).toBe(event?.object);
    expect(cache.get('/r/x')?.metadata.resourceVersion).toBe('5');
    expect(cache.window.since(0)?.map((e) => e.object)).toEqual([event?.object]);
  });

  it('a change of a deferred entry decodes it as the previous state; the new one stays deferred', () => {
    const cache = new WatchCache({ capacity: 100, minAgeMs: 60_000, now: () => 0 });
    cache.apply(deferredThing(thing('x', 'one'), 5).change);
    const second = deferredThing(thing('x', 'two'), 6);
    const modified = cache.apply(second.change);
    expect(modified).toMatchObject({ type: 'MODIFIED', previous: { spec: { value: 'one' } } });
    expect(modified?.previous?.metadata.resourceVersion).toBe('5');
    expect(cache.list('/r/').map((o) => [o.metadata.resourceVersion, o['spec']])).toEqual([['6', { value: 'two' }]]);
    expect(modified?.object).toBe(cache.get('/r/x'));
    expect(cache.apply({ type: 'delete', key: '/r/x', revision: 7 })).toMatchObject({
      type: 'DELETED',
      object: { metadata: { name: 'x', resourceVersion: '7' }, spec: { value: 'two' } },
    });
  });
});

describe('CacheWatcher and a deferred value that cannot be decoded', () => {
  it('fails that watch (grouped or filtered) instead of throwing out of the fan-out', () => {
    const cache = new WatchCache({ capacity: 100, minAgeMs: 60_000, now: () => 0 });
    // The server's stored layout up front, then bytes that are not JSON (written into etcd by something else).
    const bytes = Buffer.from('{"apiVersion":"v1","kind":"Thing","metadata":{"name":"x"},"spec":{');
    const event = cache.apply(deferredPut('/r/x', bytes, '5', 5)) as CachedEvent;
    const failures: Error[] = [];
    const sent: string[] = [];
    const delivery: WatchDelivery = {
      send: (type, object) => sent.push(`${type} ${JSON.stringify(object)}`),
      sendBatch: (events) => sent.push(...events.map((e) => JSON.stringify(e.object))),
      shareKey: 'json',
      flush: () => undefined,
      bookmark: () => undefined,
      fail: (err) => failures.push(err),
      end: () => undefined,
    };
    const grouped = new CacheWatcher('/r/', undefined, 0, delivery);
    expect(grouped.groupKey).toBeDefined();
    expect(() => grouped.offerBatch([event])).not.toThrow();
    const filtered = new CacheWatcher('/r/', (o) => o.metadata.name === 'x', 0, delivery);
    expect(filtered.offer(event)).toBe(false);
    expect(sent).toEqual([]);
    expect(failures.map((e) => e.message)).toEqual([
      expect.stringMatching(/not valid JSON/),
      expect.stringMatching(/not valid JSON/),
    ]);
    expect(() => cache.get('/r/x')).toThrow(/not valid JSON/);
  });
});

describe('etcd watch changes', () => {
  it('defer the values the server stored, decode others at once, and reach the cacher decoded alike', async () => {
    const storage = new EtcdStorage(shared.client());
    const prefix = '/deferred-watch/things/';
    const batches: StorageChange[][] = [];
    const handle = await storage.watchChanges(prefix, await storage.currentRevision(), {
      changes: (batch) => batches.push(batch),
      progress: () => undefined,
      error: () => undefined,
    });
    const cacher = startedCacher(storage, prefix, { capacity: 100 });
    try {
      expect(await cacher.waitReady()).toBe(true);
      await storage.create(`${prefix}a`, thing('a', 'stored'));
      // kind before apiVersion: not the layout the server writes
      const plain = { kind: 'Thing', apiVersion: 'v1', metadata: { name: 'b' }, spec: { value: 'plain' } };
      await shared.client().put(`${prefix}b`).value(JSON.stringify(plain)).exec();
      await waitFor(() => batches.flat().length === 2 && cacher.get(`${prefix}b`) !== undefined);
      const [a, b] = batches.flat();
      expect(a?.type === 'put' && a.deferred instanceof PendingObject).toBe(true);
      expect(b?.type === 'put' && b.deferred).toBeUndefined();
      expect(a?.type === 'put' && a.object.spec).toEqual({ value: 'stored' });
      expect(cacher.get(`${prefix}a`)?.spec).toEqual({ value: 'stored' });
      expect(cacher.get(`${prefix}b`)?.spec).toEqual({ value: 'plain' });
      expect(cacher.list(prefix).items.map((o) => o.metadata.name)).toEqual(['a', 'b']);
    } finally {
      await cacher.stop();
      await handle.cancel();
    }
  });
});

async function waitFor(done: () => boolean): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

// Pending entries (a fill's values kept undecoded): every read and change sees the decoded object, decoding leaves no
// view of the fill's page behind, and a fill whose values the storage reads as another type falls back to decoded
// reads (real etcd).
import { startedCacher } from '../testing/started-cacher';
import type { ApiObject } from '../../apimachinery/meta/types';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { encodeObject } from '../etcd/codec';
import { EtcdStorage } from '../etcd/store';
import type { GetOptions, ListOptions, ListResult } from '../storage';
import { fillsSettled } from './cache-fill';
import { PendingObject, type FillMap } from './pending-object';
import { WatchCache } from './watch-cache';

const shared = useTestEtcd();

function thing(name: string, labels: Record<string, string> = {}): ApiObject {
  return { apiVersion: 'v1', kind: 'Thing', metadata: { name, labels }, spec: { value: name } } as ApiObject;
}

/** Objects stored back to back in one buffer (as a range response holds them), each kept as a view of it. */
function page(objects: ApiObject[], revision: number): { buffer: Buffer; fill: FillMap } {
  const values = objects.map((o) => Buffer.from(encodeObject(o)));
  const buffer = Buffer.concat(values);
  const fill: FillMap = new Map();
  let at = 0;
  for (const [i, value] of values.entries()) {
    const obj = objects[i] as ApiObject;
    fill.set(`/r/${obj.metadata.name}`, new PendingObject(buffer.subarray(at, at + value.length), String(revision)));
    at += value.length;
  }
  return { buffer, fill };
}

function filled(names: string[], revision = 10): { cache: WatchCache; buffer: Buffer } {
  const cache = new WatchCache({ capacity: 100, minAgeMs: 60_000, now: () => 0 });
  const objects = names.map((n) => thing(n, { odd: String(n.charCodeAt(0) % 2 === 1) }));
  const { buffer, fill } = page(objects, revision);
  void cache.replace(fill, revision);
  return { cache, buffer };
}

describe('WatchCache pending entries', () => {
  it('get and list decode them (with the resourceVersion), in key order, with a predicate', () => {
    const { cache } = filled(['c', 'a', 'b']);
    expect(cache.get('/r/b')).toEqual({ ...thing('b', { odd: 'false' }), metadata: expect.anything() });
    expect(cache.get('/r/b')?.metadata).toEqual({ name: 'b', labels: { odd: 'false' }, resourceVersion: '10' });
    expect(cache.get('/r/b')).toBe(cache.get('/r/b'));
    expect(cache.list('/r/').map((o) => o.metadata.name)).toEqual(['a', 'b', 'c']);
    expect(cache.list('/r/', (o) => o.metadata.labels?.['odd'] === 'true').map((o) => o.metadata.name)).toEqual([
      'a',
      'c',
    ]);
    expect(JSON.parse(JSON.stringify(cache.list('/r/')[2]))).toEqual({
      apiVersion: 'v1',
      kind: 'Thing',
      metadata: { name: 'c', labels: { odd: 'true' }, resourceVersion: '10' },
      spec: { value: 'c' },
    });
  });

  it('a change of a pending key carries its decoded previous state; a repeat at its revision is ignored', () => {
    const { cache } = filled(['a', 'b']);
    expect(cache.apply({ type: 'put', key: '/r/a', object: thing('a'), revision: 10 })).toBeUndefined();
    const changed = thing('a', { x: '1' });
    changed.metadata.resourceVersion = '11';
    const modified = cache.apply({ type: 'put', key: '/r/a', object: changed, revision: 11 });
    expect(modified).toMatchObject({
      type: 'MODIFIED',
      previous: { metadata: { name: 'a', labels: { odd: 'true' }, resourceVersion: '10' }, spec: { value: 'a' } },
    });
    expect(cache.apply({ type: 'delete', key: '/r/b', revision: 12 })).toMatchObject({
      type: 'DELETED',
      object: { metadata: { name: 'b', resourceVersion: '12' }, spec: { value: 'b' } },
    });
    expect(cache.get('/r/b')).toBeUndefined();
    expect(cache.list('/r/').map((o) => `${o.metadata.name} ${o.metadata.resourceVersion}`)).toEqual(['a 11']);
  });

  it('decodes every pending entry after replace, keeping nothing of the page', async () => {
    const { cache, buffer } = filled(['a', 'b', 'c']);
    const early = cache.get('/r/a');
    await fillsSettled();
    buffer.fill(0x20); // the page's response reused: no object may still read it
    expect(early?.spec).toEqual({ value: 'a' });
    expect(cache.list('/r/').map((o) => [o.metadata.name, o.metadata.labels, o['spec']])).toEqual([
      ['a', { odd: 'true' }, { value: 'a' }],
      ['b', { odd: 'false' }, { value: 'b' }],
      ['c', { odd: 'true' }, { value: 'c' }],
    ]);
  });

  it('decoded(prefix) decodes the pending entries under a prefix before a list of them', async () => {
    const { cache, buffer } = filled(['a', 'b']);
    const decoding = cache.decoded('/r/');
    buffer.fill(0x20); // after the first slice (which holds both): nothing may read the page any more
    await decoding;
    expect(cache.list('/r/').map((o) => o['spec'])).toEqual([{ value: 'a' }, { value: 'b' }]);
    await fillsSettled();
    await expect(cache.decoded('/r/')).resolves.toBeUndefined();
  });

  it('a value that is not JSON fails its reads as a read from etcd does, and a change of it drops it', () => {
    const cache = new WatchCache({ capacity: 100, minAgeMs: 60_000, now: () => 0 });
    const fill: FillMap = new Map([
      ['/r/x', new PendingObject(Buffer.from('{"apiVersion":"v1","kind":"Thing",'), '3')],
    ]);
    void cache.replace(fill, 3);
    expect(() => cache.get('/r/x')).toThrow(/stored value is not valid JSON/);
    expect(cache.apply({ type: 'put', key: '/r/x', object: thing('x'), revision: 4 })).toMatchObject({ type: 'ADDED' });
    expect(cache.get('/r/x')?.metadata.name).toBe('x');
  });
});

/** Reads every stored Thing as a v2 Thing (as EncodingStorage reads a stored version as the hub version). */
class RetypingStorage extends EtcdStorage {
  override async get(key: string, options?: GetOptions): Promise<ApiObject> {
    return { ...(await super.get(key, options)), apiVersion: 'v2' };
  }

  override async list(prefix: string, options?: ListOptions): Promise<ListResult> {
    const listed = await super.list(prefix, options);
    return { ...listed, items: listed.items.map((o) => ({ ...o, apiVersion: 'v2' })) };
  }
}

describe('Cacher fill of values of another type than the storage reads', () => {
  it('falls back to the objects the storage decoded', async () => {
    const prefix = '/pending-retyped/things/';
    const storage = new RetypingStorage(shared.client());
    for (const name of ['a', 'b', 'c']) await storage.create(`${prefix}${name}`, thing(name));
    const cacher = startedCacher(storage, prefix, { capacity: 100, fillPageSize: 2 });
    try {
      expect(await cacher.waitReady()).toBe(true);
      expect(cacher.list(prefix).items.map((o) => `${o.apiVersion} ${o.metadata.name}`)).toEqual([
        'v2 a',
        'v2 b',
        'v2 c',
      ]);
      expect(cacher.get(`${prefix}b`)?.apiVersion).toBe('v2');
    } finally {
      await cacher.stop();
    }
  });
});

import type { ApiObject } from '../../apimachinery/meta/types';
import { WatchCache } from './watch-cache';

function obj(name: string, labels: Record<string, string> = {}): ApiObject {
  return { apiVersion: 'v1', kind: 'Thing', metadata: { name, labels } };
}

function cache(): WatchCache {
  return new WatchCache({ capacity: 100, minAgeMs: 60_000, now: () => 0 });
}

describe('WatchCache', () => {
  it('turns puts and deletes into ADDED, MODIFIED and DELETED with the previous state', () => {
    const c = cache();
    c.replace(new Map(), 10);
    expect(c.apply({ type: 'put', key: '/r/a', object: obj('a'), revision: 11 })).toMatchObject({
      type: 'ADDED',
      revision: 11,
    });
    const modified = c.apply({ type: 'put', key: '/r/a', object: obj('a', { x: '1' }), revision: 12 });
    expect(modified).toMatchObject({ type: 'MODIFIED', previous: { metadata: { labels: {} } } });
    const deleted = c.apply({ type: 'delete', key: '/r/a', revision: 13 });
    expect(deleted).toMatchObject({
      type: 'DELETED',
      object: { metadata: { name: 'a', labels: { x: '1' }, resourceVersion: '13' } },
    });
    expect(c.get('/r/a')).toBeUndefined();
    expect(c.revision).toBe(13);
  });

  it('ignores changes below its revision, and at it when the key already shows them (a resumed etcd watch repeating itself)', () => {
    const c = cache();
    const listed = obj('a');
    listed.metadata.resourceVersion = '20';
    c.replace(new Map([['/r/a', listed]]), 20);
    expect(c.apply({ type: 'put', key: '/r/a', object: obj('a', { late: 'yes' }), revision: 20 })).toBeUndefined();
    expect(c.apply({ type: 'put', key: '/r/a', object: obj('a', { late: 'yes' }), revision: 19 })).toBeUndefined();
    expect(c.apply({ type: 'delete', key: '/r/gone', revision: 20 })).toBeUndefined();
    expect(c.get('/r/a')?.metadata.labels).toEqual({});
  });

  it('applies every key a single revision changed (a lease expiring deletes all its keys at one revision)', () => {
    const c = cache();
    c.replace(
      new Map([
        ['/r/a', obj('a')],
        ['/r/b', obj('b')],
      ]),
      5,
    );
    expect(c.apply({ type: 'delete', key: '/r/a', revision: 9 })).toMatchObject({ type: 'DELETED', revision: 9 });
    expect(c.apply({ type: 'delete', key: '/r/b', revision: 9 })).toMatchObject({ type: 'DELETED', revision: 9 });
    expect(c.list('/r/')).toEqual([]);
    expect(c.revision).toBe(9);
  });

  it('lists a prefix in key order, with a predicate', () => {
    const c = cache();
    c.replace(new Map(), 1);
    let rev = 1;
    for (const key of ['/r/ns2/b', '/r/ns1/c', '/r/ns1/a', '/r/ns10/z', '/r/ns1/b'])
      c.apply({
        type: 'put',
        key,
        object: obj(key, { odd: String(key.endsWith('a') || key.endsWith('c')) }),
        revision: ++rev,
      });
    expect(c.list('/r/ns1/').map((o) => o.metadata.name)).toEqual(['/r/ns1/a', '/r/ns1/b', '/r/ns1/c']);
    expect(c.list('/r/').map((o) => o.metadata.name)).toEqual([
      '/r/ns1/a',
      '/r/ns1/b',
      '/r/ns1/c',
      '/r/ns10/z',
      '/r/ns2/b',
    ]);
    expect(c.list('/r/ns1/', (o) => o.metadata.labels?.['odd'] === 'true').map((o) => o.metadata.name)).toEqual([
      '/r/ns1/a',
      '/r/ns1/c',
    ]);
    c.apply({ type: 'delete', key: '/r/ns1/b', revision: ++rev });
    expect(c.list('/r/ns1/').map((o) => o.metadata.name)).toEqual(['/r/ns1/a', '/r/ns1/c']);
  });

  it('moves its revision forward on progress notifications only', () => {
    const c = cache();
    c.replace(new Map(), 5);
    c.advance(9);
    expect(c.revision).toBe(9);
    c.advance(7);
    expect(c.revision).toBe(9);
  });
});

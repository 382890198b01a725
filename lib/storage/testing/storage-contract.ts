// The behaviour every Storage implementation must show; etcd/store.test.ts runs it against real etcd,
// cacher/cached-storage.test.ts against the watch cache in front of it (same assertions).
import type { ApiObject } from '../../apimachinery/meta/types';
import type { Storage } from '../storage';
import { isStorageError } from '../storage-error';
import { describeVersionedReads, type ContractSubject } from './versioned-reads-contract';

const anObject = (name: string, labels: Record<string, string> = {}): ApiObject => ({
  kind: 'Thing',
  metadata: { name, labels },
});

/** A storage under test: `close` (when given) runs after each test. */
export interface StorageUnderTest extends ContractSubject {
  close?: () => Promise<void>;
}

export function describeStorageContract(name: string, makeStorage: () => Promise<StorageUnderTest>): void {
  describe(`${name} storage contract`, () => {
    let storage: Storage;
    let prefix: string;
    let subject: StorageUnderTest;
    beforeEach(async () => {
      subject = await makeStorage();
      ({ storage, prefix } = subject);
    });
    afterEach(async () => {
      await subject.close?.();
    });

    describe('reads by resourceVersion', () => describeVersionedReads(() => subject));

    it('creates an object once and reports KeyExists the second time', async () => {
      const created = await storage.create(`${prefix}/a`, anObject('a'));
      expect(Number(created.metadata.resourceVersion)).toBeGreaterThan(0);
      await expect(storage.create(`${prefix}/a`, anObject('a'))).rejects.toMatchObject({ code: 'KeyExists' });
    });

    it('reads back what it stored with the mod revision as resourceVersion', async () => {
      const created = await storage.create(`${prefix}/b`, { ...anObject('b'), spec: { x: 1 } });
      const read = await storage.get(`${prefix}/b`);
      expect(read).toEqual(created);
    });

    it('hands out the stored JSON undecoded, without the resourceVersion', async () => {
      const created = await storage.create(`${prefix}/raw`, { ...anObject('raw'), apiVersion: 'v1' });
      const { json, resourceVersion } = await storage.getJson(`${prefix}/raw`);
      expect(resourceVersion).toBe(created.metadata.resourceVersion);
      expect(JSON.parse(json)).toEqual({ apiVersion: 'v1', kind: 'Thing', metadata: { name: 'raw', labels: {} } });
      await expect(storage.getJson(`${prefix}/nothing`)).rejects.toMatchObject({ code: 'KeyNotFound' });
    });

    it('reports KeyNotFound for a missing key', async () => {
      const err = await storage.get(`${prefix}/missing`).catch((e: unknown) => e);
      expect(isStorageError(err, 'KeyNotFound')).toBe(true);
    });

    it('retries an update function until its compare-and-swap wins', async () => {
      await storage.create(`${prefix}/c`, { ...anObject('c'), spec: { n: 0 } });
      const bump = (o: ApiObject) => ({ object: { ...o, spec: { n: (o['spec'] as { n: number }).n + 1 } } });
      await Promise.all(Array.from({ length: 10 }, () => storage.guaranteedUpdate(`${prefix}/c`, bump)));
      expect((await storage.get(`${prefix}/c`))['spec']).toEqual({ n: 10 });
    });

    it('lists in key order in pages at one revision', async () => {
      for (const n of ['p1', 'p2', 'p3']) await storage.create(`${prefix}/list/${n}`, anObject(n));
      const first = await storage.list(`${prefix}/list/`, { limit: 2 });
      expect(first.items.map((o) => o.metadata.name)).toEqual(['p1', 'p2']);
      expect(first.remainingItemCount).toBe(1);
      expect(first.lastKey).toBe(`${prefix}/list/p2`);
      await storage.create(`${prefix}/list/p4`, anObject('p4'));
      const second = await storage.list(`${prefix}/list/`, {
        limit: 2,
        revision: first.revision,
        startKey: `${first.lastKey ?? ''}\0`,
      });
      expect(second.items.map((o) => o.metadata.name)).toEqual(['p3']);
      expect(second.lastKey).toBeUndefined();
    });

    it('fills a page through a predicate', async () => {
      for (let i = 0; i < 10; i++)
        await storage.create(`${prefix}/sel/o${i}`, anObject(`o${i}`, { even: String(i % 2 === 0) }));
      const page = await storage.list(`${prefix}/sel/`, {
        limit: 3,
        predicate: (o) => o.metadata.labels?.['even'] === 'true',
      });
      expect(page.items.map((o) => o.metadata.name)).toEqual(['o0', 'o2', 'o4']);
      expect(page.remainingItemCount).toBeUndefined();
      expect(page.lastKey).toBe(`${prefix}/sel/o4`);
    });

    it('deletes after re-checking a changed object', async () => {
      await storage.create(`${prefix}/d`, anObject('d'));
      const seen: string[] = [];
      const deleted = await storage.delete(`${prefix}/d`, (cur) => seen.push(cur.metadata.resourceVersion ?? ''));
      expect(seen).toHaveLength(1);
      expect(Number(deleted.metadata.resourceVersion)).toBeGreaterThan(Number(seen[0]));
      await expect(storage.get(`${prefix}/d`)).rejects.toMatchObject({ code: 'KeyNotFound' });
    });
  });
}

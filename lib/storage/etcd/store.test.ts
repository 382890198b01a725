import type { ApiObject } from '../../apimachinery/meta/types';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { describeStorageContract } from '../testing/storage-contract';
import { EtcdStorage } from './store';

const shared = useTestEtcd();
let counter = 0;

describeStorageContract('etcd', async () => ({
  storage: new EtcdStorage(shared.client()),
  prefix: `/test/${++counter}`,
  compact: async (revision) => void (await shared.client().kv.compact({ revision, physical: true })),
}));

describe('etcd list with known objects (keys-only read)', () => {
  const thing = (name: string, value: number): ApiObject =>
    ({ apiVersion: 'v1', kind: 'Thing', metadata: { name }, spec: { value } }) as ApiObject;

  it('takes known objects at the same resourceVersion as they are and reads the others (over several txns) at the list revision', async () => {
    const storage = new EtcdStorage(shared.client());
    const prefix = `/test/known-${++counter}/`;
    const written: ApiObject[] = [];
    for (let i = 0; i < 140; i++)
      written.push(await storage.create(`${prefix}${String(i).padStart(3, '0')}`, thing(`t${i}`, i)));
    const first = written[0] as ApiObject;
    const marker = { ...first, metadata: { ...first.metadata } } as ApiObject;
    const asked: string[] = [];
    const known = (key: string, rv: string): ApiObject | undefined => {
      asked.push(`${key}@${rv}`);
      return key === `${prefix}000` && rv === first.metadata.resourceVersion ? marker : undefined;
    };
    const listed = await storage.list(prefix, { known });
    expect(listed.items).toHaveLength(140);
    expect(listed.items[0]).toBe(marker);
    expect(
      listed.items
        .slice(1)
        .map((o) => [o.metadata.name, (o['spec'] as { value: number }).value, o.metadata.resourceVersion]),
    ).toEqual(written.slice(1).map((o, i) => [`t${i + 1}`, i + 1, o.metadata.resourceVersion]));
    expect(asked).toEqual(
      written.map((o, i) => `${prefix}${String(i).padStart(3, '0')}@${o.metadata.resourceVersion}`),
    );
  });

  it('reads an older revision: values whose key changed since are read as they were at that revision', async () => {
    const storage = new EtcdStorage(shared.client());
    const prefix = `/test/known-${++counter}/`;
    await storage.create(`${prefix}a`, thing('a', 1));
    const before = await storage.create(`${prefix}b`, thing('b', 1));
    const { object: newer } = await storage.guaranteedUpdate(`${prefix}b`, (cur) => ({
      object: { ...cur, spec: { value: 2 } },
    }));
    // A cache holding the newest state only: b's entry does not match the older revision's resourceVersion.
    const cache = new Map([[`${prefix}b`, newer]]);
    const known = (key: string, rv: string): ApiObject | undefined =>
      cache.get(key)?.metadata.resourceVersion === rv ? cache.get(key) : undefined;
    const old = await storage.list(prefix, { known, revision: Number(before.metadata.resourceVersion) });
    expect(old.items.map((o) => [o.metadata.name, (o['spec'] as { value: number }).value])).toEqual([
      ['a', 1],
      ['b', 1],
    ]);
    const latest = await storage.list(prefix, { known, limit: 1, startKey: `${prefix}b` });
    expect(latest.items[0]).toBe(newer);
  });
});

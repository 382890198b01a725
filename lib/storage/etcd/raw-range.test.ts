import { useTestEtcd } from '../../../test/helpers/etcd';
import { prefixRangeEnd } from './key-range';
import { rawRange } from './raw-range';

const shared = useTestEtcd();

describe('raw etcd ranges (the response read in place)', () => {
  it('reads the same keys, values, mod revisions, more, count and revision as the etcd3 client', async () => {
    const client = shared.client();
    const prefix = '/test/raw-range/';
    for (let i = 0; i < 30; i++)
      await client.put(`${prefix}${String(i).padStart(2, '0')}`).value(i % 3 === 0 ? '' : `{"n":${i},"é":"ü"}`);
    await client.put(`${prefix}05`).value('changed');
    const range = { key: Buffer.from(prefix), range_end: prefixRangeEnd(Buffer.from(prefix)) };
    for (const request of [range, { ...range, limit: 7 }, { ...range, limit: 100 }]) {
      const expected = await client.kv.range(request);
      const raw = await rawRange(client, { ...request, revision: Number(expected.header.revision) });
      expect(raw.revision).toBe(Number(expected.header.revision));
      expect(raw.more).toBe(expected.more);
      expect(raw.count).toBe(30);
      expect(raw.kvs.map((kv) => [kv.key.toString(), kv.value.toString(), String(kv.modRevision)])).toEqual(
        expected.kvs.map((kv) => [kv.key.toString(), kv.value.toString(), kv.mod_revision]),
      );
    }
  });

  it('fails as the etcd3 client fails (a compacted revision)', async () => {
    const client = shared.client();
    const key = '/test/raw-range-compacted';
    const first = await client.put(key).value('a').exec();
    const second = await client.put(key).value('b').exec();
    await client.kv.compact({ revision: second.header.revision, physical: true });
    const request = { key: Buffer.from(key), revision: Number(first.header.revision) };
    const expected = await client.kv.range(request).catch((err: unknown) => err);
    const got = await rawRange(client, request).catch((err: unknown) => err);
    expect(expected).toBeInstanceOf(Error);
    expect(got).toBeInstanceOf((expected as Error).constructor);
    expect((got as Error).message).toBe((expected as Error).message);
  });
});

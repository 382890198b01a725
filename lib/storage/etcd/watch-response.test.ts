import { etcd3WatchCodec } from '../../../test/helpers/etcd3-watch-codec';
import { decodeWatchResponse } from './watch-response';

const kv = (key: string, value: string, modRevision: string, extra: object = {}): object => ({
  key: Buffer.from(key),
  value: Buffer.from(value),
  create_revision: '5',
  mod_revision: modRevision,
  version: '2',
  ...extra,
});

const responses: [string, object][] = [
  ['a created response', { header: { revision: '7', cluster_id: '1', member_id: '2', raft_term: '3' }, created: true }],
  [
    'puts and deletes',
    {
      header: { revision: '12', cluster_id: '14841639068965178418', member_id: '10276657743932975437', raft_term: '2' },
      watch_id: '3',
      events: [
        { type: 'Put', kv: kv('/registry/a', '{"apiVersion":"v1"}', '11') },
        { type: 'Delete', kv: { key: Buffer.from('/registry/b'), mod_revision: '12' } },
        {
          type: 'Put',
          kv: kv('/registry/c', '{}', '12', { lease: '7587862310395184397' }),
          prev_kv: kv('/c', 'x', '9'),
        },
      ],
    },
  ],
  ['a progress notification', { header: { revision: '99' }, watch_id: '1' }],
  [
    'revisions beyond 2^53',
    { header: { revision: '9007199254740993' }, events: [{ kv: kv('k', '', '9007199254740995') }] },
  ],
  ['negative int64s', { watch_id: '-1', compact_revision: '-9007199254740993' }],
  [
    'a cancelled watch',
    { header: { revision: '4' }, canceled: true, compact_revision: '3', cancel_reason: 'compacted é' },
  ],
  ['a fragment with an empty key and value', { fragment: true, events: [{ type: 'Put', kv: {} }] }],
  ['nothing at all', {}],
];

describe('decodeWatchResponse', () => {
  const etcd3 = etcd3WatchCodec();

  it.each(responses)('decodes %s exactly as etcd3 does', (_name, res) => {
    const bytes = etcd3.serialize(res);
    const expected = etcd3.decode(bytes);
    const actual = decodeWatchResponse(bytes);
    expect(actual).toEqual(expected);
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
  });

  it('decodes large ids seen before (the remembered ones) and new ones exactly as etcd3 does', () => {
    const ids = ['14841639068965178418', '10276657743932975437', '9007199254740993', '18446744073709551615'];
    for (let i = 0; i < 24; i++) {
      const header = {
        revision: String(BigInt(ids[2] ?? '0') + BigInt(i)),
        cluster_id: ids[i % 4],
        member_id: ids[(i * 3) % 4],
      };
      const bytes = etcd3.serialize({ header, compact_revision: `-${ids[2] ?? ''}` });
      expect(decodeWatchResponse(bytes)).toEqual(etcd3.decode(bytes));
    }
  });

  it('decodes 64-bit values of every varint length, signed and unsigned, exactly as etcd3 does', () => {
    for (let bits = 1n; bits <= 64n; bits++) {
      const max = (1n << bits) - 1n;
      for (const value of [max, max - 1n, 1n << (bits - 1n)]) {
        const signed = String(BigInt.asIntN(64, value));
        const header = { revision: signed, cluster_id: String(value), member_id: '1', raft_term: String(value) };
        const kv = { key: Buffer.from('k'), mod_revision: signed, create_revision: '7', lease: signed };
        const bytes = etcd3.serialize({ header, watch_id: signed, events: [{ kv }], compact_revision: signed });
        expect(decodeWatchResponse(bytes)).toEqual(etcd3.decode(bytes));
      }
    }
  });

  it('returns keys and values as Buffers', () => {
    const res = decodeWatchResponse(etcd3.serialize({ events: [{ kv: kv('/k', 'v', '2') }] }));
    expect(Buffer.isBuffer(res.events[0]?.kv?.value)).toBe(true);
    expect(res.events[0]?.kv?.key.toString()).toBe('/k');
  });
});

import { dirname, join } from 'node:path';
import * as protobuf from 'protobufjs';
import type { Etcd3 } from 'etcd3';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { newEtcdClient } from './client';
import { frame } from './h2-member';
import {
  COMPARE_CREATE,
  COMPARE_EQUAL,
  createIfAbsent as sendCreateIfAbsent,
  createIfAbsentRequest,
  currentRevision,
  rangeOne,
  txn,
} from './kv-unary';
import { EtcdStorage } from './store';

const shared = useTestEtcd();
let client: Etcd3;
beforeAll(() => {
  client = newEtcdClient(shared.etcd().clientUrl);
});
afterAll(() => client.close());

const createIfAbsent = (key: Buffer, value: Buffer, lease: string | number = 0) => ({
  compare: [{ key, target: COMPARE_CREATE, result: COMPARE_EQUAL, createRevision: 0 }],
  success: [{ requestPut: { key, value, lease } }],
});

describe('kv-unary (etcd calls with protobufjs codec)', () => {
  it('creates a key once: the revision is the one etcd stored it at, the second create does not succeed', async () => {
    const key = Buffer.from('/kv-unary/create');
    const first = await txn(client, createIfAbsent(key, Buffer.from('one')));
    expect(first.succeeded).toBe(true);
    const stored = await shared.client().get(key.toString()).exec();
    expect(stored.kvs[0]?.value.toString()).toBe('one');
    expect(first.revision).toBe(stored.kvs[0]?.mod_revision);
    expect(first.revision).toBe(stored.header.revision);
    const second = await txn(client, createIfAbsent(key, Buffer.from('two')));
    expect(second.succeeded).toBe(false);
    expect(Number(second.revision)).toBe(Number(first.revision));
    expect((await shared.client().get(key.toString()).string()) ?? '').toBe('one');
  });

  it('attaches the lease given', async () => {
    const lease = shared.client().lease(60, { autoKeepAlive: false });
    const id = await lease.grant();
    const key = Buffer.from('/kv-unary/leased');
    expect((await txn(client, createIfAbsent(key, Buffer.from('x'), id))).succeeded).toBe(true);
    const stored = await shared.client().get(key.toString()).exec();
    expect(stored.kvs[0]?.lease).toBe(id);
    await lease.revoke();
    expect(await shared.client().get(key.toString()).string()).toBeNull();
  });

  it('reads one key and a batch of ranges, each with its own value and mod revision; absent keys read as absent', async () => {
    await shared.client().put('/kv-unary/a').value('A').exec();
    await shared.client().put('/kv-unary/b').value('B').exec();
    await shared.client().put('/kv-unary/a').value('A2').exec();
    const [a, b] = await Promise.all(['/kv-unary/a', '/kv-unary/b'].map((k) => shared.client().get(k).exec()));
    const one = await rangeOne(client, Buffer.from('/kv-unary/a'));
    expect(one?.value.toString()).toBe('A2');
    expect(String(one?.modRevision)).toBe(a?.kvs[0]?.mod_revision);
    expect(await rangeOne(client, Buffer.from('/kv-unary/none'))).toBeUndefined();
    const keys = ['/kv-unary/b', '/kv-unary/none', '/kv-unary/a'];
    const res = await txn(client, { success: keys.map((k) => ({ requestRange: { key: Buffer.from(k) } })) });
    const kvs = res.responses.map((r) => r.responseRange?.kvs[0]);
    expect(kvs.map((kv) => kv?.value.toString())).toEqual(['B', undefined, 'A2']);
    expect(kvs.map((kv) => (kv ? String(kv.modRevision) : undefined))).toEqual([
      b?.kvs[0]?.mod_revision,
      undefined,
      a?.kvs[0]?.mod_revision,
    ]);
  });

  it('serves concurrent GETs of the storage (batched into one Txn) each with its own object', async () => {
    const storage = new EtcdStorage(client);
    const names = Array.from({ length: 20 }, (_, i) => `g${i}`);
    for (const name of names) await shared.client().put(`/kv-unary/get/${name}`).value(`{"n":"${name}"}`).exec();
    const got = await Promise.all(names.map((n) => storage.getJson(`/kv-unary/get/${n}`)));
    expect(got.map((g) => g.json)).toEqual(names.map((n) => `{"n":"${n}"}`));
    const revisions = await Promise.all(names.map((n) => shared.client().get(`/kv-unary/get/${n}`).exec()));
    expect(got.map((g) => g.resourceVersion)).toEqual(revisions.map((r) => r.kvs[0]?.mod_revision));
    await expect(storage.getJson('/kv-unary/get/none')).rejects.toMatchObject({ code: 'KeyNotFound' });
  });

  it("reads etcd's current revision, the one of the latest write", async () => {
    const put = await shared.client().put('/kv-unary/revision').value('1').exec();
    expect(await currentRevision(client)).toBe(Number(put.header.revision));
    const next = await shared.client().put('/kv-unary/revision').value('2').exec();
    expect(await currentRevision(client)).toBe(Number(next.header.revision));
    expect(await new EtcdStorage(client).currentRevision()).toBe(Number(next.header.revision));
  });
});

describe('createIfAbsentRequest (the value written straight from its JSON string)', () => {
  const root = protobuf.loadSync(join(dirname(require.resolve('etcd3')), '..', 'proto', 'rpc.proto'));
  const TxnRequest = root.lookupType('etcdserverpb.TxnRequest');
  /** The bytes as before: protobufjs' encoding of the whole request, then gRPC's framing. */
  const framedByProtobufjs = (key: Buffer, json: string, lease: string | number): Buffer =>
    frame(Buffer.from(TxnRequest.encode(createIfAbsent(key, Buffer.from(json), lease)).finish()));

  const long = JSON.stringify({ apiVersion: 'apps/v1', kind: 'Deployment', spec: { x: 'y'.repeat(20_000) } });
  it.each([
    ['a short value', '/k', '{"a":1}', 0],
    ['a value of 127 bytes', '/registry/x', `"${'v'.repeat(125)}"`, 0],
    ['a value of 128 bytes', '/registry/x', `"${'v'.repeat(126)}"`, 0],
    [
      'a 2.7 kB object with a lease given as a string',
      '/registry/apps/deployments/ns/name',
      long.slice(0, 2700),
      '7587',
    ],
    ['a value of 20 kB, lease as a number', '/registry/apps/deployments/ns/big', long, 123456789],
    ['non-ASCII text', '/registry/ünï/😀', JSON.stringify({ note: 'grüße 😀 \u2028 ✓'.repeat(30) }), '0'],
    ['a value of 16,384 bytes (a 3-byte length)', '/k', `"${'z'.repeat(16_382)}"`, 0],
  ])('is byte for byte what protobufjs encodes: %s', (_name, key, json, lease) => {
    const k = Buffer.from(key);
    expect(createIfAbsentRequest(k, json, lease).equals(framedByProtobufjs(k, json, lease))).toBe(true);
  });

  it('creates the key with exactly the JSON bytes as its value, once', async () => {
    const key = Buffer.from('/kv-unary/create-json');
    const json = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', data: { k: 'ü'.repeat(300) } });
    const first = await sendCreateIfAbsent(client, key, json, 0);
    expect(first.succeeded).toBe(true);
    const stored = await shared.client().get(key.toString()).exec();
    expect(stored.kvs[0]?.value.equals(Buffer.from(json))).toBe(true);
    expect(first.revision).toBe(stored.kvs[0]?.mod_revision);
    expect((await sendCreateIfAbsent(client, key, '{}', 0)).succeeded).toBe(false);
  });
});

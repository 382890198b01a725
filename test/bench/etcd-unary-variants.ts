// The ways of making one create-if-absent etcd Txn that etcd-unary.ts compares.
import * as grpc from '@grpc/grpc-js';
import type { Etcd3 } from 'etcd3';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import {
  COMPARE_CREATE,
  COMPARE_EQUAL,
  txn,
  UNARY_TRANSPORTS,
  type UnaryTransport,
} from '../../lib/storage/etcd/kv-unary';
import { frame, MemberSession, UNARY_HEADERS } from '../../lib/storage/etcd/h2-member';
import type { EtcdStorage } from '../../lib/storage/etcd/store';
import type { ApiObject } from '../../lib/apimachinery/meta/types';

export interface UnaryVariant {
  name: string;
  what: string;
  call(key: string): Promise<unknown>;
  close(): Promise<void> | void;
}

const TXN_PATH = '/etcdserverpb.KV/Txn';
const VALUE = Buffer.from(JSON.stringify({ pad: 'x'.repeat(590) }));

interface Codec {
  requestSerialize(x: unknown): Buffer;
  responseDeserialize(b: Buffer): unknown;
}

/** etcd3's connection pool, which the package does not expose in its types. */
interface PoolView {
  pool: { hosts: { getServiceClient(name: string): grpc.Client }[] };
}

function kvServiceClient(client: Etcd3): grpc.Client {
  const host = (client as unknown as PoolView).pool.hosts[0];
  if (!host) throw new Error('etcd3 client without hosts');
  return host.getServiceClient('KV');
}

function unary<T>(client: grpc.Client, bytes: Buffer, decode: (b: Buffer) => T, metadata: grpc.Metadata): Promise<T> {
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      TXN_PATH,
      (b: Buffer) => b,
      decode,
      bytes,
      metadata,
      {},
      (err, res) => (err || res === undefined ? reject(err ?? new Error('no response')) : resolve(res)),
    );
  });
}

function etcd3Txn(client: Etcd3, key: string): Promise<unknown> {
  const k = Buffer.from(key);
  return client.kv.txn({
    compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
    success: [{ request_put: { key: k, value: VALUE } }],
    failure: [],
  });
}

const OWN_CHANNEL_OPTIONS = {
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
  'grpc.max_receive_message_length': -1,
  'grpc.max_send_message_length': -1,
};

function ownChannel(url: string, extra: Record<string, number>): grpc.Client {
  return new grpc.Client(url.replace(/^https?:\/\//, ''), grpc.credentials.createInsecure(), {
    ...OWN_CHANNEL_OPTIONS,
    ...extra,
  });
}

function deployment(key: string): ApiObject {
  const name = key.slice(key.lastIndexOf('/') + 1);
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'bench', uid: name },
    spec: { pad: 'x'.repeat(560) },
  } as ApiObject;
}

const LEAN = { 'grpc.enable_retries': 0, 'grpc.enable_channelz': 0 };

function kvUnaryTxn(client: Etcd3, key: string, send?: UnaryTransport): Promise<unknown> {
  const k = Buffer.from(key);
  return txn(
    client,
    {
      compare: [{ key: k, target: COMPARE_CREATE, result: COMPARE_EQUAL, createRevision: 0 }],
      success: [{ requestPut: { key: k, value: VALUE } }],
    },
    send,
  );
}

export async function etcdUnaryVariants(url: string, storage: (url: string) => EtcdStorage): Promise<UnaryVariant[]> {
  const server = newEtcdClient(url);
  const leanServer = newEtcdClient(url, { grpcOptions: LEAN });
  const store = storage(url);
  const kv = kvServiceClient(server);
  const leader = new grpc.Metadata();
  leader.set('hasleader', 'true');
  const txnDef = (kv.constructor as unknown as { service: Record<string, Codec> }).service['Txn'];
  if (!txnDef) throw new Error('etcd3 KV service without Txn');
  const k = Buffer.from('/bench-unary/prebuilt');
  const prebuilt = txnDef.requestSerialize({
    compare: [{ key: k, target: 'Create', result: 'Equal', create_revision: 0 }],
    success: [{ request_put: { key: k, value: VALUE } }],
  });
  const lean = ownChannel(url, LEAN);
  const h2 = new MemberSession(url, undefined);
  const prebuiltFramed = frame(prebuilt);
  const h2Headers = { ...UNARY_HEADERS, hasleader: 'true' };
  const floor = (client: grpc.Client) => () => unary(client, prebuilt, (b) => b, leader.clone());
  const none = (): undefined => undefined;
  const getKeys = Array.from({ length: 64 }, (_, i) => Buffer.from(`/bench-unary/get/${i}`));
  for (const key of getKeys) await server.put(key).value(VALUE).exec();
  const etcd3Ranges = getKeys.map((key) => ({ request_range: { key } }));
  const kvUnaryRanges = getKeys.map((key) => ({ requestRange: { key } }));
  let nextGet = 0;
  const getKey = (): string => (getKeys[nextGet++ % getKeys.length] as Buffer).toString();
  return [
    {
      name: 'etcd3 kv.txn of 64 ranges',
      what: 'a batch of GETs as the base GetBatcher sent it',
      call: () => server.kv.txn({ compare: [], success: etcd3Ranges, failure: [] }),
      close: none,
    },
    {
      name: 'kv-unary txn of 64 ranges',
      what: 'the same batch through kv-unary.ts (node:http2)',
      call: () => txn(server, { success: kvUnaryRanges }),
      close: none,
    },
    {
      name: 'kv-unary txn of 64 ranges, grpc-js',
      what: 'the same batch through kv-unary.ts over grpc-js',
      call: () => txn(server, { success: kvUnaryRanges }, UNARY_TRANSPORTS.grpcJs),
      close: none,
    },
    {
      name: 'store.getJson',
      what: 'EtcdStorage.getJson (GetBatcher) of one of 64 keys',
      call: () => store.getJson(getKey()),
      close: none,
    },
    {
      name: 'store.create',
      what: 'EtcdStorage.create of a 600-byte object',
      call: (key) => store.create(key, deployment(key)),
      close: () => store.close(),
    },
    {
      name: 'etcd3 kv.txn',
      what: "etcd3's kv.txn on the server's client",
      call: (key) => etcd3Txn(server, key),
      close: () => server.close(),
    },
    {
      name: 'kv-unary txn',
      what: "kv-unary.ts txn on the server's client (node:http2, h2-unary.ts)",
      call: (key) => kvUnaryTxn(server, key),
      close: none,
    },
    {
      name: 'kv-unary txn, grpc-js',
      what: "kv-unary.ts txn on the server's client over grpc-js (makeUnaryRequest)",
      call: (key) => kvUnaryTxn(server, key, UNARY_TRANSPORTS.grpcJs),
      close: none,
    },
    {
      name: 'kv-unary txn, lean channel',
      what: 'same, client with enable_retries 0, enable_channelz 0',
      call: (key) => kvUnaryTxn(leanServer, key),
      close: () => leanServer.close(),
    },
    {
      name: 'grpc floor',
      what: "makeUnaryRequest on the server client's channel: constant bytes, no decoding",
      call: floor(kv),
      close: none,
    },
    {
      name: 'h2 floor',
      what: 'one node:http2 session (h2-member.ts), no pool: constant bytes, no decoding',
      call: () => h2.call(TXN_PATH, h2Headers, prebuiltFramed),
      close: () => h2.close(),
    },
    {
      name: 'grpc floor, lean channel',
      what: 'same on an own channel with enable_retries 0, enable_channelz 0',
      call: floor(lean),
      close: () => lean.close(),
    },
  ];
}

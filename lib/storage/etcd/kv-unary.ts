// The hot unary KV calls (a create's Txn, the batched GETs' Range and Txn) sent through etcd3's own connection pool —
// the same members, fault-handling policies, leader requirement and error classes as etcd3's kv calls — but encoded and
// decoded by protobufjs' generated code for etcd's messages, and sent straight over node:http2 (h2-unary.ts) rather
// than through grpc-js. etcd3 converts every response with proto-loader's toObject (defaults filled in, every int64
// turned into a string), which is most of its codec's cost; the callers here read two or three fields.
import { dirname, join } from 'node:path';
import * as protobuf from 'protobufjs';
import type { Etcd3 } from 'etcd3';
import { kvUnaryCall, poolOf, type Etcd3Pool } from './etcd3-pool';
import { h2UnaryCall } from './h2-unary';

const root = protobuf.loadSync(join(dirname(require.resolve('etcd3')), '..', 'proto', 'rpc.proto'));
const TxnRequest = root.lookupType('etcdserverpb.TxnRequest');
const TxnResponse = root.lookupType('etcdserverpb.TxnResponse');
const RangeRequest = root.lookupType('etcdserverpb.RangeRequest');
const RangeResponse = root.lookupType('etcdserverpb.RangeResponse');

/** etcd's Compare.CompareTarget and Compare.CompareResult values used here. */
export const COMPARE_CREATE = 1;
export const COMPARE_EQUAL = 0;

type Long = number | string | { toString(): string };

/** A key-value as protobufjs decodes it: only the fields the storage reads. */
export interface DecodedKv {
  key: Buffer;
  value: Buffer;
  modRevision: Long;
}

interface DecodedRange {
  header?: { revision?: Long } | null;
  kvs: DecodedKv[];
}

interface DecodedTxn {
  header?: { revision?: Long } | null;
  succeeded?: boolean;
  responses: { responseRange?: DecodedRange | null }[];
}

/** A TxnRequest in protobufjs' field names (camelCase). */
export interface TxnMessage {
  compare?: Record<string, unknown>[];
  success?: Record<string, unknown>[];
  failure?: Record<string, unknown>[];
}

/** protobufjs' writer yields a Buffer under Node; a plain Uint8Array is wrapped without copying. */
const asBuffer = (u8: Uint8Array): Buffer =>
  Buffer.isBuffer(u8) ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);

/** How a call's bytes reach etcd: node:http2 (h2-unary.ts, the default) or grpc-js (kept for the benchmark's A/B). */
export type UnaryTransport = <T>(pool: Etcd3Pool, path: string, bytes: Buffer, decode: (b: Buffer) => T) => Promise<T>;

const identity = (): ((bytes: Buffer) => Buffer) => (bytes) => bytes;

export const UNARY_TRANSPORTS: Record<'h2' | 'grpcJs', UnaryTransport> = {
  h2: h2UnaryCall,
  grpcJs: (pool, path, bytes, decode) => kvUnaryCall(pool, path, identity, decode, bytes),
};

function unary<T>(
  client: Etcd3,
  path: string,
  bytes: Buffer,
  decode: (b: Buffer) => T,
  send: UnaryTransport = h2UnaryCall,
): Promise<T> {
  const pool = poolOf(client);
  if (pool === undefined) throw new Error('etcd3 client without the connection pool kv-unary.ts expects');
  return send(pool, path, bytes, decode);
}

const decodeTxn = (b: Buffer): DecodedTxn => TxnResponse.decode(b) as unknown as DecodedTxn;
const decodeRange = (b: Buffer): DecodedRange => RangeResponse.decode(b) as unknown as DecodedRange;

/** One Txn; its outcome with the header's revision as a string. */
export async function txn(
  client: Etcd3,
  request: TxnMessage,
  send?: UnaryTransport,
): Promise<{ succeeded: boolean; revision: string; responses: DecodedTxn['responses'] }> {
  const bytes = asBuffer(TxnRequest.encode(request).finish());
  const res = await unary(client, '/etcdserverpb.KV/Txn', bytes, decodeTxn, send);
  return { succeeded: res.succeeded === true, revision: String(res.header?.revision ?? 0), responses: res.responses };
}

/** The current key-value of one key (a linearizable read), or undefined when absent. */
export async function rangeOne(client: Etcd3, key: Buffer): Promise<DecodedKv | undefined> {
  const bytes = asBuffer(RangeRequest.encode({ key }).finish());
  const res = await unary(client, '/etcdserverpb.KV/Range', bytes, decodeRange);
  return res.kvs[0];
}

/** The key etcd's revision is read with: a count-only range of it returns the header and nothing else. */
const REVISION_KEY = Buffer.from('\u0000');
const REVISION_REQUEST = asBuffer(RangeRequest.encode({ key: REVISION_KEY, countOnly: true }).finish());

/** etcd's current revision, by a linearizable count-only Range (one request's bytes, encoded once). */
export async function currentRevision(client: Etcd3): Promise<number> {
  const res = await unary(client, '/etcdserverpb.KV/Range', REVISION_REQUEST, decodeRange);
  return Number(res.header?.revision ?? 0);
}

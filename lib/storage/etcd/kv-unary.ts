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
import { GRPC_HEADER_BYTES } from './h2-member';

const root = protobuf.loadSync(join(dirname(require.resolve('etcd3')), '..', 'proto', 'rpc.proto'));
const TxnRequest = root.lookupType('etcdserverpb.TxnRequest');
const TxnResponse = root.lookupType('etcdserverpb.TxnResponse');
const RangeRequest = root.lookupType('etcdserverpb.RangeRequest');
const RangeResponse = root.lookupType('etcdserverpb.RangeResponse');
const PutRequest = root.lookupType('etcdserverpb.PutRequest');

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

/**
 * The writer every request is encoded into before it is copied, once, into its own Buffer: a request costs one
 * allocation of its exact size (protobufjs' own writer grows by doubling, then finish() copies, then gRPC's framing
 * copied again). Encoding is synchronous, so one writer serves all; one grown past SCRATCH_KEEP_BYTES is dropped.
 */
let scratch = protobuf.Writer.create();
const SCRATCH_KEEP_BYTES = 64 << 10;

/** The request `encode` writes, in gRPC's framing (an uncompressed flag byte, the 4-byte length, the message). */
export function framedRequest(encode: (w: protobuf.Writer) => void): Buffer {
  const w = scratch;
  w.pos = 0;
  w.states = null;
  w.uint32(0).fixed32(0); // the frame's 5 bytes, its length set below
  encode(w);
  const out = w.finishInto(Buffer.allocUnsafe(w.pos));
  out.writeUInt32BE(w.pos - GRPC_HEADER_BYTES, 1);
  if (w.buf.length > SCRATCH_KEEP_BYTES) scratch = protobuf.Writer.create();
  return out;
}

const framedOf =
  (type: protobuf.Type, message: object) =>
  (w: protobuf.Writer): void => {
    type.encode(message, w);
  };

/** How a call's framed bytes reach etcd: node:http2 (h2-unary.ts, the default) or grpc-js (kept for the benchmark's A/B). */
export type UnaryTransport = <T>(pool: Etcd3Pool, path: string, framed: Buffer, decode: (b: Buffer) => T) => Promise<T>;

const identity = (): ((bytes: Buffer) => Buffer) => (bytes) => bytes;

export const UNARY_TRANSPORTS: Record<'h2' | 'grpcJs', UnaryTransport> = {
  h2: h2UnaryCall,
  // grpc-js frames the message itself.
  grpcJs: (pool, path, framed, decode) => kvUnaryCall(pool, path, identity, decode, framed.subarray(GRPC_HEADER_BYTES)),
};

function unary<T>(
  client: Etcd3,
  path: string,
  framed: Buffer,
  decode: (b: Buffer) => T,
  send: UnaryTransport = h2UnaryCall,
): Promise<T> {
  const pool = poolOf(client);
  if (pool === undefined) throw new Error('etcd3 client without the connection pool kv-unary.ts expects');
  return send(pool, path, framed, decode);
}

const decodeTxn = (b: Buffer): DecodedTxn => TxnResponse.decode(b) as unknown as DecodedTxn;
const decodeRange = (b: Buffer): DecodedRange => RangeResponse.decode(b) as unknown as DecodedRange;

/** One Txn; its outcome with the header's revision as a string. */
export async function txn(
  client: Etcd3,
  request: TxnMessage,
  send?: UnaryTransport,
): Promise<{ succeeded: boolean; revision: string; responses: DecodedTxn['responses'] }> {
  return sendTxn(client, framedRequest(framedOf(TxnRequest, request)), send);
}

async function sendTxn(
  client: Etcd3,
  framed: Buffer,
  send: UnaryTransport | undefined,
): Promise<{ succeeded: boolean; revision: string; responses: DecodedTxn['responses'] }> {
  const res = await unary(client, '/etcdserverpb.KV/Txn', framed, decodeTxn, send);
  return { succeeded: res.succeeded === true, revision: String(res.header?.revision ?? 0), responses: res.responses };
}

/**
 * The framed Txn creating `key` with `json` as its value unless it exists: the bytes protobufjs encodes for
 * `{compare: [{key, target: CREATE, result: EQUAL, createRevision: 0}], success: [{requestPut: {key, value, lease}}]}`
 * with the value written straight from the JSON string (bytes and strings share protobuf's wire format), not first
 * copied into a Buffer of its own.
 */
export function createIfAbsentRequest(key: Buffer, json: string, lease: Long): Buffer {
  return framedRequest((w) => {
    TxnRequest.encode({ compare: [{ key, target: COMPARE_CREATE, result: COMPARE_EQUAL, createRevision: 0 }] }, w);
    w.uint32(18).fork(); // TxnRequest.success (2): a RequestOp
    w.uint32(18).fork(); // RequestOp.request_put (2): a PutRequest, its fields in protobufjs' order and conditions
    if (key.length > 0) w.uint32(10).bytes(key); // PutRequest.key (1)
    if (json.length > 0) w.uint32(18).string(json); // PutRequest.value (2)
    PutRequest.encode({ lease }, w); // PutRequest.lease (3), as protobufjs writes it (not at all when 0)
    w.ldelim().ldelim();
  });
}

/** The create-if-absent Txn of createIfAbsentRequest; its outcome with the header's revision as a string. */
export function createIfAbsent(
  client: Etcd3,
  key: Buffer,
  json: string,
  lease: Long,
  send?: UnaryTransport,
): Promise<{ succeeded: boolean; revision: string; responses: DecodedTxn['responses'] }> {
  return sendTxn(client, createIfAbsentRequest(key, json, lease), send);
}

/** The current key-value of one key (a linearizable read), or undefined when absent. */
export async function rangeOne(client: Etcd3, key: Buffer): Promise<DecodedKv | undefined> {
  const res = await unary(
    client,
    '/etcdserverpb.KV/Range',
    framedRequest(framedOf(RangeRequest, { key })),
    decodeRange,
  );
  return res.kvs[0];
}

/** The key etcd's revision is read with: a count-only range of it returns the header and nothing else. */
const REVISION_KEY = Buffer.from('\u0000');
const REVISION_REQUEST = framedRequest(framedOf(RangeRequest, { key: REVISION_KEY, countOnly: true }));

/** etcd's current revision, by a linearizable count-only Range (one request's bytes, encoded once). */
export async function currentRevision(client: Etcd3): Promise<number> {
  const res = await unary(client, '/etcdserverpb.KV/Range', REVISION_REQUEST, decodeRange);
  return Number(res.header?.revision ?? 0);
}

// A range read whose response is not turned into the etcd3 client's objects: grpc-js hands the RangeResponse's bytes
// to our own deserializer, which walks them with protobufjs' Reader and keeps of each key-value only its key, its
// mod_revision and its value, the key and value as views of the response (no copies; no strings for revisions, no
// objects for fields nobody reads). The call goes through the etcd3 client's own connection pool (its members, fault
// handling, metadata and interceptors), as kv.range would; without that pool (another client shape) it is kv.range.
import type { Client, ServiceClientConstructor } from '@grpc/grpc-js';
import type { Etcd3, IRangeRequest, IRangeResponse } from 'etcd3';
import { Reader } from 'protobufjs';
import { kvUnaryCall, poolOf } from './etcd3-pool';

const RANGE_PATH = '/etcdserverpb.KV/Range';

export interface RawKeyValue {
  key: Buffer;
  value: Buffer;
  modRevision: number;
}

export interface RawRangeResponse {
  /** The store revision the range was read at (the header's). */
  revision: number;
  kvs: RawKeyValue[];
  more: boolean;
  count: number;
}

/** etcd3's own serializer of RangeRequest objects, from the grpc-js service client the pool hands out. */
function rangeSerializer(client: Client): (request: IRangeRequest) => Buffer {
  const service = (client.constructor as Partial<ServiceClientConstructor>).service;
  const serialize = service?.['Range']?.requestSerialize as ((request: IRangeRequest) => Buffer) | undefined;
  if (serialize === undefined) throw new Error('etcd3 KV client without a Range method');
  return serialize;
}

/** A Range call whose response is read by readRangeResponse; kv.range's errors, retries and member choice. */
export async function rawRange(client: Etcd3, request: IRangeRequest): Promise<RawRangeResponse> {
  const pool = poolOf(client);
  if (pool === undefined) return fromClientObjects(client, request);
  return kvUnaryCall(pool, RANGE_PATH, rangeSerializer, readRangeResponse, request);
}

async function fromClientObjects(client: Etcd3, request: IRangeRequest): Promise<RawRangeResponse> {
  return rangeResponseOf(await client.kv.range(request));
}

/** The etcd3 client's range response in the shape of readRangeResponse's. */
export function rangeResponseOf(res: IRangeResponse): RawRangeResponse {
  return {
    revision: Number(res.header.revision),
    kvs: res.kvs.map((kv) => ({ key: kv.key, value: kv.value, modRevision: Number(kv.mod_revision) })),
    more: res.more,
    count: Number(res.count),
  };
}

// Field numbers of etcd's rpc.proto / kv.proto.
const RESPONSE_HEADER = 1;
const RESPONSE_KVS = 2;
const RESPONSE_MORE = 3;
const RESPONSE_COUNT = 4;
const HEADER_REVISION = 3;
const KV_KEY = 1;
const KV_MOD_REVISION = 3;
const KV_VALUE = 5;

function int64(reader: Reader): number {
  const v = reader.int64() as unknown as number | { toNumber(): number }; // a Long when the long package is loaded
  return typeof v === 'number' ? v : v.toNumber();
}

/** A RangeResponse's header revision, kvs (key, mod_revision, value as views of `bytes`), more and count. */
export function readRangeResponse(bytes: Buffer): RawRangeResponse {
  const reader = Reader.create(bytes);
  const result: RawRangeResponse = { revision: 0, kvs: [], more: false, count: 0 };
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case RESPONSE_HEADER:
        result.revision = readHeaderRevision(reader, reader.uint32());
        break;
      case RESPONSE_KVS:
        result.kvs.push(readKeyValue(reader, reader.uint32()));
        break;
      case RESPONSE_MORE:
        result.more = reader.bool();
        break;
      case RESPONSE_COUNT:
        result.count = int64(reader);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return result;
}

function readHeaderRevision(reader: Reader, length: number): number {
  const end = reader.pos + length;
  let revision = 0;
  while (reader.pos < end) {
    const tag = reader.uint32();
    if (tag >>> 3 === HEADER_REVISION) revision = int64(reader);
    else reader.skipType(tag & 7);
  }
  return revision;
}

const EMPTY = Buffer.alloc(0);

function readKeyValue(reader: Reader, length: number): RawKeyValue {
  const end = reader.pos + length;
  const kv: RawKeyValue = { key: EMPTY, value: EMPTY, modRevision: 0 };
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case KV_KEY:
        kv.key = reader.bytes() as Buffer;
        break;
      case KV_MOD_REVISION:
        kv.modRevision = int64(reader);
        break;
      case KV_VALUE:
        kv.value = reader.bytes() as Buffer;
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return kv;
}

// etcd's WatchResponse decoded straight from its bytes (protobufjs' Reader) into the plain object etcd3 reads: the
// shape @grpc/proto-loader gives it with etcd3's options (keepCase, int64 as decimal strings, enums by name, defaults
// filled in), without building protobufjs' message objects first and converting them after. Keys and values are
// views of the received message, as proto-loader's are.
import { Reader } from 'protobufjs';

export interface DecodedKeyValue {
  key: Buffer;
  create_revision: string;
  mod_revision: string;
  version: string;
  value: Buffer;
  lease: string;
}

export interface DecodedEvent {
  type: string | number;
  kv: DecodedKeyValue | null;
  prev_kv: DecodedKeyValue | null;
}

export interface DecodedWatchResponse {
  header: { cluster_id: string; member_id: string; revision: string; raft_term: string } | null;
  watch_id: string;
  created: boolean;
  canceled: boolean;
  compact_revision: string;
  cancel_reason: string;
  fragment: boolean;
  events: DecodedEvent[];
}

/** mvccpb.Event.EventType by number. */
const EVENT_TYPES = ['Put', 'Delete'];
const EMPTY = Buffer.alloc(0);

/**
 * The last values beyond 2^53 written out (every header repeats its cluster and member ids): [high, low, unsigned as
 * 0/1, decimal] per entry, so a response does not pay two BigInt conversions.
 */
const bigDecimals: [number, number, number, string][] = [];
const BIG_DECIMALS = 4;

/** The decimal of the 64 bits `high`:`low` (each unsigned 32 bits), read as unsigned or as two's complement. */
function decimalOf(high: number, low: number, unsigned: boolean): string {
  if (high < 0x200000) return String(high * 0x100000000 + low);
  if (!unsigned && high >= 0xffe00000) return String((high | 0) * 0x100000000 + low);
  const u = unsigned ? 1 : 0;
  for (const [h, l, uu, text] of bigDecimals) if (h === high && l === low && uu === u) return text;
  const bits = (BigInt(high) << 32n) | BigInt(low);
  const text = String(unsigned ? bits : BigInt.asIntN(64, bits));
  bigDecimals.unshift([high, low, u, text]);
  if (bigDecimals.length > BIG_DECIMALS) bigDecimals.pop();
  return text;
}

/** The longest varint: 64 bits in groups of 7. */
const MAX_VARINT_BYTES = 10;

/**
 * A 64-bit varint field as proto-loader writes it with `longs: String` (exact beyond 2^53 too), read straight from
 * the bytes (protobufjs' int64/uint64 make a LongBits and a Long per value); near the end of the message, where a
 * varint could be cut short, protobufjs reads it (and reports a truncation as it does).
 */
function int64Decimal(reader: Reader, unsigned: boolean): string {
  const buf = reader.buf;
  let pos = reader.pos;
  if (pos + MAX_VARINT_BYTES > reader.len) {
    const value = unsigned ? reader.uint64() : reader.int64();
    if (typeof value === 'number') return String(value);
    return decimalOf(value.high >>> 0, value.low >>> 0, unsigned);
  }
  let low = 0;
  let high = 0;
  let b = 0;
  for (let shift = 0; shift < 28; shift += 7) {
    b = buf[pos++] as number;
    low |= (b & 0x7f) << shift;
    if (b < 0x80) {
      reader.pos = pos;
      return decimalOf(0, low >>> 0, unsigned);
    }
  }
  b = buf[pos++] as number;
  low |= (b & 0x0f) << 28;
  high = (b & 0x7f) >> 4;
  if (b >= 0x80) {
    for (let shift = 3; ; shift += 7) {
      if (shift > 31) throw Error('invalid varint encoding');
      b = buf[pos++] as number;
      high |= (b & 0x7f) << shift;
      if (b < 0x80) break;
    }
  }
  reader.pos = pos;
  return decimalOf(high >>> 0, low >>> 0, unsigned);
}

/** Where the length-delimited field whose length is next ends (reads the length). */
function endOf(reader: Reader): number {
  const length = reader.uint32();
  return reader.pos + length;
}

function bytesOf(reader: Reader): Buffer {
  return reader.bytes() as Buffer;
}

function decodeHeader(reader: Reader, end: number): NonNullable<DecodedWatchResponse['header']> {
  const header = { cluster_id: '0', member_id: '0', revision: '0', raft_term: '0' };
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        header.cluster_id = int64Decimal(reader, true);
        break;
      case 2:
        header.member_id = int64Decimal(reader, true);
        break;
      case 3:
        header.revision = int64Decimal(reader, false);
        break;
      case 4:
        header.raft_term = int64Decimal(reader, true);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return header;
}

function decodeKeyValue(reader: Reader, end: number): DecodedKeyValue {
  const kv: DecodedKeyValue = {
    key: EMPTY,
    create_revision: '0',
    mod_revision: '0',
    version: '0',
    value: EMPTY,
    lease: '0',
  };
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        kv.key = bytesOf(reader);
        break;
      case 2:
        kv.create_revision = int64Decimal(reader, false);
        break;
      case 3:
        kv.mod_revision = int64Decimal(reader, false);
        break;
      case 4:
        kv.version = int64Decimal(reader, false);
        break;
      case 5:
        kv.value = bytesOf(reader);
        break;
      case 6:
        kv.lease = int64Decimal(reader, false);
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return kv;
}

function decodeEvent(reader: Reader, end: number): DecodedEvent {
  const event: DecodedEvent = { type: 'Put', kv: null, prev_kv: null };
  while (reader.pos < end) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1: {
        const type = reader.int32();
        event.type = EVENT_TYPES[type] ?? type;
        break;
      }
      case 2:
        event.kv = decodeKeyValue(reader, endOf(reader));
        break;
      case 3:
        event.prev_kv = decodeKeyValue(reader, endOf(reader));
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return event;
}

/** Decodes one etcdserverpb.WatchResponse message. */
export function decodeWatchResponse(message: Buffer): DecodedWatchResponse {
  const reader = Reader.create(message);
  const res: DecodedWatchResponse = {
    events: [],
    header: null,
    watch_id: '0',
    created: false,
    canceled: false,
    compact_revision: '0',
    cancel_reason: '',
    fragment: false,
  };
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    switch (tag >>> 3) {
      case 1:
        res.header = decodeHeader(reader, endOf(reader));
        break;
      case 2:
        res.watch_id = int64Decimal(reader, false);
        break;
      case 3:
        res.created = reader.bool();
        break;
      case 4:
        res.canceled = reader.bool();
        break;
      case 5:
        res.compact_revision = int64Decimal(reader, false);
        break;
      case 6:
        res.cancel_reason = reader.string();
        break;
      case 7:
        res.fragment = reader.bool();
        break;
      case 11:
        res.events.push(decodeEvent(reader, endOf(reader)));
        break;
      default:
        reader.skipType(tag & 7);
    }
  }
  return res;
}

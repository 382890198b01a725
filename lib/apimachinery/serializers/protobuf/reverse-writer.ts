// A protobuf wire writer that fills its buffer from the end, as gogo's MarshalToSizedBuffer does: a nested message is
// written first and its length prefix after, so no sizes are computed twice.

const INITIAL_BYTES = 64 * 1024;
const TWO_POW_32 = 4294967296;
/** Strings up to this length are tried as ASCII in JS before asking Buffer for their UTF-8 length. */
const SHORT_STRING = 48;

/** Bytes a varint of `value` (0 ≤ value < 2^32) takes. */
function varint32Size(value: number): number {
  if (value < 0x80) return 1;
  if (value < 0x4000) return 2;
  if (value < 0x200000) return 3;
  if (value < 0x10000000) return 4;
  return 5;
}

/**
 * `buf` and `pos` are public so generated encoders can store constant bytes inline (after `room`); everything else
 * goes through the methods.
 */
export class ReverseWriter {
  buf: Buffer;
  /** Index of the first written byte; bytes [pos, buf.length) are the output so far. */
  pos: number;

  constructor(initialBytes = INITIAL_BYTES) {
    this.buf = Buffer.allocUnsafe(initialBytes);
    this.pos = initialBytes;
  }

  /** Bytes written so far; unchanged by growth, so callers measure nested messages with it. */
  get length(): number {
    return this.buf.length - this.pos;
  }

  /** Forgets everything written (the buffer is kept for the next message). */
  reset(): void {
    this.pos = this.buf.length;
  }

  /** A copy of the bytes written, in wire order. */
  finish(): Buffer {
    return Buffer.from(this.buf.subarray(this.pos));
  }

  /** Makes sure `bytes` more can be written before the buffer's start (growing moves the output to a new buffer). */
  room(bytes: number): void {
    if (this.pos >= bytes) return;
    const used = this.length;
    let size = this.buf.length * 2;
    while (size - used < bytes) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, size - used, this.pos);
    this.buf = next;
    this.pos = size - used;
  }

  /** A precomputed field tag (one or two bytes, see tagBytes). */
  tag(tag: Uint8Array): void {
    const n = tag.length;
    this.room(n);
    this.pos -= n;
    this.buf[this.pos] = tag[0] as number;
    if (n === 2) this.buf[this.pos + 1] = tag[1] as number;
  }

  /** An unsigned varint below 2^32 (lengths, small non-negative integers). */
  uint32(value: number): void {
    if (value < 0x80) {
      this.room(1);
      this.buf[--this.pos] = value;
      return;
    }
    const size = varint32Size(value);
    this.room(size);
    this.pos -= size;
    const buf = this.buf;
    let p = this.pos;
    while (value >= 0x80) {
      buf[p++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    buf[p] = value;
  }

  /** An int32/int64 varint: negative numbers take ten bytes (two's complement), as Go writes uint64(v). */
  int64(value: number): void {
    if (value >= 0 && value < TWO_POW_32) {
      this.uint32(value);
      return;
    }
    let big = BigInt.asUintN(64, BigInt(Math.trunc(value)));
    const bytes: number[] = [];
    while (big >= 0x80n) {
      bytes.push(Number(big & 0x7fn) | 0x80);
      big >>= 7n;
    }
    bytes.push(Number(big));
    this.room(bytes.length);
    this.pos -= bytes.length;
    for (let i = 0; i < bytes.length; i++) this.buf[this.pos + i] = bytes[i] as number;
  }

  bool(value: boolean): void {
    this.room(1);
    this.buf[--this.pos] = value ? 1 : 0;
  }

  double(value: number): void {
    this.room(8);
    this.pos -= 8;
    this.buf.writeDoubleLE(value, this.pos);
  }

  /** Four bytes big-endian (the length prefix of Kubernetes' stream frames). */
  uint32BigEndian(value: number): void {
    this.room(4);
    this.pos -= 4;
    this.buf.writeUInt32BE(value, this.pos);
  }

  /** Raw bytes, no length prefix. */
  bytes(value: Uint8Array): void {
    this.room(value.length);
    this.pos -= value.length;
    this.buf.set(value, this.pos);
  }

  /** UTF-8 of `value`, no length prefix; returns the byte count. */
  utf8(value: string): number {
    const n = value.length;
    // Short ASCII strings (names, labels, enum values) are copied in JS; crossing into C++ costs more than the loop.
    if (n <= SHORT_STRING) {
      this.room(n);
      const start = this.pos - n;
      const buf = this.buf;
      let i = 0;
      for (; i < n; i++) {
        const c = value.charCodeAt(i);
        if (c >= 0x80) break;
        buf[start + i] = c;
      }
      if (i === n) {
        this.pos = start;
        return n;
      }
    }
    const size = Buffer.byteLength(value, 'utf8');
    this.room(size);
    this.pos -= size;
    this.buf.write(value, this.pos, size, 'utf8');
    return size;
  }

  /** A length-delimited string: bytes, then their length. */
  string(value: string): void {
    const size = this.utf8(value);
    if (size < 0x80) {
      this.room(1);
      this.buf[--this.pos] = size;
    } else {
      this.uint32(size);
    }
  }
}

/** The tag bytes of field `number` with wire type `wireType` (field numbers below 2048). */
export function tagBytes(number: number, wireType: number): Uint8Array {
  const key = number * 8 + wireType;
  return key < 0x80 ? Uint8Array.of(key) : Uint8Array.of((key & 0x7f) | 0x80, key >>> 7);
}

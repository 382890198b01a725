// The JSON text that FieldsV1 and RawExtension carry as bytes, written straight into bytes. FieldsV1 is a tree of
// small objects whose keys repeat from object to object ("f:metadata", ".", "k:{\"name\":\"web\"}"); JSON.stringify
// spends most of its time on such trees per object and per key, so objects are walked here and each key's quoted
// form is kept once. The output is byte for byte JSON.stringify's: anything other than a plain object (strings,
// numbers, arrays, objects with toJSON) is handed to JSON.stringify itself.
import type { ReverseWriter } from './reverse-writer';

const INITIAL_BYTES = 16 * 1024;
/** A buffer that grew past this is dropped after use. */
const MAX_RETAINED_BYTES = 1024 * 1024;
/** Quoted keys kept at most; the set is started afresh when full (keys are few and repeat in practice). */
const MAX_KEPT_KEYS = 8192;

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;

let out = Buffer.allocUnsafe(INITIAL_BYTES);
let pos = 0;
/** `"key":` as UTF-8, escaped as JSON.stringify escapes it. */
const quotedKeys = new Map<string, Uint8Array>();

function room(bytes: number): void {
  if (pos + bytes <= out.length) return;
  let size = out.length * 2;
  while (size < pos + bytes) size *= 2;
  const next = Buffer.allocUnsafe(size);
  out.copy(next, 0, 0, pos);
  out = next;
}

function quotedKey(key: string): Uint8Array {
  let bytes = quotedKeys.get(key);
  if (bytes === undefined) {
    if (quotedKeys.size >= MAX_KEPT_KEYS) quotedKeys.clear();
    bytes = Buffer.from(`${JSON.stringify(key)}:`, 'utf8');
    quotedKeys.set(key, bytes);
  }
  return bytes;
}

function writeText(text: string): void {
  const size = Buffer.byteLength(text, 'utf8');
  room(size);
  pos += out.write(text, pos, size, 'utf8');
}

/**
 * An object JSON.stringify writes member by member: a plain one (a Date or any other class instance goes to
 * JSON.stringify). The values here are JSON data, so a plain object has no toJSON of its own.
 */
function isJsonObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

function writeObject(value: Record<string, unknown>): void {
  room(1);
  out[pos++] = OPEN_BRACE;
  let first = true;
  for (const key in value) {
    const member = value[key];
    const nested = isJsonObject(member);
    // JSON.stringify leaves out members it cannot write (undefined, functions, symbols, toJSON giving those).
    const text = nested ? '' : (JSON.stringify(member) as string | undefined);
    if (text === undefined) continue;
    const quoted = quotedKey(key);
    room(quoted.length + 1);
    if (!first) out[pos++] = COMMA;
    first = false;
    for (let i = 0; i < quoted.length; i++) out[pos + i] = quoted[i] as number;
    pos += quoted.length;
    if (nested) writeObject(member);
    else writeText(text);
  }
  room(1);
  out[pos++] = CLOSE_BRACE;
}

/** JSON.stringify(value) as UTF-8 bytes, then their length: the body of a length-delimited bytes field. */
export function writeEmbeddedJson(w: ReverseWriter, value: unknown): void {
  pos = 0;
  try {
    if (isJsonObject(value)) writeObject(value);
    else writeText(JSON.stringify(value));
    w.bytes(out.subarray(0, pos));
    w.uint32(pos);
  } finally {
    if (out.length > MAX_RETAINED_BYTES) out = Buffer.allocUnsafe(INITIAL_BYTES);
  }
}

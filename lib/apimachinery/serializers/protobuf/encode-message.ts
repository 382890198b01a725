// The JSON form of an object → protobuf bytes of its catalog message, with the field rules of Kubernetes' gogo
// marshallers (non-pointer scalars and structs always written, pointers when set, lists and maps when non-empty,
// map entries sorted by key), so the output can match kube-apiserver's byte for byte. Object messages run through
// generated encoders (compile-encoder.ts); the writers here cover scalars, maps and the custom-JSON messages.
import type { ReverseWriter } from './reverse-writer';
import type { FieldPlan, MessagePlan, ScalarKind, SpecialKind } from './message-plan';
import { EMPTY, encoderOf, type EncoderHelpers, type Json } from './compile-encoder';
import { writeEmbeddedJson } from './embedded-json';
import { durationNanos, microTimeNanos, timeSeconds } from './json-time';

// Field tags of the special messages (field number << 3 | wire type).
const F1_VARINT = Uint8Array.of(0x08);
const F1_BYTES = Uint8Array.of(0x0a);
const F2_VARINT = Uint8Array.of(0x10);
const F3_BYTES = Uint8Array.of(0x1a);
const INT_OR_STRING_STRING = 1;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function integer(value: unknown): number {
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? Math.trunc(n) : 0;
}

function text(value: unknown, zero: string): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? zero : String(value);
}

function writeScalar(w: ReverseWriter, kind: ScalarKind, value: unknown): void {
  switch (kind) {
    case 'string':
      w.string(text(value, ''));
      return;
    case 'int32':
    case 'int64':
      w.int64(value === undefined || value === null ? 0 : integer(value));
      return;
    case 'bool':
      w.bool(value === true);
      return;
    case 'double':
      w.double(typeof value === 'number' ? value : 0);
      return;
    case 'bytes': {
      const bytes = typeof value === 'string' ? Buffer.from(value, 'base64') : new Uint8Array();
      w.bytes(bytes);
      w.uint32(bytes.length);
      return;
    }
  }
}

/** A time: {seconds=1, nanos=2}, both written (Time's nanos always 0); nothing at all for the zero time. */
function writeTime(w: ReverseWriter, value: unknown, micro: boolean): void {
  const seconds = timeSeconds(value);
  if (seconds === undefined) return;
  w.uint32(micro ? microTimeNanos(value as string) : 0); // timeSeconds accepted it, so it is a string
  w.tag(F2_VARINT);
  w.int64(seconds);
  w.tag(F1_VARINT);
}

function writeRepeatedStrings(w: ReverseWriter, tag: Uint8Array, items: unknown[]): void {
  for (let i = items.length - 1; i >= 0; i--) {
    w.string(text(items[i], ''));
    w.tag(tag);
  }
}

function writeSpecial(w: ReverseWriter, special: SpecialKind, value: unknown): void {
  switch (special) {
    case 'time':
    case 'micro-time':
      writeTime(w, value, special === 'micro-time');
      return;
    case 'quantity':
      w.string(text(value, '0')); // a zero Quantity prints as "0"
      w.tag(F1_BYTES);
      return;
    case 'int-or-string': {
      const isString = typeof value === 'string';
      w.string(isString ? value : '');
      w.tag(F3_BYTES);
      w.int64(isString ? 0 : integer(value ?? 0));
      w.tag(F2_VARINT);
      w.uint32(isString ? INT_OR_STRING_STRING : 0);
      w.tag(F1_VARINT);
      return;
    }
    case 'raw':
      // RawExtension/FieldsV1 hold the embedded JSON; nil Raw is not written.
      if (value !== undefined && value !== null) {
        writeEmbeddedJson(w, value);
        w.tag(F1_BYTES);
      }
      return;
    case 'verbs':
      if (Array.isArray(value)) writeRepeatedStrings(w, F1_BYTES, value);
      return;
    case 'duration':
      w.int64(durationNanos(value));
      w.tag(F1_VARINT);
      return;
  }
}

/** One value of `field` (scalar or message) with `tag`; messages are length-delimited. */
function writeValue(w: ReverseWriter, field: FieldPlan, tag: Uint8Array, value: unknown): void {
  if (field.message !== null) {
    const start = w.length;
    writeMessage(w, field.message, value);
    w.uint32(w.length - start);
  } else {
    writeScalar(w, field.scalar ?? 'string', value);
  }
  w.tag(tag);
}

const HELPERS: EncoderHelpers = {
  writeSpecial: (w, plan, value) => writeMessage(w, plan, value),
  writeValue: (w, field, value, tag) => writeValue(w, field, Uint8Array.from(tag), value),
  integer,
  text: (value) => text(value, ''),
};

/** Writes the message `plan` for the JSON value (absent or non-object values encode as the zero message). */
export function writeMessage(w: ReverseWriter, plan: MessagePlan, value: unknown): void {
  if (plan.special !== null) writeSpecial(w, plan.special, value);
  else encoderOf(plan, HELPERS)(w, isObject(value) ? value : EMPTY);
}

// Per-message encoder functions generated from the plans (as protobufjs generates its codecs). One straight-line
// function per message collects the object's properties in one for-in pass, then writes the fields in descending
// number order, storing tags, zero values and short lengths straight into the buffer; strings, nested messages and
// long varints go through the writer's methods.
import type { ReverseWriter } from './reverse-writer';
import { ReverseWriter as Writer } from './reverse-writer';
import type { FieldPlan, MessagePlan } from './message-plan';

export type Json = Record<string, unknown>;
export type MessageEncoder = (w: ReverseWriter, json: Json) => void;

/** The generic writers the generated code calls for the rare shapes (specials, bytes, doubles, odd JSON types). */
export interface EncoderHelpers {
  writeSpecial(w: ReverseWriter, plan: MessagePlan, value: unknown): void;
  /** A scalar or message value of `field` followed by `tag` (bytes, doubles, zero values). */
  writeValue(w: ReverseWriter, field: FieldPlan, value: unknown, tag: readonly number[]): void;
  integer(value: unknown): number;
  /** A non-string JSON value where a string belongs, as text. */
  text(value: unknown): string;
}

export const EMPTY: Json = Object.freeze({}) as Json;
/** Constant bytes one field stores inline between two writer calls, at most (tag, a one-byte length, zero or bool). */
const INLINE_BYTES_PER_FIELD = 8;
/** Zero values up to this size are stored inline; longer ones are copied from `Z[i]`. */
const INLINE_ZERO_BYTES = 4;

/** Sorts map keys in place as Go sorts strings (code-unit order); insertion sort, since maps here are small. */
function sortKeys(keys: string[]): void {
  for (let i = 1; i < keys.length; i++) {
    const key = keys[i] as string;
    let j = i - 1;
    while (j >= 0 && (keys[j] as string) > key) {
      keys[j + 1] = keys[j] as string;
      j--;
    }
    keys[j + 1] = key;
  }
}

/** Longest string asciiAt copies (its length then fits the one-byte varint it writes). */
const ASCII_INLINE_MAX = 127;

/**
 * Stores `value` (bytes, then its one-byte length) ending at `pos` when it is ASCII, short and fits; returns the new
 * position, or -1 to leave the string to the writer.
 */
function asciiAt(buf: Buffer, pos: number, value: string): number {
  const n = value.length;
  if (n > ASCII_INLINE_MAX || pos <= n) return -1;
  const start = pos - n;
  for (let i = 0; i < n; i++) {
    const ch = value.charCodeAt(i);
    if (ch >= 0x80) return -1;
    buf[start + i] = ch;
  }
  buf[start - 1] = n;
  return start - 1;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Code fragments over the locals of a generated function: `b` (buffer) and `p` (position) cache `w.buf`/`w.pos`,
 * `R` bytes of room are guaranteed after every `sync`, which is all the inline stores between two calls need.
 */
class Fragments {
  constructor(readonly room: number) {}

  /** Hands the position to the writer before a method call. */
  readonly flush = 'w.pos = p;';

  /** Takes the position back after a call and restores the room guarantee (the call may have moved the buffer). */
  get sync(): string {
    return `p = w.pos; if (p < ${this.room}) { w.room(${this.room}); p = w.pos; } b = w.buf;`;
  }

  /** Restores the room guarantee without a call (loops store inline bytes per item). */
  get ensure(): string {
    return `if (p < ${this.room}) { w.pos = p; w.room(${this.room}); p = w.pos; b = w.buf; }`;
  }

  /** A length-delimited string in `value`: short ASCII stored inline (asciiAt), anything else through the writer. */
  string(value: string): string {
    return `{ const q = typeof ${value} === "string" ? asciiAt(b, p, ${value}) : -1; if (q >= 0) { p = q; ${this.ensure} } else { ${this.flush} w.string(typeof ${value} === "string" ? ${value} : H.text(${value})); ${this.sync} } }`;
  }

  /** Constant bytes in wire order (a tag, or a tag and a zero value), stored last byte first (the writer runs backwards). */
  bytes(bytes: Uint8Array): string {
    return [...bytes]
      .reverse()
      .map((byte) => `b[--p] = ${byte};`)
      .join(' ');
  }

  /** A length or non-negative count in `n`: one byte inline, a call for longer varints. */
  varint(n: string): string {
    return `if (${n} < 128) b[--p] = ${n}; else { ${this.flush} w.uint32(${n}); ${this.sync} }`;
  }

  /** Bytes written so far (measured from the end, so growth does not change it). */
  readonly written = '(b.length - p)';
}

/** Statements for a present value of field `i` held in `value`, then `tag` (the field's, or a map entry value's). */
function presentCode(c: Fragments, field: FieldPlan, i: number, value: string, tag: Uint8Array): string {
  if (field.message !== null) {
    const write =
      field.message.special !== null ? `H.writeSpecial(w, F[${i}].message, ${value});` : `D[${i}](w, obj(${value}));`;
    return `{ const e = ${c.written}; ${c.flush} ${write} ${c.sync} const n = ${c.written} - e; ${c.varint('n')} ${c.bytes(tag)} }`;
  }
  switch (field.scalar) {
    case 'string':
      return `${c.string(value)} ${c.bytes(tag)}`;
    case 'int32':
    case 'int64':
      return `if (${value} >= 0 && ${value} < 128 && (${value} | 0) === ${value}) b[--p] = ${value}; else { ${c.flush} w.int64(typeof ${value} === "number" ? ${value} : H.integer(${value})); ${c.sync} } ${c.bytes(tag)}`;
    case 'bool':
      return `b[--p] = ${value} === true ? 1 : 0; ${c.bytes(tag)}`;
    default:
      return `${c.flush} H.writeValue(w, F[${i}], ${value}, ${JSON.stringify([...tag])}); ${c.sync}`;
  }
}

/** True when Go writes the field even when unset (non-pointer scalars and structs); bytes and Verbs are nil slices. */
function writtenWhenUnset(field: FieldPlan): boolean {
  return !field.pointer && field.shape === 'single' && field.scalar !== 'bytes' && field.message?.special !== 'verbs';
}

/** An unset non-pointer field: its constant bytes (tag + zero value), inline when short. */
function unsetCode(c: Fragments, field: FieldPlan, i: number, zero: Uint8Array | undefined): string {
  if (!writtenWhenUnset(field) || zero === undefined) return '';
  if (zero.length <= INLINE_ZERO_BYTES) return c.bytes(zero);
  return `${c.flush} w.bytes(Z[${i}]); ${c.sync}`;
}

/** Map entries {key=1, value=2} sorted by key (gogo sorts Go strings), the last written first. */
function mapCode(c: Fragments, field: FieldPlan, i: number): string {
  const valueTag = field.mapValueTag ?? Uint8Array.of(0x12);
  const entry = `const key = ks[k], x = v[key], e = ${c.written}; ${presentCode(c, field, i, 'x', valueTag)} ${c.string('key')} b[--p] = 10; const n = ${c.written} - e; ${c.varint('n')} ${c.bytes(field.tag)}`;
  return `if (obj(v) !== EMPTY) { const ks = Object.keys(v); if (ks.length > 1) sortKeys(ks); for (let k = ks.length - 1; k >= 0; k--) { ${c.ensure} ${entry} } }`;
}

function fieldCode(c: Fragments, field: FieldPlan, i: number, zero: Uint8Array | undefined): string {
  if (field.inline) return `v = json; ${presentCode(c, field, i, 'v', field.tag)}`;
  const read = `v = f${i};`;
  let present: string;
  if (field.shape === 'map') present = mapCode(c, field, i);
  else if (field.shape === 'repeated')
    present = `if (Array.isArray(v)) for (let k = v.length - 1; k >= 0; k--) { const x = v[k]; ${c.ensure} ${presentCode(c, field, i, 'x', field.tag)} }`;
  else present = presentCode(c, field, i, 'v', field.tag);
  return `${read} if (v === undefined || v === null) { ${unsetCode(c, field, i, zero)} } else { ${present} }`;
}

/**
 * Reads the object's own properties into `f<i>` locals with one for-in pass. Objects built by spreads often have a
 * map of their own (V8 gives many `{...x, y}` results unique maps), which makes a named load per field megamorphic
 * and slow even for absent fields; this pass costs per present property instead, and the enum cache keeps it cheap
 * for objects that do share maps.
 */
function collectCode(fields: FieldPlan[]): string {
  const named = fields.map((f, i) => ({ f, i })).filter(({ f }) => !f.inline && f.jsonName !== null);
  if (named.length === 0) return '';
  const cases = named.map(({ f, i }) => `case ${JSON.stringify(f.jsonName)}: f${i} = json[k]; break;`).join(' ');
  return `let ${named.map(({ i }) => `f${i}`).join(', ')}; for (const k in json) { switch (k) { ${cases} } }`;
}

/** The Go zero value of a field, in the JSON form the writers take (specials take undefined: zero Time, "0" Quantity…). */
function zeroOf(field: FieldPlan): unknown {
  if (field.message !== null) return field.message.special === null ? EMPTY : undefined;
  if (field.scalar === 'string') return '';
  if (field.scalar === 'bool') return false;
  return 0;
}

const compiled = new Map<MessagePlan, MessageEncoder>();

/** `encode_apps_v1_DeploymentSpec`: a readable name in profiles. */
function functionName(messageName: string): string {
  return `encode_${messageName.replace(/^k8s\.io\.(api\.|apimachinery\.pkg\.)?/, '').replace(/[^A-Za-z0-9]/g, '_')}`;
}

type Factory = (
  f: FieldPlan[],
  d: MessageEncoder[],
  z: Uint8Array[],
  h: EncoderHelpers,
  empty: Json,
  obj: (value: unknown) => Json,
  sort: (keys: string[]) => void,
  ascii: (buf: Buffer, pos: number, value: string) => number,
) => MessageEncoder;

/**
 * The encoder of an object-shaped message plan, generated on first use. Nested encoders are bound after this one is
 * cached (a message may reach itself through pointers); the zero bytes of unset non-pointer structs are computed
 * first, which terminates because Go structs cannot contain themselves by value.
 */
export function encoderOf(plan: MessagePlan, helpers: EncoderHelpers): MessageEncoder {
  const cached = compiled.get(plan);
  if (cached) return cached;
  const fields = plan.fields;
  const zeros: Uint8Array[] = fields.map((f) => {
    if (!writtenWhenUnset(f) || f.inline) return new Uint8Array();
    const w = new Writer(64);
    helpers.writeValue(w, f, zeroOf(f), [...f.tag]);
    return w.finish();
  });
  const c = new Fragments(INLINE_BYTES_PER_FIELD * (fields.length + 2));
  const body = fields.map((f, i) => fieldCode(c, f, i, zeros[i])).join('\n');
  const source = `"use strict"; return function ${functionName(plan.name)}(w, json) { let b, p, v; ${collectCode(fields)} ${c.sync}\n${body}\n${c.flush} };`;
  const nested: MessageEncoder[] = [];
  const encoder = (new Function('F', 'D', 'Z', 'H', 'EMPTY', 'obj', 'sortKeys', 'asciiAt', source) as Factory)(
    fields,
    nested,
    zeros,
    helpers,
    EMPTY,
    (value) => (isObject(value) ? value : EMPTY),
    sortKeys,
    asciiAt,
  );
  compiled.set(plan, encoder);
  fields.forEach((f, i) => {
    if (f.message !== null && f.message.special === null) nested[i] = encoderOf(f.message, helpers);
  });
  return encoder;
}

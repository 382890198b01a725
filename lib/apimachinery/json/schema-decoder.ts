// Decodes JSON text against a SchemaNode as Kubernetes' JSON decoder (sigs.k8s.io/json into Go structs) does: type errors, unknown and duplicate fields.
// Hand-written rather than ajv: Go's texts need the Go struct/field context, the literal of a bad number, document order, and Go's merge of repeated keys.
import type { SchemaNode } from '../schema/node';
import { goQuote } from '../field/errors';
import { isPlainObject } from '../meta/types';
import { goKindWord, unmarshalTypeError, type GoErrorContext } from './go-json-errors';
import { goDurationError, goTimeParseError, RFC3339, RFC3339_MICRO } from './go-time';
import { quantityJsonError } from './go-quantity';
import { goBase64ErrorOffset } from './go-base64';
import { JsonReader, setOwn, type ValueKind } from './json-reader';

export interface DecodeOptions {
  /** Report unknown and duplicate fields (Kubernetes' strict serializer, used for fieldValidation Warn and Strict). */
  strict: boolean;
}

export interface DecodeResult {
  /** The value, unknown fields dropped; a repeated key is decoded into the earlier value, as Go decodes into a struct. */
  value: unknown;
  /** What Go's decoder returns: the first type error, or an error of a custom decoder (IntOrString, Quantity, Time) which stops decoding. */
  error: string | undefined;
  /** Without `error`: `unknown field "spec.foo"`, `duplicate field "metadata.name"` in document order, deduplicated, at most 100. */
  strictErrors: string[];
}

// sigs.k8s.io/json internal/golang/encoding/json/kubernetes_patch.go: saveStrictError keeps at most 100.
const MAX_STRICT_ERRORS = 100;
const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const INTEGER_LITERAL = /^-?\d+$/;

/** strconv.ParseInt(lit, 10, 64) succeeds and the value fits the Go integer type. */
function fitsInteger(literal: string, format: string | undefined): boolean {
  if (!INTEGER_LITERAL.test(literal)) return false;
  if (format === 'int64') return literal.length < 16 || (BigInt(literal) >= INT64_MIN && BigInt(literal) <= INT64_MAX);
  const n = Number(literal);
  return n >= INT32_MIN && n <= INT32_MAX;
}

/**
 * A map entry or slice element decoded from `null`: Go decodes into a fresh zero element and leaves it as it is, so a
 * `null` label value is "" and a `null` in a []int32 is 0 and a `null` struct element an empty one (pointers, slices and maps are left as decoded).
 */
function zeroForNull(node: SchemaNode, value: unknown): unknown {
  if (value !== null || node.nullable) return value;
  switch (node.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'object':
      return {}; // a zero struct: `secrets: [null]` is `[{}]` as Go decodes it
    default:
      return value;
  }
}

/** A strict decode checks a map's keys against the seen-keys stack up to this many, then against a Set. */
const MAP_KEYS_ON_STACK = 32;

class SchemaDecoder {
  readonly #r: JsonReader;
  readonly #strict: boolean;
  #saved: string | undefined;
  #aborted: string | undefined;
  readonly strictErrors: string[] = [];
  readonly #seenStrict = new Set<string>();
  /**
   * The keys already read of each object and map being decoded (strict mode), one stack for the whole document: an
   * object's keys from the length at its start, cut back when it ends (no list or Set per object).
   */
  readonly #seenKeys: string[] = [];
  /** Go's strictFieldStack: `spec`, `.`, `containers`, `[0]`… */
  readonly #path: string[] = [];
  /** Go's errorContext: innermost struct and the struct fields leading to the value (no indices, no map keys). */
  #struct: string | undefined;
  readonly #fields: string[] = [];

  constructor(text: string, strict: boolean) {
    this.#r = new JsonReader(text);
    this.#strict = strict;
  }

  get error(): string | undefined {
    return this.#aborted ?? this.#saved;
  }

  decodeDocument(node: SchemaNode): unknown {
    const value = this.#value(node, undefined);
    this.#r.end();
    return value;
  }

  #context(): GoErrorContext {
    return { struct: this.#struct, fields: this.#fields };
  }

  /** A type error: the first is kept and decoding goes on (Go's saveError). */
  #typeError(word: string, goType: string): void {
    this.#saved ??= unmarshalTypeError(word, goType, this.#context());
  }

  /** An error from a custom UnmarshalJSON: Go stops and returns it, whatever was saved before. */
  #abort(text: string): void {
    this.#aborted ??= text;
  }

  #strictError(type: 'unknown field' | 'duplicate field', field: string): void {
    if (this.strictErrors.length >= MAX_STRICT_ERRORS) return;
    const path = this.#path.length > 0 ? `${this.#path.join('')}.${field}` : field;
    const text = `${type} ${goQuote(path)}`;
    if (this.#seenStrict.has(text)) return;
    this.#seenStrict.add(text);
    this.strictErrors.push(text);
  }

  /** Appends a key to the strict path; returns how many pieces to pop afterwards. */
  #pushKey(key: string): number {
    if (this.#path.length === 0) return this.#path.push(key);
    this.#path.push('.', key);
    return 2;
  }

  #popPath(pieces: number): void {
    this.#path.pop();
    if (pieces === 2) this.#path.pop();
  }

  #value(node: SchemaNode, existing: unknown): unknown {
    const r = this.#r;
    const kind = r.kind();
    if (this.#aborted !== undefined) return r.readAny(); // decoding stopped; only the syntax still matters
    switch (node.type) {
      case 'object':
        if (kind === 'object') return this.#object(node, existing);
        break;
      case 'map':
        if (kind === 'object') return this.#map(node, existing);
        break;
      case 'array':
        if (kind === 'array') return this.#array(node, existing);
        break;
      case 'any':
        return this.#strict ? this.#any(kind) : r.readAny();
      case 'raw':
        return r.readAny();
      case 'int-or-string':
      case 'quantity':
      case 'date-time':
      case 'micro-time':
      case 'duration':
        return this.#custom(node, kind);
      default:
        return this.#scalar(node, kind, existing);
    }
    if (kind === 'null') {
      r.readLiteral(kind);
      return node.nullable ? null : (existing ?? null);
    }
    this.#typeError(goKindWord(kind), node.goType);
    return r.readAny();
  }

  #object(node: SchemaNode, existing: unknown): Record<string, unknown> {
    const r = this.#r;
    const target = existing !== undefined && isPlainObject(existing) ? existing : {};
    if (!r.beginObject()) return target;
    // Known keys seen in this object (Go keeps a bitset per struct decode); few, so a list beats a Set.
    const seen: string[] | undefined = this.#strict ? this.#seenKeys : undefined;
    const from = seen === undefined ? 0 : seen.length;
    const struct = this.#struct;
    const fields = this.#fields;
    const goStruct = node.goStruct;
    do {
      const key = r.readKey();
      const child = node.fieldAt(key);
      if (child === undefined) {
        if (seen) this.#strictError('unknown field', key);
        r.readAny(); // Go skips the value of an unknown field unread
        continue;
      }
      this.#struct = goStruct;
      fields.push(key);
      if (seen) {
        if (seen.indexOf(key, from) !== -1) this.#strictError('duplicate field', key);
        else seen.push(key);
        const pushed = this.#pushKey(key);
        setOwn(target, key, this.#value(child, target[key]));
        this.#popPath(pushed);
      } else {
        setOwn(target, key, this.#value(child, target[key]));
      }
      fields.pop();
      this.#struct = struct;
    } while (r.nextKey());
    if (seen) seen.length = from;
    return target;
  }

  /** A Go map: the map is kept across a repeated key, each entry decoded afresh. */
  #map(node: SchemaNode, existing: unknown): Record<string, unknown> {
    const r = this.#r;
    const target = existing !== undefined && isPlainObject(existing) ? existing : {};
    if (!r.beginObject()) return target;
    const values = node.values ?? node;
    const seen = this.#strict ? this.#seenKeys : undefined;
    const from = seen === undefined ? 0 : seen.length;
    // A large map's keys go to a Set of their own (a scan of the stack would be quadratic).
    let many: Set<string> | undefined;
    do {
      const key = r.readKey();
      if (seen) {
        if (many !== undefined ? many.has(key) : seen.indexOf(key, from) !== -1)
          this.#strictError('duplicate field', key);
        else if (many !== undefined) many.add(key);
        else if (seen.push(key) - from > MAP_KEYS_ON_STACK) many = new Set(seen.slice(from));
        const pushed = this.#pushKey(key);
        setOwn(target, key, zeroForNull(values, this.#value(values, undefined)));
        this.#popPath(pushed);
      } else {
        setOwn(target, key, zeroForNull(values, this.#value(values, undefined)));
      }
    } while (r.nextKey());
    if (seen) seen.length = from;
    return target;
  }

  /** A Go slice: elements are decoded into the existing ones (a repeated key), then it is cut to the new length. */
  #array(node: SchemaNode, existing: unknown): unknown[] {
    const r = this.#r;
    if (!r.beginArray()) return [];
    const target = Array.isArray(existing) ? existing : [];
    const items = node.items ?? node;
    const strict = this.#strict;
    let i = 0;
    do {
      if (strict) {
        this.#path.push(`[${i}]`);
        target[i] = zeroForNull(items, this.#value(items, target[i]));
        this.#path.pop();
      } else {
        target[i] = zeroForNull(items, this.#value(items, target[i]));
      }
      i += 1;
    } while (r.nextElement());
    if (target.length !== i) target.length = i;
    return target;
  }

  /** An `interface{}`: any JSON, with duplicate keys reported (strict mode). */
  #any(kind: ValueKind): unknown {
    const r = this.#r;
    if (kind !== 'object' && kind !== 'array') return r.readAny();
    if (kind === 'array') {
      const out: unknown[] = [];
      if (r.beginArray()) {
        do {
          this.#path.push(`[${out.length}]`);
          out.push(this.#any(r.kind()));
          this.#path.pop();
        } while (r.nextElement());
      }
      return out;
    }
    const out: Record<string, unknown> = {};
    const seen = new Set<string>();
    if (!r.beginObject()) return out;
    do {
      const key = r.readKey();
      if (seen.has(key)) this.#strictError('duplicate field', key);
      else seen.add(key);
      const pushed = this.#pushKey(key);
      setOwn(out, key, this.#any(r.kind()));
      this.#popPath(pushed);
    } while (r.nextKey());
    return out;
  }

  #scalar(node: SchemaNode, kind: ValueKind, existing: unknown): unknown {
    const r = this.#r;
    if (kind === 'null') {
      r.readLiteral(kind);
      return node.nullable ? null : (existing ?? null); // Go leaves a non-pointer value as it was
    }
    if (node.type === 'string') {
      if (kind === 'string') return r.readString();
    } else if (node.type === 'bytes') {
      // A []byte (a webhook's caBundle) is base64 in JSON; what Go cannot decode stops decoding.
      if (kind === 'string') {
        const text = r.readString();
        const offset = goBase64ErrorOffset(text);
        if (offset !== undefined) this.#abort(`illegal base64 data at input byte ${offset}`);
        return text;
      }
    } else if (node.type === 'boolean') {
      if (kind === 'true' || kind === 'false') {
        r.readLiteral(kind);
        return kind === 'true';
      }
    } else if (kind === 'number') {
      const literal = r.readNumber();
      const value = Number(literal);
      const ok = node.type === 'integer' ? fitsInteger(literal, node.format) : Number.isFinite(value);
      if (!ok) this.#typeError(`number ${literal}`, node.goType);
      return value;
    }
    this.#typeError(goKindWord(kind), node.goType);
    return r.readAny();
  }

  /** Types with their own UnmarshalJSON: IntOrString, Quantity, Time, MicroTime, Duration. Their errors stop decoding. */
  #custom(node: SchemaNode, kind: ValueKind): unknown {
    const r = this.#r;
    const start = r.pos;
    if (node.type === 'quantity') {
      const value = r.readAny();
      const err = quantityJsonError(r.text.slice(start, r.pos));
      if (err !== undefined) this.#abort(err);
      return value;
    }
    if (kind === 'null') return r.readAny();
    if (node.type === 'int-or-string') {
      // IntOrString: a quoted value is a string, anything else is json.Unmarshal'ed into an int32.
      if (kind === 'string') return r.readString();
      if (kind === 'number') {
        const literal = r.readNumber();
        if (!fitsInteger(literal, 'int32'))
          this.#abort(unmarshalTypeError(`number ${literal}`, 'int32', this.#context()));
        return Number(literal);
      }
      const value = r.readAny();
      this.#abort(unmarshalTypeError(goKindWord(kind), 'int32', this.#context()));
      return value;
    }
    // Time, MicroTime, Duration: json.Unmarshal into a string, then time.Parse / time.ParseDuration.
    if (kind !== 'string') {
      const value = r.readAny();
      this.#abort(unmarshalTypeError(goKindWord(kind), 'string', this.#context()));
      return value;
    }
    const text = r.readString();
    const err =
      node.type === 'duration'
        ? goDurationError(text)
        : goTimeParseError(node.type === 'micro-time' ? RFC3339_MICRO : RFC3339, text);
    if (err !== undefined) this.#abort(err);
    return text;
  }
}

/**
 * Decodes `text` as a value of `node`. Throws JsonSyntaxError (Go's scanner text) for malformed JSON;
 * every other problem is in the result, as Go's decoder reports it.
 */
export function decodeJson(text: string, node: SchemaNode, options: DecodeOptions): DecodeResult {
  const decoder = new SchemaDecoder(text, options.strict);
  const value = decoder.decodeDocument(node);
  const error = decoder.error;
  return { value, error, strictErrors: error === undefined ? decoder.strictErrors : [] };
}

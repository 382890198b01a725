// Readers for untrusted JSON fields in flowcontrol validation, and Go-style printing of the values they report.
import type { FieldError, PrintableValue } from '../../apimachinery/field/errors';
import { goLiteral, goQuote, invalidValue } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isPlainObject } from '../../apimachinery/meta/types';

/**
 * A field whose JSON type was wrong. Its error is already reported, so checks that depend on the
 * value are skipped rather than piling guesses on top of it.
 */
export const WRONG_TYPE = Symbol('wrong type');
export type WrongType = typeof WRONG_TYPE;

/** The value, `undefined` when absent or null (Go decodes both to the zero value), or WRONG_TYPE. */
export type Read<T> = T | undefined | WrongType;

export type JsonObject = Record<string, unknown>;

// Kubernetes rejects these at decode time with a Go unmarshal error; we report them as field
// errors instead, so these details are ours.
export const MUST_BE_OBJECT = 'must be an object';
export const MUST_BE_STRING = 'must be a string';
export const MUST_BE_INT32 = 'must be a 32-bit integer';
export const MUST_BE_BOOLEAN = 'must be a boolean';
export const MUST_BE_LIST = 'must be a list';
export const MUST_BE_TIMESTAMP = 'must be a timestamp in RFC 3339 format';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** How a wrongly typed value appears after `Invalid value: `. */
export function shownValue(value: unknown): PrintableValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return goLiteral(JSON.stringify(value) ?? String(value));
}

function isAbsent(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

function wrongType(errs: FieldError[], path: FieldPath, value: unknown, detail: string): WrongType {
  errs.push(invalidValue(path, shownValue(value), detail));
  return WRONG_TYPE;
}

export function readObject(errs: FieldError[], path: FieldPath, value: unknown): Read<JsonObject> {
  if (isAbsent(value)) return undefined;
  return isPlainObject(value) ? value : wrongType(errs, path, value, MUST_BE_OBJECT);
}

export function readString(errs: FieldError[], path: FieldPath, value: unknown): Read<string> {
  if (isAbsent(value)) return undefined;
  return typeof value === 'string' ? value : wrongType(errs, path, value, MUST_BE_STRING);
}

export function readInt32(errs: FieldError[], path: FieldPath, value: unknown): Read<number> {
  if (isAbsent(value)) return undefined;
  const ok = typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
  return ok ? value : wrongType(errs, path, value, MUST_BE_INT32);
}

export function readBoolean(errs: FieldError[], path: FieldPath, value: unknown): Read<boolean> {
  if (isAbsent(value)) return undefined;
  return typeof value === 'boolean' ? value : wrongType(errs, path, value, MUST_BE_BOOLEAN);
}

export function readList(errs: FieldError[], path: FieldPath, value: unknown): Read<unknown[]> {
  if (isAbsent(value)) return undefined;
  return Array.isArray(value) ? value : wrongType(errs, path, value, MUST_BE_LIST);
}

/** A list of strings; every non-string member is reported, and then the whole list counts as wrong. */
export function readStringList(errs: FieldError[], path: FieldPath, value: unknown): Read<string[]> {
  const list = readList(errs, path, value);
  if (list === undefined || list === WRONG_TYPE) return list;
  const out: string[] = [];
  let bad = false;
  list.forEach((member, i) => {
    // Go decodes a null member of a []string as "".
    const s = readString(errs, path.index(i), member);
    if (s === WRONG_TYPE) bad = true;
    else out.push(s ?? '');
  });
  return bad ? WRONG_TYPE : out;
}

// metav1.Time accepts what time.Parse(time.RFC3339, …) does: fractional seconds optional, `Z` or an offset.
const RFC3339_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function readTimestamp(errs: FieldError[], path: FieldPath, value: unknown): Read<string> {
  const s = readString(errs, path, value);
  if (s === undefined || s === WRONG_TYPE) return s;
  return RFC3339_RE.test(s) && !Number.isNaN(Date.parse(s)) ? s : wrongType(errs, path, value, MUST_BE_TIMESTAMP);
}

/** Go's `%#v` of a `[]string`. */
export function goStringSlice(list: readonly string[] | null): string {
  return list === null ? '[]string(nil)' : `[]string{${list.map(goQuote).join(', ')}}`;
}

// A nested non-nil pointer prints as its address under `%#v`; Kubernetes' texts show a real heap
// address there, which cannot be reproduced, so a fixed one stands in.
const POINTER_ADDRESS = '0xc000000000';

/** Go's `%#v` of a nested pointer field: `(*T)(nil)` or `(*T)(0x…)`. */
export function goPointer(typeName: string, isNil: boolean): string {
  return `(*${typeName})(${isNil ? 'nil' : POINTER_ADDRESS})`;
}

/**
 * apiequality.Semantic.DeepEqual over decoded values: like deep equality, except that a nil slice
 * (null) equals an empty one, as in Kubernetes.
 */
export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null && Array.isArray(b)) return b.length === 0;
  if (b === null && Array.isArray(a)) return a.length === 0;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

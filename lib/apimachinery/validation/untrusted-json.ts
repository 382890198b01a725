// Readers for untrusted decoded JSON (wrong types become field errors), zero-value accessors, and Go `%#v` texts they report.
import type { FieldError, PrintableValue } from '../field/errors';
import { goLiteral, goQuote, invalidValue } from '../field/errors';
import type { FieldPath } from '../field/path';
import { isPlainObject } from '../meta/types';

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
export const MUST_BE_INT64 = 'must be a 64-bit integer';
export const MUST_BE_BOOLEAN = 'must be a boolean';
export const MUST_BE_LIST = 'must be a list';
export const MUST_BE_STRING_MAP = 'must be a map of string keys to string values';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** A JSON number that fits Go's int32. */
export function isInt32(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
}

/** How a wrongly typed value appears after `Invalid value: `. */
export function shownValue(value: unknown): PrintableValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return goLiteral(JSON.stringify(value) ?? String(value));
}

export function isAbsent(value: unknown): value is null | undefined {
  return value === undefined || value === null;
}

/** Reports `value` as not of the type `detail` names, and returns WRONG_TYPE (for readers of other types). */
export function wrongType(errs: FieldError[], path: FieldPath, value: unknown, detail: string): WrongType {
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
  return isInt32(value) ? value : wrongType(errs, path, value, MUST_BE_INT32);
}

export function readInt64(errs: FieldError[], path: FieldPath, value: unknown): Read<number> {
  if (isAbsent(value)) return undefined;
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : wrongType(errs, path, value, MUST_BE_INT64);
}

export function readBoolean(errs: FieldError[], path: FieldPath, value: unknown): Read<boolean> {
  if (isAbsent(value)) return undefined;
  return typeof value === 'boolean' ? value : wrongType(errs, path, value, MUST_BE_BOOLEAN);
}

export function readList(errs: FieldError[], path: FieldPath, value: unknown): Read<unknown[]> {
  if (isAbsent(value)) return undefined;
  return Array.isArray(value) ? value : wrongType(errs, path, value, MUST_BE_LIST);
}

/** A list of objects; non-object members are reported and come back as WRONG_TYPE in their slot. */
export function readObjectList(errs: FieldError[], path: FieldPath, value: unknown): Read<Read<JsonObject>[]> {
  const list = readList(errs, path, value);
  if (list === undefined || list === WRONG_TYPE) return list;
  return list.map((member, i) => readObject(errs, path.index(i), member));
}

/** A list of strings (a null member decodes as ""); every non-string member is reported, and then the whole list is WRONG_TYPE. */
export function readStringList(errs: FieldError[], path: FieldPath, value: unknown): Read<string[]> {
  const list = readList(errs, path, value);
  if (list === undefined || list === WRONG_TYPE) return list;
  const out: string[] = [];
  let bad = false;
  list.forEach((member, i) => {
    const s = readString(errs, path.index(i), member);
    if (s === WRONG_TYPE) bad = true;
    else out.push(s ?? '');
  });
  return bad ? WRONG_TYPE : out;
}

/** A map[string]string (a null value decodes as ""); any other non-string value makes the whole map WRONG_TYPE. */
export function readStringMap(errs: FieldError[], path: FieldPath, value: unknown): Read<Record<string, string>> {
  if (isAbsent(value)) return undefined;
  if (!isPlainObject(value)) return wrongType(errs, path, value, MUST_BE_STRING_MAP);
  const out: Record<string, string> = {};
  let bad = false;
  for (const [k, v] of Object.entries(value)) {
    const s = readString(errs, path.key(k), v);
    if (s === WRONG_TYPE) bad = true;
    else out[k] = s ?? '';
  }
  return bad ? WRONG_TYPE : out;
}

/** The object under `key`, created when absent or null (Go's zero struct); undefined when wrongly typed. */
export function ensureObject(parent: JsonObject, key: string): JsonObject | undefined {
  const value = parent[key];
  if (isAbsent(value)) {
    const created: JsonObject = {};
    parent[key] = created;
    return created;
  }
  return isPlainObject(value) ? value : undefined;
}

/** The object under `key` when it is one (no creation). */
export function objectAt(parent: unknown, key: string): JsonObject | undefined {
  if (!isPlainObject(parent)) return undefined;
  const value = parent[key];
  return isPlainObject(value) ? value : undefined;
}

/** The objects of the list under `key`, skipping members of the wrong type. */
export function objectsAt(parent: unknown, key: string): JsonObject[] {
  if (!isPlainObject(parent)) return [];
  const value = parent[key];
  return Array.isArray(value) ? value.filter(isPlainObject) : [];
}

/** Go's zero-value reading of a decoded string field (absent, null or wrongly typed → ""). */
export function stringAt(parent: unknown, key: string): string {
  if (!isPlainObject(parent)) return '';
  const value = parent[key];
  return typeof value === 'string' ? value : '';
}

/** Go's zero-value reading of a decoded number field (absent, null or wrongly typed → 0). */
export function numberAt(parent: unknown, key: string): number {
  if (!isPlainObject(parent)) return 0;
  const value = parent[key];
  return typeof value === 'number' ? value : 0;
}

/** Go's `%#v` of a []string; `undefined` or `null` is the nil slice. */
export function goStringSliceText(list: readonly string[] | null | undefined): string {
  return list === undefined || list === null ? '[]string(nil)' : `[]string{${list.map(goQuote).join(', ')}}`;
}

// A nested non-nil pointer prints as its address under `%#v`; Kubernetes' texts show a real heap
// address there, which cannot be reproduced, so a fixed one stands in.
const POINTER_ADDRESS = '0xc000000000';

/** Go's `%#v` of a nested pointer field: `(*T)(nil)` or `(*T)(0x…)`. */
export function goPointerText(typeName: string, isNil: boolean): string {
  return `(*${typeName})(${isNil ? 'nil' : POINTER_ADDRESS})`;
}

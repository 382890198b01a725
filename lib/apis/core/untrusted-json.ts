// Readers for untrusted JSON in core/apps/autoscaling validation, and Go `%#v` texts of the values they report.
import type { FieldError, PrintableValue } from '../../apimachinery/field/errors';
import { goLiteral, goQuote, invalidValue } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isPlainObject } from '../../apimachinery/meta/types';
import { compareGoStrings } from '../../apimachinery/labels/parser';

/** A field whose JSON type was wrong: its error is already reported, so dependent checks are skipped. */
export const WRONG_TYPE = Symbol('wrong type');
export type WrongType = typeof WRONG_TYPE;

/** The value, `undefined` when absent or null (Go decodes both to the zero value), or WRONG_TYPE. */
export type Read<T> = T | undefined | WrongType;

export type JsonObject = Record<string, unknown>;

// Kubernetes rejects these at decode time with a Go unmarshal error; we report them as field errors,
// so these details are ours (the same words as the flowcontrol readers).
export const MUST_BE_OBJECT = 'must be an object';
export const MUST_BE_STRING = 'must be a string';
export const MUST_BE_INT32 = 'must be a 32-bit integer';
export const MUST_BE_INT64 = 'must be a 64-bit integer';
export const MUST_BE_BOOLEAN = 'must be a boolean';
export const MUST_BE_LIST = 'must be a list';
export const MUST_BE_STRING_MAP = 'must be a map of string keys to string values';
export const MUST_BE_INT_OR_STRING = 'must be an integer or a string';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/** How a wrongly typed value appears after `Invalid value: `. */
export function shownValue(value: unknown): PrintableValue {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return goLiteral(JSON.stringify(value) ?? String(value));
}

export function isAbsent(value: unknown): value is null | undefined {
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

/** A list of strings (a null member decodes as ""); any bad member makes the whole list WRONG_TYPE. */
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

/** intstr.IntOrString: a JSON number is an int32 (Type 0), a JSON string a string (Type 1). */
export type IntOrString = { type: 0; intVal: number } | { type: 1; strVal: string };

export function readIntOrString(errs: FieldError[], path: FieldPath, value: unknown): Read<IntOrString> {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'string') return { type: 1, strVal: value };
  if (typeof value === 'number' && Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) return { type: 0, intVal: value };
  return wrongType(errs, path, value, MUST_BE_INT_OR_STRING);
}

/** Go's `%#v` of an intstr.IntOrString value (its String() has a pointer receiver, so the struct is dumped). */
export function intOrStringLiteral(v: IntOrString): PrintableValue {
  return v.type === 0 ? goLiteral(`intstr.IntOrString{Type:0, IntVal:${v.intVal}, StrVal:""}`) : goLiteral(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v.strVal)}}`);
}

/** Go's `%#v` of a map[string]string: keys in Go order; `undefined` is the nil map. */
export function goStringMapText(map: Readonly<Record<string, string>> | undefined): string {
  if (map === undefined) return 'map[string]string(nil)';
  const keys = Object.keys(map).sort(compareGoStrings);
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(map[k] ?? '')}`).join(', ')}}`;
}

/** Go's `%#v` of a []string; `undefined` is the nil slice. */
export function goStringSliceText(list: readonly string[] | undefined): string {
  return list === undefined ? '[]string(nil)' : `[]string{${list.map(goQuote).join(', ')}}`;
}

// A non-nil pointer nested in a `%#v` dump prints as a heap address, which cannot be reproduced.
const POINTER_ADDRESS = '0xc000000000';

/** Go's `%#v` of a nested pointer field: `(*T)(nil)` or `(*T)(0x…)`. */
export function goPointerText(typeName: string, isNil: boolean): string {
  return `(*${typeName})(${isNil ? 'nil' : POINTER_ADDRESS})`;
}

/**
 * A nil pointer as field.Error printed it in 1.26: the value was replaced by the string "null" and then
 * quoted (apimachinery ≥ 0.29 prints a bare `null`).
 */
export const GO_NIL_VALUE: PrintableValue = goLiteral('"null"');

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

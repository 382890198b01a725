// Core-group extras to the shared untrusted-JSON readers: intstr.IntOrString, and Go `%#v` texts of maps and nil pointers.
import type { FieldError, PrintableValue } from '../../apimachinery/field/errors';
import { goLiteral, goQuote } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { compareGoStrings } from '../../apimachinery/labels/parser';
import type { Read } from '../../apimachinery/validation/untrusted-json';
import { isAbsent, isInt32, wrongType } from '../../apimachinery/validation/untrusted-json';

// Like the shared readers' texts: Kubernetes rejects this at decode time, so the detail is ours.
export const MUST_BE_INT_OR_STRING = 'must be an integer or a string';

/** intstr.IntOrString: a JSON number is an int32 (Type 0), a JSON string a string (Type 1). */
export type IntOrString = { type: 0; intVal: number } | { type: 1; strVal: string };

export function readIntOrString(errs: FieldError[], path: FieldPath, value: unknown): Read<IntOrString> {
  if (isAbsent(value)) return undefined;
  if (typeof value === 'string') return { type: 1, strVal: value };
  if (isInt32(value)) return { type: 0, intVal: value };
  return wrongType(errs, path, value, MUST_BE_INT_OR_STRING);
}

/** Go's `%#v` of an intstr.IntOrString value (its String() has a pointer receiver, so the struct is dumped). */
export function intOrStringLiteral(v: IntOrString): PrintableValue {
  return v.type === 0
    ? goLiteral(`intstr.IntOrString{Type:0, IntVal:${v.intVal}, StrVal:""}`)
    : goLiteral(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v.strVal)}}`);
}

/** Go's `%#v` of a map[string]string: keys in Go order; `undefined` is the nil map. */
export function goStringMapText(map: Readonly<Record<string, string>> | undefined): string {
  if (map === undefined) return 'map[string]string(nil)';
  const keys = Object.keys(map).sort(compareGoStrings);
  return `map[string]string{${keys.map((k) => `${goQuote(k)}:${goQuote(map[k] ?? '')}`).join(', ')}}`;
}

/**
 * A nil pointer as field.Error printed it in 1.26: the value was replaced by the string "null" and then
 * quoted (apimachinery ≥ 0.29 prints a bare `null`).
 */
export const GO_NIL_VALUE: PrintableValue = goLiteral('"null"');

// Field errors (Required, Invalid, NotSupported, …) with k8s.io/apimachinery's texts and value printing.
import type { CauseType, StatusCause } from '../errors/status';
import type { FieldPath } from './path';

export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'FieldValueTypeInvalid';

export interface FieldError {
  type: FieldErrorType;
  field: string;
  /** The body after `<field>: `, e.g. `Invalid value: 0: must be positive`. */
  body: string;
}

/**
 * A value printed as Go's `%#v`/`%v` would for the field error texts. Strings are Go-quoted,
 * numbers and booleans plain, null as `null`. Callers with struct-dump texts pass a `GoLiteral`.
 */
export type PrintableValue = string | number | boolean | null | undefined | GoLiteral;

/** Text already formatted the way Go prints a value (`[]string{"foo"}`, `0x0`). */
export class GoLiteral {
  constructor(readonly text: string) {}
}

export const goLiteral = (text: string): GoLiteral => new GoLiteral(text);

/** Go `%q` of a string: double-quoted with backslash escapes. */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (cp < 0x20 || cp === 0x7f) out += `\\x${cp.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

export function printValue(value: PrintableValue): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof GoLiteral) return value.text;
  if (typeof value === 'string') return goQuote(value);
  return String(value);
}

function withDetail(head: string, detail?: string): string {
  return detail === undefined || detail === '' ? head : `${head}: ${detail}`;
}

export function required(path: FieldPath, detail?: string): FieldError {
  return { type: 'FieldValueRequired', field: path.toString(), body: withDetail('Required value', detail) };
}

export function invalidValue(path: FieldPath, value: PrintableValue, detail?: string): FieldError {
  return {
    type: 'FieldValueInvalid',
    field: path.toString(),
    body: withDetail(`Invalid value: ${printValue(value)}`, detail),
  };
}

export function notSupported(path: FieldPath, value: PrintableValue, supported: readonly string[]): FieldError {
  const list = supported.map((s) => goQuote(s)).join(', ');
  const body =
    supported.length > 0
      ? `Unsupported value: ${printValue(value)}: supported values: ${list}`
      : `Unsupported value: ${printValue(value)}`;
  return { type: 'FieldValueNotSupported', field: path.toString(), body };
}

export function forbiddenField(path: FieldPath, detail?: string): FieldError {
  return { type: 'FieldValueForbidden', field: path.toString(), body: withDetail('Forbidden', detail) };
}

export function duplicate(path: FieldPath, value: PrintableValue): FieldError {
  return { type: 'FieldValueDuplicate', field: path.toString(), body: `Duplicate value: ${printValue(value)}` };
}

export function notFoundField(path: FieldPath, value: PrintableValue): FieldError {
  return { type: 'FieldValueNotFound', field: path.toString(), body: `Not found: ${printValue(value)}` };
}

export function tooLong(path: FieldPath, maxLength: number): FieldError {
  return { type: 'FieldValueTooLong', field: path.toString(), body: `Too long: must have at most ${maxLength} bytes` };
}

export function tooMany(path: FieldPath, actual: number, max: number): FieldError {
  return {
    type: 'FieldValueTooMany',
    field: path.toString(),
    body: `Too many: ${actual}: must have at most ${max} items`,
  };
}

/** `<field>: <body>` as Kubernetes' FieldError.Error() prints it (no field → body alone). */
export function fieldErrorText(e: FieldError): string {
  return e.field === '' ? e.body : `${e.field}: ${e.body}`;
}

/** One error → its text; several → `[e1, e2]`, identical texts printed once. */
export function aggregateFieldErrors(errors: readonly FieldError[]): string {
  const texts = [...new Set(errors.map(fieldErrorText))];
  if (texts.length === 1) return texts[0] ?? '';
  return `[${texts.join(', ')}]`;
}

export function fieldErrorToCause(e: FieldError): StatusCause {
  const cause: StatusCause = { reason: e.type as CauseType, message: e.body };
  if (e.field !== '') cause.field = e.field;
  return cause;
}

// Flowcontrol's extra reader for untrusted JSON (timestamps); the common readers are in apimachinery/validation/untrusted-json.
import type { FieldError } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import type { Read } from '../../apimachinery/validation/untrusted-json';
import { WRONG_TYPE, readString, wrongType } from '../../apimachinery/validation/untrusted-json';

export const MUST_BE_TIMESTAMP = 'must be a timestamp in RFC 3339 format';

// metav1.Time accepts what time.Parse(time.RFC3339, …) does: fractional seconds optional, `Z` or an offset.
const RFC3339_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export function readTimestamp(errs: FieldError[], path: FieldPath, value: unknown): Read<string> {
  const s = readString(errs, path, value);
  if (s === undefined || s === WRONG_TYPE) return s;
  return RFC3339_RE.test(s) && !Number.isNaN(Date.parse(s)) ? s : wrongType(errs, path, value, MUST_BE_TIMESTAMP);
}

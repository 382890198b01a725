// Dropping `null` map entries from patch content that lands in the result (strategicpatch discardNullValuesFromPatch).
import { isPlainObject } from '../meta/types';

/**
 * Removes null-valued keys from every map inside `value` (in place; list elements that are null stay)
 * and returns it. Kubernetes does this for patch values that have no live counterpart; it keeps
 * the nulls of appended list elements and replaced content, but its typed decoding then turns them
 * into zero values, so we drop them there too (we store JSON, not a typed object).
 */
export function discardNulls<T>(value: T): T {
  if (Array.isArray(value)) {
    for (const v of value) discardNulls(v);
  } else if (isPlainObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (v === null) delete value[k];
      else discardNulls(v);
    }
  }
  return value;
}

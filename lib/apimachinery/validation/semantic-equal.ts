// apiequality.Semantic.DeepEqual over decoded JSON: deep equality where nil and empty lists/maps are equal.
import { isPlainObject } from '../meta/types';

/** Absent, null, [] and {} are all Go's nil-or-empty slice/map, which Semantic.DeepEqual treats alike. */
function isNilOrEmpty(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return isPlainObject(v) && Object.keys(v).length === 0;
}

export function semanticEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (isNilOrEmpty(a) && isNilOrEmpty(b)) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => semanticEqual(x, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) if (!semanticEqual(a[k], b[k])) return false;
    return true;
  }
  return false;
}

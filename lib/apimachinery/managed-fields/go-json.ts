// Go's `%q` of a string and equality of decoded JSON values (json.Marshal's text lives in ../json/go-marshal).

/** Go's `%q` of a string (strconv.Quote for the printable ASCII and common escapes). */
export function goQuote(s: string): string {
  return JSON.stringify(s);
}

/** Equality of decoded JSON values (value.Equals): key order ignored, prototypes not compared. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((v, i) => jsonEqual(v, b[i]));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return (
    ka.length === kb.length &&
    ka.every(
      (k) =>
        Object.prototype.hasOwnProperty.call(b, k) &&
        jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
    )
  );
}

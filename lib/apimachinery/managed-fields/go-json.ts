// JSON text as Go's encoding/json (and jsoniter's standard-library mode) writes it: HTML-safe escapes, map keys sorted.

const ESCAPED = /[<>&\u2028\u2029]/;
const ESCAPED_ALL = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) out[key] = sortKeys((value as Record<string, unknown>)[key]);
    return out;
  }
  return value;
}

/** json.Marshal of a decoded JSON value (maps sorted by key). */
export function goJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)).replace(/[<>&\u2028\u2029]/g, (ch) => ESCAPES[ch] ?? ch);
}

/** JSON text with the characters Go's encoder escapes (HTML-safe) escaped as it does. */
export function goEscapeJson(text: string): string {
  return ESCAPED.test(text) ? text.replace(ESCAPED_ALL, (ch) => ESCAPES[ch] ?? ch) : text;
}

/** json.Marshal keeping the given key order (struct-like values built in field order). */
export function goJsonOrdered(value: unknown): string {
  const text: string | undefined = JSON.stringify(value);
  // undefined (or a function) has no JSON text: an error, as it always was for callers (they pass JSON values).
  if (text === undefined) throw new TypeError(`no JSON text for ${typeof value}`);
  return goEscapeJson(text);
}

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
  return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

// JSON text as Go's encoding/json (and jsoniter's standard-library mode) writes it: compact, HTML-safe escapes,
// map keys sorted as Go sorts strings (by their UTF-8 bytes), text that is not valid Unicode written as U+FFFD.
import { compareGoStrings } from '../labels/parser';

const ESCAPED = /[<>&\u2028\u2029]/;
const ESCAPED_ALL = /[<>&\u2028\u2029]/g;
const ESCAPES: Readonly<Record<string, string>> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};
const SURROGATE = /[\ud800-\udfff]/;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** A string as Go holds it after decoding JSON: an unpaired surrogate (invalid in UTF-8) is U+FFFD. */
function wellFormed(s: string): string {
  return SURROGATE.test(s) ? s.replace(LONE_SURROGATE, '\ufffd') : s;
}

/**
 * Compact JSON of a decoded value with Go's map key order. Written out here rather than by JSON.stringify of a
 * re-ordered object, since JS objects put integer-like keys first (Go writes "10" before "9" before "a").
 */
function writeGo(value: unknown): string | undefined {
  if (typeof value === 'string') return JSON.stringify(wellFormed(value));
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((v) => writeGo(v) ?? 'null').join(',')}]`;
  const members = new Map<string, string>(); // keys that differ only in unpaired surrogates are one Go key: the last wins
  for (const [k, v] of Object.entries(value)) {
    const text = writeGo(v);
    if (text !== undefined) members.set(wellFormed(k), text);
  }
  const keys = [...members.keys()].sort(compareGoStrings);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${members.get(k) ?? 'null'}`).join(',')}}`;
}

/** json.Marshal of a decoded JSON value: compact, map keys in Go's (UTF-8 byte) order, HTML characters escaped. */
export function goMarshal(value: unknown): string {
  const text = writeGo(value);
  if (text === undefined) throw new TypeError(`no JSON text for ${typeof value}`);
  return goEscapeJson(text);
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

// Go encoding/json texts for request bodies: syntax errors (scanner.go, e.g. `invalid character 'x' after object key`),
// the JSON kind named in unmarshal type errors, and json.Marshal's compact form.
import { isPlainObject } from '../../apimachinery/meta/types';
import { compareGoStrings } from '../../apimachinery/labels/parser';
import { EXCEEDED_MAX_DEPTH, MAX_NESTING_DEPTH } from '../../apimachinery/json/max-depth';

const UNEXPECTED_END = 'unexpected end of JSON input';

class GoSyntaxError extends Error {}

/** Go's quoteChar: the byte as a single-quoted Go literal. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  const escapes: Record<number, string> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 0x5c: '\\\\' };
  const escaped = escapes[c];
  if (escaped !== undefined) return `'${escaped}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // A byte ≥ 0x80 is printed as the rune of the same number (Latin-1); the non-printable ones escaped.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

const isSpace = (c: number | undefined): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number | undefined): boolean => c !== undefined && c >= 0x30 && c <= 0x39;
const isHex = (c: number): boolean => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const ESCAPABLE = new Set([...'bfnrt\\/"'].map((ch) => ch.charCodeAt(0)));

/** A recursive-descent twin of Go's scanner state machine, failing with its messages. */
class Scanner {
  #i = 0;
  #depth = 0;
  constructor(readonly data: Buffer) {}

  fail(context: string): never {
    throw new GoSyntaxError(`invalid character ${quoteChar(this.data[this.#i] ?? 0)} ${context}`);
  }
  peek(): number | undefined {
    return this.data[this.#i];
  }
  /** The next byte, which must exist. */
  need(): number {
    const c = this.data[this.#i];
    if (c === undefined) throw new GoSyntaxError(UNEXPECTED_END);
    return c;
  }
  skip(): void {
    this.#i++;
  }
  skipSpace(): void {
    while (isSpace(this.peek())) this.#i++;
  }
  digits(): void {
    while (isDigit(this.peek())) this.#i++;
  }

  document(): void {
    this.value();
    this.skipSpace();
    if (this.peek() !== undefined) this.fail('after top-level value');
  }

  value(): void {
    this.skipSpace();
    const c = this.need();
    if (c === 0x7b || c === 0x5b) {
      if (++this.#depth > MAX_NESTING_DEPTH) this.fail(EXCEEDED_MAX_DEPTH);
      if (c === 0x7b) this.object();
      else this.array();
      this.#depth--;
      return;
    }
    if (c === 0x22) return this.string();
    if (c === 0x2d || isDigit(c)) return this.number();
    const literal = { t: 'true', f: 'false', n: 'null' }[String.fromCharCode(c)];
    if (literal === undefined) this.fail('looking for beginning of value');
    this.literal(literal);
  }

  object(): void {
    this.skip();
    this.skipSpace();
    if (this.need() === 0x7d) return this.skip();
    for (;;) {
      this.skipSpace();
      if (this.need() !== 0x22) this.fail('looking for beginning of object key string');
      this.string();
      this.skipSpace();
      if (this.need() !== 0x3a) this.fail('after object key');
      this.skip();
      this.value();
      this.skipSpace();
      const c = this.need();
      if (c === 0x7d) return this.skip();
      if (c !== 0x2c) this.fail('after object key:value pair');
      this.skip();
    }
  }

  array(): void {
    this.skip();
    this.skipSpace();
    if (this.need() === 0x5d) return this.skip();
    for (;;) {
      this.value();
      this.skipSpace();
      const c = this.need();
      if (c === 0x5d) return this.skip();
      if (c !== 0x2c) this.fail('after array element');
      this.skip();
    }
  }

  string(): void {
    this.skip();
    for (;;) {
      const c = this.need();
      if (c === 0x22) return this.skip();
      if (c < 0x20) this.fail('in string literal');
      this.skip();
      if (c !== 0x5c) continue;
      const e = this.need();
      if (ESCAPABLE.has(e)) {
        this.skip();
      } else if (e === 0x75) {
        this.skip();
        for (let k = 0; k < 4; k++) {
          if (!isHex(this.need())) this.fail('in \\u hexadecimal character escape');
          this.skip();
        }
      } else {
        this.fail('in string escape code');
      }
    }
  }

  number(): void {
    if (this.peek() === 0x2d) {
      this.skip();
      if (!isDigit(this.need())) this.fail('in numeric literal');
    }
    if (this.need() === 0x30) this.skip();
    else this.digits();
    if (this.peek() === 0x2e) {
      this.skip();
      if (!isDigit(this.need())) this.fail('after decimal point in numeric literal');
      this.digits();
    }
    if (this.peek() === 0x65 || this.peek() === 0x45) {
      this.skip();
      if (this.need() === 0x2b || this.need() === 0x2d) this.skip();
      if (!isDigit(this.need())) this.fail('in exponent of numeric literal');
      this.digits();
    }
  }

  literal(word: string): void {
    this.skip();
    for (const expected of word.slice(1)) {
      if (this.need() !== expected.charCodeAt(0)) this.fail(`in literal ${word} (expecting '${expected}')`);
      this.skip();
    }
  }
}

/** Go's error text for `data`, or undefined when Go would find the syntax valid. */
export function goJsonSyntaxError(data: Buffer): string | undefined {
  try {
    new Scanner(data).document();
    return undefined;
  } catch (err) {
    if (err instanceof GoSyntaxError) return err.message;
    throw err;
  }
}

/** The JSON kind a Go UnmarshalTypeError names: `object`, `array`, `string`, `number`, `bool`. */
export function goUnmarshalKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (isPlainObject(value)) return 'object';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(Object.keys(value).sort(compareGoStrings).map((k) => [k, sortedKeys(value[k])]));
}

/** json.Marshal of a decoded value: compact, map keys sorted, `<`, `>`, `&`, U+2028/9 escaped. */
export function goMarshal(value: unknown): string {
  const escapes: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026', '\u2028': '\\u2028', '\u2029': '\\u2029' };
  return JSON.stringify(sortedKeys(value)).replace(/[<>&\u2028\u2029]/g, (ch) => escapes[ch] ?? ch);
}

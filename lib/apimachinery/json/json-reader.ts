// A JSON tokenizer over a string, step by step, failing with Go's scanner texts (the first syntax error in document order).
import { goQuoteByte, goQuoteChar, JsonSyntaxError, UNEXPECTED_END } from './go-json-errors';
import { EXCEEDED_MAX_DEPTH, MAX_NESTING_DEPTH } from './max-depth';

export type ValueKind = 'object' | 'array' | 'string' | 'number' | 'true' | 'false' | 'null';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const ESCAPES: Readonly<Record<string, string>> = {
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;

/** Sets an own property, also for `__proto__` (which plain assignment would treat as the prototype). */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

export class JsonReader {
  pos = 0;
  /** Open objects and arrays; past MAX_NESTING_DEPTH the next `{`/`[` fails as Go's scanner does past its limit. */
  #depth = 0;

  /** `latin1`: `text` holds raw bytes one per character (Buffer's latin1), so a fault names the very byte, as Go's scanner does. */
  constructor(
    readonly text: string,
    readonly latin1 = false,
  ) {}

  fail(context: string, at = this.pos): never {
    if (at >= this.text.length) throw new JsonSyntaxError(UNEXPECTED_END, at);
    const fault = this.latin1
      ? goQuoteByte(this.text.charCodeAt(at))
      : goQuoteChar(String.fromCodePoint(this.text.codePointAt(at) ?? 0));
    throw new JsonSyntaxError(`invalid character ${fault} ${context}`, at);
  }

  /** Skips whitespace; the next character code, or -1 at the end. */
  peek(): number {
    const text = this.text;
    let pos = this.pos;
    while (pos < text.length && isSpace(text.charCodeAt(pos))) pos += 1;
    this.pos = pos;
    return pos < text.length ? text.charCodeAt(pos) : -1;
  }

  /** The kind of the value that starts here (after whitespace). */
  kind(): ValueKind {
    const c = this.peek();
    if (c === 0x7b) return 'object';
    if (c === 0x5b) return 'array';
    if (c === QUOTE) return 'string';
    if (c === 0x2d || isDigit(c)) return 'number';
    if (c === 0x74) return 'true';
    if (c === 0x66) return 'false';
    if (c === 0x6e) return 'null';
    return this.fail('looking for beginning of value');
  }

  #enter(): void {
    if (++this.#depth > MAX_NESTING_DEPTH) this.fail(EXCEEDED_MAX_DEPTH);
    this.pos += 1;
  }

  /** Consumes `{`; true when a key follows, false when the object is empty (its `}` consumed). */
  beginObject(): boolean {
    this.#enter();
    const c = this.peek();
    if (c === 0x7d) {
      this.pos += 1;
      this.#depth -= 1;
      return false;
    }
    if (c !== QUOTE) this.fail('looking for beginning of object key string');
    return true;
  }

  /** Reads a key and its `:`. */
  readKey(): string {
    const key = this.readString();
    if (this.peek() !== 0x3a) this.fail('after object key');
    this.pos += 1;
    return key;
  }

  /** After a member's value: true when another key follows, false at `}` (consumed). */
  nextKey(): boolean {
    const c = this.peek();
    this.pos += 1;
    if (c === 0x7d) {
      this.#depth -= 1;
      return false;
    }
    if (c !== 0x2c) this.fail('after object key:value pair', this.pos - 1);
    if (this.peek() !== QUOTE) this.fail('looking for beginning of object key string');
    return true;
  }

  /** Consumes `[`; true when an element follows, false when the array is empty (its `]` consumed). */
  beginArray(): boolean {
    this.#enter();
    if (this.peek() === 0x5d) {
      this.pos += 1;
      this.#depth -= 1;
      return false;
    }
    return true;
  }

  /** After an element: true when another follows, false at `]` (consumed). */
  nextElement(): boolean {
    const c = this.peek();
    this.pos += 1;
    if (c === 0x5d) {
      this.#depth -= 1;
      return false;
    }
    if (c !== 0x2c) this.fail('after array element', this.pos - 1);
    return true;
  }

  /** Reads a string token (at `"`), unescaped. */
  readString(): string {
    const text = this.text;
    const length = text.length;
    let pos = this.pos + 1;
    let runStart = pos;
    let out = '';
    for (;;) {
      let c = -1;
      while (pos < length) {
        c = text.charCodeAt(pos);
        if (c === QUOTE || c === BACKSLASH || c < 0x20) break;
        pos += 1;
      }
      if (pos >= length) this.fail('in string literal', pos);
      if (c === QUOTE) {
        this.pos = pos + 1;
        return out + text.slice(runStart, pos);
      }
      if (c !== BACKSLASH) this.fail('in string literal', pos);
      out += text.slice(runStart, pos);
      pos = this.#escape(pos + 1, (decoded) => {
        out += decoded;
      });
      runStart = pos;
    }
  }

  /** Decodes the escape whose letter is at `pos`; returns the position after it. */
  #escape(pos: number, emit: (decoded: string) => void): number {
    const text = this.text;
    const esc = text[pos];
    if (esc === 'u') {
      const hex = text.slice(pos + 1, pos + 5);
      const bad = /[^0-9a-fA-F]/.exec(hex);
      if (bad || hex.length < 4)
        this.fail('in \\u hexadecimal character escape', pos + 1 + (bad ? bad.index : hex.length));
      emit(String.fromCharCode(parseInt(hex, 16)));
      return pos + 5;
    }
    const decoded = esc === undefined ? undefined : ESCAPES[esc];
    if (decoded === undefined) this.fail('in string escape code', pos);
    emit(decoded);
    return pos + 1;
  }

  /** The raw text of a number token (validated, at `-` or a digit). */
  readNumber(): string {
    const text = this.text;
    const start = this.pos;
    let pos = start;
    if (text.charCodeAt(pos) === 0x2d) pos += 1;
    if (!isDigit(text.charCodeAt(pos))) this.fail('in numeric literal', pos);
    if (text.charCodeAt(pos) === 0x30) pos += 1;
    else while (isDigit(text.charCodeAt(pos))) pos += 1;
    if (text.charCodeAt(pos) === 0x2e) {
      pos += 1;
      if (!isDigit(text.charCodeAt(pos))) this.fail('after decimal point in numeric literal', pos);
      while (isDigit(text.charCodeAt(pos))) pos += 1;
    }
    const e = text.charCodeAt(pos);
    if (e === 0x65 || e === 0x45) {
      pos += 1;
      const sign = text.charCodeAt(pos);
      if (sign === 0x2b || sign === 0x2d) pos += 1;
      if (!isDigit(text.charCodeAt(pos))) this.fail('in exponent of numeric literal', pos);
      while (isDigit(text.charCodeAt(pos))) pos += 1;
    }
    this.pos = pos;
    return text.slice(start, pos);
  }

  /** Reads `true`, `false` or `null` (the kind says which). */
  readLiteral(word: 'true' | 'false' | 'null'): void {
    for (let i = 1; i < word.length; i += 1) {
      if (this.text[this.pos + i] !== word[i])
        this.fail(`in literal ${word} (expecting ${goQuoteChar(word[i] ?? '')})`, this.pos + i);
    }
    this.pos += word.length;
  }

  /** Reads any value into plain JSON data (duplicate keys: the last wins); the raw text is `text.slice(start, pos)`. */
  readAny(): unknown {
    const kind = this.kind();
    switch (kind) {
      case 'object': {
        const out: Record<string, unknown> = {};
        for (let more = this.beginObject(); more; more = this.nextKey()) setOwn(out, this.readKey(), this.readAny());
        return out;
      }
      case 'array': {
        const out: unknown[] = [];
        for (let more = this.beginArray(); more; more = this.nextElement()) out.push(this.readAny());
        return out;
      }
      case 'string':
        return this.readString();
      case 'number':
        return Number(this.readNumber());
      case 'null':
        this.readLiteral(kind);
        return null;
      default:
        this.readLiteral(kind);
        return kind === 'true';
    }
  }

  /** After the top-level value: only whitespace may follow. */
  end(): void {
    if (this.peek() !== -1) this.fail('after top-level value');
  }
}

/** Go's syntax error text for the bytes `data` (json.Valid's scan, byte for byte), or undefined when Go finds them valid. */
export function goJsonSyntaxError(data: Buffer): string | undefined {
  try {
    const reader = new JsonReader(data.toString('latin1'), true);
    reader.readAny();
    reader.end();
    return undefined;
  } catch (err) {
    if (err instanceof JsonSyntaxError) return err.message;
    throw err;
  }
}

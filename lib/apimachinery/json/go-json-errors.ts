// Texts of Go's encoding/json errors (UnmarshalTypeError, scanner syntax errors) as Kubernetes' decoders return them.

/** Thrown by the decoder for malformed JSON; `message` is Go's scanner text (`invalid character 'x' …`). */
export class JsonSyntaxError extends Error {
  constructor(message: string, readonly offset: number) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export const UNEXPECTED_END = 'unexpected end of JSON input';

/**
 * Go's `quoteChar` of the scanner: the byte at fault between single quotes. Go reads bytes, so a
 * non-ASCII character is reported by its first UTF-8 byte, printed as that code point.
 */
export function goQuoteChar(ch: string): string {
  if (ch === "'") return "'\\''";
  if (ch === '"') return "'\"'";
  const cp = ch.codePointAt(0) ?? 0;
  const byte = cp < 0x80 ? cp : Buffer.from(ch, 'utf8')[0] ?? 0;
  return `'${goQuoteRune(byte).slice(1, -1)}'`;
}

const GO_ESCAPES: Readonly<Record<number, string>> = { 7: '\\a', 8: '\\b', 9: '\\t', 10: '\\n', 11: '\\v', 12: '\\f', 13: '\\r', 34: '\\"', 92: '\\\\' };

/** strconv.Quote of one code point (enough for the scanner's single bytes). */
function goQuoteRune(cp: number): string {
  const escaped = GO_ESCAPES[cp];
  if (escaped !== undefined) return `"${escaped}"`;
  if (cp < 0x20 || cp === 0x7f) return `"\\x${cp.toString(16).padStart(2, '0')}"`;
  // Latin-1 code points strconv.IsPrint refuses: C1 controls, no-break space, soft hyphen.
  if ((cp >= 0x80 && cp <= 0xa0) || cp === 0xad) return `"\\u00${cp.toString(16).padStart(2, '0')}"`;
  return `"${String.fromCodePoint(cp)}"`;
}

/** Where an UnmarshalTypeError happened: the innermost struct being decoded and the struct fields leading there. */
export interface GoErrorContext {
  struct: string | undefined;
  fields: readonly string[];
}

/**
 * `json: cannot unmarshal <value> into Go struct field <Struct>.<a.b.c> of type <T>`, or `… into Go value of
 * type <T>` without a context. `value` is `string`, `number`, `number <literal>`, `bool`, `object` or `array`.
 */
export function unmarshalTypeError(value: string, goType: string, context: GoErrorContext | undefined): string {
  if (context && (context.struct !== undefined || context.fields.length > 0)) {
    return `json: cannot unmarshal ${value} into Go struct field ${context.struct ?? ''}.${context.fields.join('.')} of type ${goType}`;
  }
  return `json: cannot unmarshal ${value} into Go value of type ${goType}`;
}

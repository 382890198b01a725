// Texts of Go's encoding/json errors (UnmarshalTypeError, scanner syntax errors) as Kubernetes' decoders return them.
import type { ValueKind } from './json-reader';

/** The Go type json.Unmarshal of an object's apiVersion/kind targets (the serializer's meta factory), as reflect prints it. */
export const TYPE_META_GO =
  'struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }';
/** Go's map[string]interface{} as reflect prints it in UnmarshalTypeError texts. */
export const MAP_GO = 'map[string]interface {}';

/** Thrown by the decoder for malformed JSON; `message` is Go's scanner text (`invalid character 'x' …`). */
export class JsonSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonSyntaxError';
  }
}

export const UNEXPECTED_END = 'unexpected end of JSON input';

/**
 * Go's `quoteChar` of the scanner for a character of decoded text: Go reads bytes, so a non-ASCII character is
 * reported by its first UTF-8 byte (see goQuoteByte).
 */
export function goQuoteChar(ch: string): string {
  const cp = ch.codePointAt(0) ?? 0;
  return goQuoteByte(cp < 0x80 ? cp : (Buffer.from(ch, 'utf8')[0] ?? 0));
}

/** Go's `quoteChar`: the byte at fault between single quotes, printed as the code point of the same number (Latin-1). */
export function goQuoteByte(byte: number): string {
  if (byte === 0x27) return "'\\''";
  if (byte === 0x22) return "'\"'";
  return `'${goQuoteRune(byte).slice(1, -1)}'`;
}

const GO_ESCAPES: Readonly<Record<number, string>> = {
  7: '\\a',
  8: '\\b',
  9: '\\t',
  10: '\\n',
  11: '\\v',
  12: '\\f',
  13: '\\r',
  34: '\\"',
  92: '\\\\',
};

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

/** The word Go's UnmarshalTypeError uses for a JSON value of this kind: `object`, `array`, `string`, `number`, `bool`, `null`. */
export function goKindWord(kind: ValueKind): string {
  return kind === 'true' || kind === 'false' ? 'bool' : kind;
}

/** goKindWord of a decoded JSON value (JSON.parse's output). */
export function goJsonKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value === 'boolean' ? 'bool' : typeof value;
}

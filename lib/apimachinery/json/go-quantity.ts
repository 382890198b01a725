// resource.ParseQuantity's verdict on a text (valid, or which of its three errors), as Quantity.UnmarshalJSON reports it.

// k8s.io/apimachinery/pkg/api/resource/quantity.go (ErrFormatWrong, ErrNumeric, ErrSuffix).
export const QUANTITY_FORMAT_WRONG =
  "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
export const QUANTITY_NUMERIC = 'unable to parse numeric part of quantity';
export const QUANTITY_SUFFIX = "unable to parse quantity's suffix";

const SUFFIX_CHARS = 'eEinumkKMGTP';
const DECIMAL_SUFFIXES = new Set(['', 'n', 'u', 'm', 'k', 'M', 'G', 'T', 'P', 'E']);
const BINARY_SUFFIXES = new Set(['Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei']);
const INT64_DIGITS = /^[+-]?\d{1,19}$/;

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Splits like parseQuantityString: the numeric text and the suffix, or the format error. */
function splitQuantity(str: string): { value: string; suffix: string } | undefined {
  let pos = 0;
  const end = str.length;
  if (str[0] === '-' || str[0] === '+') pos += 1;
  while (pos < end && str[pos] === '0') pos += 1;
  if (pos >= end) return { value: '0', suffix: '' };
  while (pos < end && isDigit(str[pos])) pos += 1;
  if (pos >= end) return { value: str, suffix: '' };
  if (str[pos] === '.') {
    pos += 1;
    while (pos < end && isDigit(str[pos])) pos += 1;
    if (pos >= end) return { value: str, suffix: '' };
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  while (pos < end && SUFFIX_CHARS.includes(str[pos] ?? '')) pos += 1;
  if (pos >= end) return { value, suffix: str.slice(suffixStart) };
  if (str[pos] === '-' || str[pos] === '+') pos += 1;
  while (pos < end && isDigit(str[pos])) pos += 1;
  // A character other than a digit after the exponent sign: not a valid exponent.
  return pos >= end ? { value, suffix: str.slice(suffixStart) } : undefined;
}

/** The suffix is one of the decimal/binary SI suffixes or a decimal exponent `e<int64>`. */
function knownSuffix(suffix: string): boolean {
  if (DECIMAL_SUFFIXES.has(suffix) || BINARY_SUFFIXES.has(suffix)) return true;
  return suffix.length > 1 && (suffix[0] === 'e' || suffix[0] === 'E') && INT64_DIGITS.test(suffix.slice(1));
}

/**
 * The error ParseQuantity returns for `str` (already stripped of JSON quotes and trimmed), or undefined when it
 * parses. The numeric part of a split quantity always parses (inf.Dec accepts `[+-]digits[.digits]`, even `.`).
 */
export function quantityError(str: string): string | undefined {
  if (str === '') return QUANTITY_FORMAT_WRONG;
  if (str === '0') return undefined;
  const parts = splitQuantity(str);
  if (!parts) return QUANTITY_FORMAT_WRONG;
  if (!knownSuffix(parts.suffix)) return QUANTITY_SUFFIX;
  return undefined;
}

/** Quantity.UnmarshalJSON on the raw JSON bytes of the value: `null` is allowed, quotes are stripped (escapes are not). */
export function quantityJsonError(raw: string): string | undefined {
  if (raw === 'null') return undefined;
  const inner = raw.length >= 2 && raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw;
  return quantityError(inner.trim());
}

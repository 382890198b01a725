// Which styles yaml.v2 allows for a string (resolve.go resolve, encode.go stringv, emitterc.go yaml_emitter_analyze_scalar), as sigs.k8s.io/yaml's JSONToYAML writes it.
const BOOL_NULL_SPECIAL = new Set(
  'y Y yes Yes YES true True TRUE on On ON n N no No NO false False FALSE off Off OFF ~ null Null NULL .nan .NaN .NAN .inf .Inf .INF +.inf +.Inf +.INF -.inf -.Inf -.INF'.split(
    ' ',
  ),
);
const BASE60_FLOAT = /^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/;
const YAML_STYLE_FLOAT = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;
const DOT_FLOAT = /^\.[0-9]+(?:_[0-9]+)*(?:[eE][-+]?[0-9]+(?:_[0-9]+)*)?$/;
const GO_INT = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/;
// The timestamp layouts yaml.v2 tries (RFC 3339 with short fields and `T`/`t`, space separated without zone, date only).
const TIMESTAMP =
  /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[Tt](\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?(?:Z|[+-]\d{2}:\d{2})| (\d{1,2}):(\d{1,2}):(\d{1,2})(?:[.,]\d+)?)?$/;

function isTimestamp(s: string): boolean {
  const m = TIMESTAMP.exec(s);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const [h, min, sec] = [Number(m[4] ?? m[7] ?? 0), Number(m[5] ?? m[8] ?? 0), Number(m[6] ?? m[9] ?? 0)];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && h < 24 && min < 60 && sec < 60;
}

/** What strconv.ParseInt(s, 0, 64), failing that ParseUint(s, 0, 64), makes of s; undefined when both fail. */
export function goIntValue(s: string): bigint | undefined {
  const m = GO_INT.exec(s);
  if (!m) return undefined;
  const body = m[2] ?? '';
  const digits = body.length > 1 && /^0[0-7]/.test(body) ? `0o${body.slice(1)}` : body;
  const magnitude = BigInt(digits.toLowerCase());
  if (m[1] === '-') return magnitude <= 2n ** 63n ? -magnitude : undefined;
  return magnitude < 2n ** 63n || (m[1] === '' && magnitude < 2n ** 64n) ? magnitude : undefined;
}

const isGoInt = (s: string): boolean => goIntValue(s) !== undefined;

/** resolve("", s) gives a tag other than !!str (or s is a base-60 float): yaml.v2 then double-quotes s. */
export function needsQuotes(s: string): boolean {
  if (s === '' || BOOL_NULL_SPECIAL.has(s) || BASE60_FLOAT.test(s)) return true;
  const c = s.charAt(0);
  if (c === '.') return DOT_FLOAT.test(s);
  if (!(c === '+' || c === '-' || (c >= '0' && c <= '9'))) return false;
  if (isTimestamp(s)) return true;
  const plain = s.replace(/_/g, '');
  return isGoInt(plain) || (YAML_STYLE_FLOAT.test(plain) && Number.isFinite(Number(plain)));
}

export const isBreak = (c: string | undefined): boolean =>
  c === '\r' || c === '\n' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isBlank = (c: string | undefined): boolean => c === ' ' || c === '\t';

/** is_printable on a code point (yaml.v2 writes anything else, astral characters too, as an escape). */
export function isPrintable(c: string): boolean {
  const cp = c.codePointAt(0) ?? 0;
  return (
    cp === 0x0a ||
    (cp >= 0x20 && cp <= 0x7e) ||
    (cp >= 0xa0 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd && cp !== 0xfeff)
  );
}

export interface ScalarAnalysis {
  multiline: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

/** yaml_emitter_analyze_scalar (block context; the flow-only results are never needed here). */
export function analyzeScalar(value: string): ScalarAnalysis {
  const chars = [...value];
  if (chars.length === 0) return { multiline: false, blockPlain: true, singleQuoted: true, block: false };
  let indicators = value.startsWith('---') || value.startsWith('...');
  let lineBreaks = false,
    special = false,
    leadingSpace = false,
    leadingBreak = false,
    trailingSpace = false,
    trailingBreak = false;
  let breakSpace = false,
    spaceBreak = false,
    previousSpace = false,
    previousBreak = false,
    precededByWhitespace = true;
  chars.forEach((c, i) => {
    const followedByWhitespace = i + 1 >= chars.length || isBlank(chars[i + 1]);
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c) || ('?:-'.includes(c) && followedByWhitespace)) indicators = true;
    } else if ((c === ':' && followedByWhitespace) || (c === '#' && precededByWhitespace)) {
      indicators = true;
    }
    if (!isPrintable(c)) special = true;
    const last = i === chars.length - 1;
    if (c === ' ') {
      leadingSpace ||= i === 0;
      trailingSpace ||= last;
      breakSpace ||= previousBreak;
      [previousSpace, previousBreak] = [true, false];
    } else if (isBreak(c)) {
      lineBreaks = true;
      leadingBreak ||= i === 0;
      trailingBreak ||= last;
      spaceBreak ||= previousSpace;
      [previousSpace, previousBreak] = [false, true];
    } else {
      [previousSpace, previousBreak] = [false, false];
    }
    precededByWhitespace = isBlank(c) || isBreak(c) || c === '\0';
  });
  const noPlain =
    leadingSpace ||
    leadingBreak ||
    trailingSpace ||
    trailingBreak ||
    breakSpace ||
    spaceBreak ||
    special ||
    lineBreaks ||
    indicators;
  return {
    multiline: lineBreaks,
    blockPlain: !noPlain,
    singleQuoted: !(breakSpace || spaceBreak || special),
    block: !(trailingSpace || spaceBreak || special),
  };
}

// Go's time.Parse verdicts for the two layouts metav1.Time and MicroTime decode with, with Go's ParseError texts.

export const RFC3339 = '2006-01-02T15:04:05Z07:00';
export const RFC3339_MICRO = '2006-01-02T15:04:05.000000Z07:00';

type Element = 'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'fraction6' | 'zone';

/** The layouts as Go's nextStdChunk splits them: literal prefix, element, and the element's layout text. */
const CHUNKS: Readonly<Record<string, readonly (readonly [string, Element, string])[]>> = {
  [RFC3339]: [
    ['', 'year', '2006'],
    ['-', 'month', '01'],
    ['-', 'day', '02'],
    ['T', 'hour', '15'],
    [':', 'minute', '04'],
    [':', 'second', '05'],
    ['', 'zone', 'Z07:00'],
  ],
  [RFC3339_MICRO]: [
    ['', 'year', '2006'],
    ['-', 'month', '01'],
    ['-', 'day', '02'],
    ['T', 'hour', '15'],
    [':', 'minute', '04'],
    [':', 'second', '05'],
    ['', 'fraction6', '.000000'],
    ['', 'zone', 'Z07:00'],
  ],
};

/** time's own quote(): ASCII printable kept (with `"` and `\` escaped), every other byte as `\xNN`. */
export function goTimeQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp >= 0x80 || cp < 0x20) {
      for (const b of Buffer.from(ch, 'utf8')) out += `\\x${b.toString(16).padStart(2, '0')}`;
    } else {
      if (ch === '"' || ch === '\\') out += '\\';
      out += ch;
    }
  }
  return `${out}"`;
}

const isDigit = (s: string, i: number): boolean => i < s.length && s.charCodeAt(i) >= 48 && s.charCodeAt(i) <= 57;

/** getnum: one or two digits (`fixed` requires two). */
function getnum(s: string, fixed: boolean): [number, string] | undefined {
  if (!isDigit(s, 0)) return undefined;
  if (!isDigit(s, 1)) return fixed ? undefined : [Number(s[0]), s.slice(1)];
  return [Number(s.slice(0, 2)), s.slice(2)];
}

/** Go's atoi: optional sign, then only digits. */
function atoi(s: string): number | undefined {
  return /^[+-]?\d+$/.test(s) ? Number(s) : undefined;
}

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

interface Parsed {
  year: number;
  month: number;
  day: number;
}

/** One element; returns the rest of the value, a range error name, or undefined for a mismatch. */
function parseElement(
  element: Element,
  value: string,
  next: Element | undefined,
  out: Parsed,
): { rest: string; range?: string } | undefined {
  switch (element) {
    case 'year': {
      if (value.length < 4 || !isDigit(value, 0)) return undefined;
      const year = atoi(value.slice(0, 4));
      if (year === undefined) return undefined;
      out.year = year;
      return { rest: value.slice(4) };
    }
    case 'month':
    case 'day':
    case 'minute':
    case 'hour': {
      const got = getnum(value, element !== 'hour');
      if (!got) return undefined;
      const [n, rest] = got;
      if (element === 'month') {
        out.month = n;
        if (n <= 0 || n > 12) return { rest, range: 'month' };
      }
      if (element === 'day') out.day = n;
      if (element === 'hour' && n >= 24) return { rest, range: 'hour' };
      if (element === 'minute' && n >= 60) return { rest, range: 'minute' };
      return { rest };
    }
    case 'second': {
      const got = getnum(value, true);
      if (!got) return undefined;
      const [n, rest] = got;
      if (n >= 60) return { rest, range: 'second' };
      // A fraction the layout does not name is accepted after the seconds (unless the layout has one next).
      if (next !== 'fraction6' && rest.length >= 2 && (rest[0] === '.' || rest[0] === ',') && isDigit(rest, 1)) {
        let end = 2;
        while (isDigit(rest, end)) end += 1;
        return { rest: rest.slice(end) };
      }
      return { rest };
    }
    case 'fraction6': {
      if (value.length < 7 || (value[0] !== '.' && value[0] !== ',')) return undefined;
      const digits = atoi(value.slice(1, 7));
      if (digits === undefined) return undefined;
      if (digits < 0) return { rest: value.slice(7), range: 'fractional second' };
      return { rest: value.slice(7) };
    }
    case 'zone': {
      if (value[0] === 'Z') return { rest: value.slice(1) };
      if (value.length < 6 || value[3] !== ':') return undefined;
      // Go computes the range verdicts before the sign check, and a range error wins over a bad sign.
      const hour = getnum(value.slice(1, 3), true);
      const minute = hour ? getnum(value.slice(4, 6), true) : undefined;
      const rest = value.slice(6);
      if ((minute?.[0] ?? 0) > 60) return { rest, range: 'time zone offset minute' };
      if ((hour?.[0] ?? 0) > 24) return { rest, range: 'time zone offset hour' };
      return hour && minute && (value[0] === '+' || value[0] === '-') ? { rest } : undefined;
    }
  }
}

/** The error text of Go's `time.Parse(layout, value)` for RFC3339 and RFC3339Micro, or undefined when it parses. */
export function goTimeParseError(layout: typeof RFC3339 | typeof RFC3339_MICRO, value: string): string | undefined {
  const head = `parsing time ${goTimeQuote(value)}`;
  const chunks = CHUNKS[layout] ?? [];
  const out: Parsed = { year: 0, month: 1, day: 1 };
  let rest = value;
  for (let i = 0; i < chunks.length; i += 1) {
    const [prefix, element, layoutElem] = chunks[i] ?? ['', 'year', ''];
    if (!rest.startsWith(prefix)) {
      return `${head} as ${goTimeQuote(layout)}: cannot parse ${goTimeQuote(rest)} as ${goTimeQuote(prefix)}`;
    }
    rest = rest.slice(prefix.length);
    const result = parseElement(element, rest, chunks[i + 1]?.[1], out);
    if (result?.range !== undefined) return `${head}: ${result.range} out of range`;
    if (!result)
      return `${head} as ${goTimeQuote(layout)}: cannot parse ${goTimeQuote(rest)} as ${goTimeQuote(layoutElem)}`;
    rest = result.rest;
  }
  if (rest !== '') return `${head}: extra text: ${goTimeQuote(rest)}`;
  if (out.day < 1 || out.day > daysIn(out.month, out.year)) return `${head}: day out of range`;
  return undefined;
}

const DURATION_UNITS = new Set(['ns', 'us', 'µs', 'μs', 'ms', 's', 'm', 'h']);

/**
 * The error text of Go's `time.ParseDuration(s)` (metav1.Duration), or undefined when it parses.
 * Overflow beyond int64 nanoseconds is not checked.
 */
export function goDurationError(s: string): string | undefined {
  const invalid = `time: invalid duration ${goTimeQuote(s)}`;
  let rest = s[0] === '-' || s[0] === '+' ? s.slice(1) : s;
  if (rest === '0') return undefined;
  if (rest === '') return invalid;
  while (rest !== '') {
    const number = /^(\d*)(\.(\d*))?/.exec(rest);
    const [whole = '', intPart = '', , fraction] = number ?? [];
    if (!(rest[0] === '.' || (rest[0] !== undefined && rest[0] >= '0' && rest[0] <= '9'))) return invalid;
    if (intPart === '' && (fraction === undefined || fraction === '')) return invalid;
    rest = rest.slice(whole.length);
    const unit = /^[^.0-9]*/.exec(rest)?.[0] ?? '';
    if (unit === '') return `time: missing unit in duration ${goTimeQuote(s)}`;
    if (!DURATION_UNITS.has(unit)) return `time: unknown unit ${goTimeQuote(unit)} in duration ${goTimeQuote(s)}`;
    rest = rest.slice(unit.length);
  }
  return undefined;
}

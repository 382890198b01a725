// JSON texts of metav1.Time, MicroTime and Duration as the numbers their protobuf messages carry.

const ZERO = 48;

/** The decimal number in value[from, from+count), or NaN when a character is not a digit. */
function digits(value: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) {
    const d = value.charCodeAt(i) - ZERO;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

/** Milliseconds since the epoch of an RFC 3339 text; `YYYY-MM-DDTHH:MM:SS[.frac]Z` without Date.parse (the common form). */
function epochMs(value: string): number {
  if (
    value.length >= 20 &&
    value.charCodeAt(10) === 84 /* T */ &&
    value.charCodeAt(value.length - 1) === 90 /* Z */ &&
    (value.length === 20 || value.charCodeAt(19) === 46) /* . */
  ) {
    const year = digits(value, 0, 4);
    // Date.UTC reads years 0–99 as 1900–1999; Date.parse reads ISO years as written.
    const ms =
      year >= 100
        ? Date.UTC(
            year,
            digits(value, 5, 2) - 1,
            digits(value, 8, 2),
            digits(value, 11, 2),
            digits(value, 14, 2),
            digits(value, 17, 2),
          )
        : Number.NaN;
    if (!Number.isNaN(ms)) return ms;
  }
  return Date.parse(value);
}

/** Seconds of a Time/MicroTime text; undefined for the zero time ("" or unparseable), which Go writes as no bytes. */
export function timeSeconds(value: unknown): number | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  const ms = epochMs(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** Nanoseconds of a MicroTime text, truncated to microseconds as MicroTime keeps them. */
export function microTimeNanos(value: string): number {
  const match = /\.(\d+)(?:Z|[+-]\d\d:\d\d)$/.exec(value);
  if (!match) return 0;
  return Number((match[1] ?? '').padEnd(6, '0').slice(0, 6)) * 1000;
}

const DURATION_UNITS_NS: Readonly<Record<string, number>> = {
  ns: 1,
  us: 1e3,
  µs: 1e3,
  μs: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
};

/** Nanoseconds of a Go duration text (`1m30s`, `500ms`, `-2h`); 0 when it does not parse. */
export function durationNanos(value: unknown): number {
  if (typeof value !== 'string') return 0;
  const match = /^([+-]?)((?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/.exec(value);
  if (!match) return 0;
  let total = 0;
  for (const part of value.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g))
    total += Number(part[1]) * (DURATION_UNITS_NS[part[2] ?? ''] ?? 0);
  return Math.round(match[1] === '-' ? -total : total);
}

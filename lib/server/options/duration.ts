// Go time.ParseDuration for flag values such as `30s`, `1m30s`, `500ms`, `0`.

const UNIT_MS: Record<string, number> = { ns: 1e-6, us: 1e-3, µs: 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** Milliseconds of a Go duration string; throws with Go's message when malformed. */
export function parseDuration(text: string): number {
  const invalid = new Error(`time: invalid duration ${JSON.stringify(text)}`);
  if (text === '0') return 0;
  let rest = text;
  let sign = 1;
  if (rest.startsWith('-') || rest.startsWith('+')) {
    sign = rest.startsWith('-') ? -1 : 1;
    rest = rest.slice(1);
  }
  if (rest === '') throw invalid;
  let total = 0;
  const re = /^(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|ms|s|m|h)/;
  while (rest !== '') {
    const m = re.exec(rest);
    if (!m)
      throw text.match(/^[-+]?[\d.]+$/) ? new Error(`time: missing unit in duration ${JSON.stringify(text)}`) : invalid;
    total += Number(m[1]) * (UNIT_MS[m[2] ?? 's'] ?? 0);
    rest = rest.slice(m[0].length);
  }
  return sign * total;
}

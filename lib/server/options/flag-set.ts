// A small pflag-style parser: `--name=value`, `--name value`, bare booleans, with clear errors for unknown flags.

export type FlagKind = 'string' | 'int' | 'bool' | 'duration';

export interface FlagDefinition {
  name: string;
  kind: FlagKind;
  default: string;
  usage: string;
}

export class FlagError extends Error {}

/** Raw values by flag name (strings as given, int flags in decimal, defaults filled in), plus whether `--help` was asked. */
export interface ParsedFlags {
  values: Map<string, string>;
  help: boolean;
}

/**
 * pflag's parsing as cobra runs it for kube-apiserver: `--name=value`, `--name value`, bare booleans, `-h`, `--`
 * ending the flags; its error texts; and, since kube-apiserver's command takes no arguments, cobra's text for any.
 */
export function parseFlags(
  args: readonly string[],
  definitions: readonly FlagDefinition[],
  program = 'orch-apiserver',
): ParsedFlags {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const values = new Map(definitions.map((d) => [d.name, d.default]));
  const positional: string[] = [];
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--') {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg.length === 1) {
      positional.push(arg);
      continue;
    }
    if (!arg.startsWith('--')) {
      const shorthand = [...arg.slice(1)][0] ?? '';
      if (shorthand !== 'h') throw new FlagError(`unknown shorthand flag: '${shorthand}' in ${arg}`);
      help = true;
      continue;
    }
    const body = arg.slice(2);
    if (body.startsWith('-') || body.startsWith('=')) throw new FlagError(`bad flag syntax: ${arg}`);
    const eq = body.indexOf('=');
    const name = eq < 0 ? body : body.slice(0, eq);
    if (name === 'help') {
      help = eq < 0 ? true : parseBoolFlag(name, body.slice(eq + 1)) === 'true';
      continue;
    }
    const def = byName.get(name);
    if (!def) throw new FlagError(`unknown flag: --${name}`);
    let value: string;
    if (eq >= 0) value = body.slice(eq + 1);
    else if (def.kind === 'bool') value = 'true';
    else {
      const next = args[i + 1];
      if (next === undefined) throw new FlagError(`flag needs an argument: --${name}`);
      value = next;
      i++;
    }
    if (def.kind === 'bool') value = parseBoolFlag(name, value);
    if (def.kind === 'int') value = parseIntFlag(name, value);
    values.set(name, value);
  }
  if (!help && positional.some((a) => a !== ''))
    throw new FlagError(
      `"${program}" does not take any arguments, got [${positional.map((a) => JSON.stringify(a)).join(' ')}]`,
    );
  return { values, help };
}

/** pflag's int flags: Go's strconv.ParseInt(s, 0, 64) (0x, 0o, 0b and leading-0 octal, `_` between digits), as a decimal string. */
export function parseIntFlag(name: string, text: string): string {
  const fail = (why: string): FlagError =>
    new FlagError(
      `invalid argument ${JSON.stringify(text)} for "--${name}" flag: strconv.ParseInt: parsing ${JSON.stringify(text)}: ${why}`,
    );
  const m = /^([+-]?)(0[xXoObB])?([0-9a-zA-Z_]+)$/.exec(text);
  if (!m) throw fail('invalid syntax');
  let prefix = (m[2] ?? '').toLowerCase();
  let digits = m[3] ?? '';
  if (prefix === '' && digits.length > 1 && digits.startsWith('0')) {
    prefix = '0';
    digits = digits.slice(1);
  }
  const base = prefix === '0x' ? 16 : prefix === '0b' ? 2 : prefix === '' ? 10 : 8;
  // Go's underscoreOK (base 0): an underscore only between digits, or right after a base prefix.
  if (digits.includes('_') && ((prefix === '' && digits.startsWith('_')) || /__|_$/.test(digits)))
    throw fail('invalid syntax');
  const clean = digits.replace(/_/g, '');
  const valid = { 2: /^[01]+$/, 8: /^[0-7]+$/, 10: /^[0-9]+$/, 16: /^[0-9a-fA-F]+$/ }[base];
  if (clean === '' || !valid?.test(clean)) throw fail('invalid syntax');
  let value = 0n;
  for (const c of clean.toLowerCase()) value = value * BigInt(base) + BigInt(parseInt(c, 16));
  if (m[1] === '-') value = -value;
  if (value > 9223372036854775807n || value < -9223372036854775808n) throw fail('value out of range');
  return value.toString();
}

const TRUE_WORDS = ['1', 't', 'T', 'TRUE', 'true', 'True'];
const FALSE_WORDS = ['0', 'f', 'F', 'FALSE', 'false', 'False'];

/** Go's strconv.ParseBool words, normalised to `true`/`false`. */
function parseBoolFlag(name: string, value: string): string {
  if (TRUE_WORDS.includes(value)) return 'true';
  if (FALSE_WORDS.includes(value)) return 'false';
  throw new FlagError(
    `invalid argument ${JSON.stringify(value)} for "--${name}" flag: strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`,
  );
}

export function usage(program: string, definitions: readonly FlagDefinition[]): string {
  const lines = definitions.map((d) => {
    const type = d.kind === 'bool' ? '' : ` ${d.kind}`;
    const dflt = d.default === '' ? '' : ` (default ${JSON.stringify(d.default)})`;
    return `      --${d.name}${type}\n            ${d.usage}${dflt}`;
  });
  return `Usage: ${program} [flags]\n\nFlags:\n${lines.join('\n')}\n      --help\n            show this help and exit\n`;
}

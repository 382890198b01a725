// A small pflag-style parser: `--name=value`, `--name value`, bare booleans, with clear errors for unknown flags.

export type FlagKind = 'string' | 'int' | 'bool' | 'duration';

export interface FlagDefinition {
  name: string;
  kind: FlagKind;
  default: string;
  usage: string;
}

export class FlagError extends Error {}

/** Raw values by flag name (strings as given, defaults filled in), plus whether `--help` was asked. */
export interface ParsedFlags {
  values: Map<string, string>;
  help: boolean;
}

export function parseFlags(args: readonly string[], definitions: readonly FlagDefinition[]): ParsedFlags {
  const byName = new Map(definitions.map((d) => [d.name, d]));
  const values = new Map(definitions.map((d) => [d.name, d.default]));
  let help = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    if (!arg.startsWith('--')) throw new FlagError(`unexpected argument ${JSON.stringify(arg)}: flags start with --`);
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq < 0 ? undefined : eq);
    const def = byName.get(name);
    if (!def) throw new FlagError(`unknown flag: --${name}`);
    let value: string;
    if (eq >= 0) value = arg.slice(eq + 1);
    else if (def.kind === 'bool') value = 'true';
    else {
      const next = args[i + 1];
      if (next === undefined) throw new FlagError(`flag needs an argument: --${name}`);
      value = next;
      i++;
    }
    if (def.kind === 'bool') value = parseBoolFlag(name, value);
    values.set(name, value);
  }
  return { values, help };
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

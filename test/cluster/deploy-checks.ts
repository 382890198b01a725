// Shared checks of the deployment files (compose, Helm): the server's own flag list and YAML parsing.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';

export const ROOT = join(__dirname, '..', '..');
const BINARY = join(ROOT, 'dist', 'cmd', 'apiserver.js');

let flags: Set<string> | undefined;

/** The flag names the built server lists in `--help` (the binary is the authority, not a copy of its table). */
export function serverFlags(): Set<string> {
  if (flags) return flags;
  if (!existsSync(BINARY)) throw new Error(`${BINARY} is missing: run \`npx tsc -p tsconfig.json\` first`);
  let help: string;
  try {
    help = execFileSync(process.execPath, [BINARY, '--help'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    help = `${e.stdout ?? ''}${e.stderr ?? ''}`;
  }
  const found = new Set([...help.matchAll(/^\s+--([a-z0-9-]+)/gm)].map((m) => m[1] ?? ''));
  if (found.size < 10) throw new Error(`could not read the flags from --help:\n${help}`);
  flags = found;
  return found;
}

/** The arguments that are not `--name=value` / `--name` of a flag the server accepts. */
export function unknownFlags(args: readonly string[]): string[] {
  const known = serverFlags();
  return args.filter((a) => {
    const m = /^--([a-z0-9-]+)(=.*)?$/.exec(a);
    return !m || !known.has(m[1] ?? '');
  });
}

/** Every YAML document of `text`, failing on any syntax error (merge keys `<<` allowed). */
export function parseYamlDocuments(text: string, what: string): unknown[] {
  return parseAllDocuments(text, { merge: true }).map((doc, i) => {
    if (doc.errors.length > 0) throw new Error(`${what} document ${i}: ${doc.errors.map((e) => e.message).join('; ')}`);
    return doc.toJS({ maxAliasCount: 100 }) as unknown;
  });
}

export function readRepoFile(path: string): string {
  return readFileSync(join(ROOT, path), 'utf8');
}

/** `value`, or a test failure naming `what` when it is missing. */
export function must<T>(value: T | undefined | null, what: string): T {
  if (value === undefined || value === null) throw new Error(`${what} is missing`);
  return value;
}

// Command line of orch-loadtest: connection flags, output flags, and one flag per profile field.
import { readFileSync } from 'node:fs';
import { connectionFromKubeconfig, type Connection } from './client';
import { applyProfileFields, defaultProfile, parseProfile, ProfileError, type Profile } from './profile';

export class UsageError extends Error {}

interface FlagDef {
  name: string;
  /** Profile field the flag sets. */
  field?: string;
  bool?: boolean;
  usage: string;
}

export const FLAGS: FlagDef[] = [
  {
    name: 'server',
    usage: 'URL of the API server to load (default: start a throwaway orch-apiserver + etcd in a temporary directory)',
  },
  { name: 'kubeconfig', usage: 'kubeconfig file: server, CA, token or client certificate of its current context' },
  { name: 'context', usage: 'kubeconfig context to use instead of the current one' },
  { name: 'token', usage: 'bearer token sent with every request' },
  { name: 'insecure-skip-tls-verify', bool: true, usage: "don't verify the server's certificate" },
  { name: 'profile', usage: 'YAML or JSON workload profile (fields as below, in camelCase); flags override it' },
  { name: 'out', usage: 'directory for result.json and report.html (default ./loadtest-results)' },
  { name: 'run-id', usage: "name part of the run's namespaces and objects (default: derived from --seed)" },
  { name: 'no-cleanup', bool: true, usage: 'leave the objects and namespaces on a --server target' },
  { name: 'fail-on-slo', bool: true, usage: 'exit with code 1 when a p99 latency SLO is broken' },
  { name: 'progress-interval', usage: 'seconds between progress lines when stderr is not a terminal (default 10)' },
  {
    name: 'server-arg',
    usage: 'extra flag for the embedded orch-apiserver (repeatable), e.g. --server-arg=--watch-cache=false',
  },
  { name: 'duration', field: 'duration', usage: 'measured duration, e.g. 60s, 2m (default 60s)' },
  { name: 'warmup', field: 'warmup', usage: 'warm-up before measuring (default 10s)' },
  {
    name: 'model',
    field: 'model',
    usage: 'open (target --rate, latency from the intended send time) or closed (--concurrency workers); default open',
  },
  { name: 'rate', field: 'rate', usage: 'operations per second in the open model (default 50)' },
  {
    name: 'concurrency',
    field: 'concurrency',
    usage: 'workers in the closed model (default 8); alone it selects the closed model',
  },
  { name: 'max-in-flight', field: 'maxInFlight', usage: 'open model: most requests outstanding at once (default 256)' },
  {
    name: 'mix',
    field: 'mix',
    usage:
      'operation weights, e.g. create=10,get=30,update=8,patch-merge=5,patch-strategic=5,apply=5,list=5,list-rv0=5,list-selector=5,delete=7',
  },
  {
    name: 'kinds',
    field: 'kinds',
    usage: 'comma-separated: deployments, horizontalpodautoscalers (hpa), flowschemas (default all three)',
  },
  {
    name: 'namespaces',
    field: 'namespaces',
    usage: 'namespaces the run creates and spreads namespaced objects over (default 3)',
  },
  {
    name: 'object-size',
    field: 'objectSize',
    usage: 'approximate JSON bytes per object written, padded with an annotation (default 1024)',
  },
  {
    name: 'initial-objects',
    field: 'initialObjects',
    usage: 'objects per kind and namespace created before the run (default 20)',
  },
  {
    name: 'list-limit',
    field: 'listLimit',
    usage: 'page size of LISTs, followed with continue (default 50; 0 = unpaged)',
  },
  { name: 'list-scope', field: 'listScope', usage: 'namespace, cluster or both (default both)' },
  {
    name: 'watchers',
    field: 'watchers',
    usage: 'long-running watches measuring delivery lag and missed events (default 6)',
  },
  {
    name: 'seed',
    field: 'seed',
    usage: 'seed of the operation sequence (default random; printed and stored in result.json)',
  },
];

export interface RunCommand {
  kind: 'run';
  profile: Profile;
  connection?: Connection;
  out: string;
  runId: string;
  cleanup: boolean;
  failOnSlo: boolean;
  progressEverySeconds: number;
  serverArgs: string[];
}

export interface CompareCommand {
  kind: 'compare';
  a: string;
  b: string;
  out?: string;
}

export type Command = RunCommand | CompareCommand | { kind: 'help' };

export function usage(): string {
  const lines = FLAGS.map((f) => `  --${f.name}${f.bool ? '' : ' <value>'}\n      ${f.usage}`);
  return `Usage:
  orch-loadtest [flags]                      run a load test (embedded server unless --server/--kubeconfig)
  orch-loadtest compare a.json b.json [--out comparison.html]

Flags:
${lines.join('\n')}
`;
}

/** --name value / --name=value; booleans take no value (or =true/=false). */
function splitFlags(args: string[], known: FlagDef[]): { flags: Map<string, string[]>; positional: string[] } {
  const flags = new Map<string, string[]>();
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const def = known.find((f) => f.name === name);
    if (!def) throw new UsageError(`unknown flag: --${name}`);
    let value: string;
    if (eq !== -1) value = arg.slice(eq + 1);
    else if (def.bool) value = 'true';
    else {
      const v = args[++i];
      if (v === undefined) throw new UsageError(`flag needs an argument: --${name}`);
      value = v;
    }
    flags.set(name, [...(flags.get(name) ?? []), value]);
  }
  return { flags, positional };
}

function boolFlag(flags: Map<string, string[]>, name: string): boolean {
  const v = flags.get(name)?.at(-1);
  if (v === undefined) return false;
  if (v !== 'true' && v !== 'false') throw new UsageError(`--${name} takes true or false, got ${JSON.stringify(v)}`);
  return v === 'true';
}

export function parseArgs(args: string[]): Command {
  if (args.includes('--help') || args.includes('-h')) return { kind: 'help' };
  if (args[0] === 'compare') {
    const { flags, positional } = splitFlags(args.slice(1), [{ name: 'out', usage: '' }]);
    if (positional.length !== 2)
      throw new UsageError(
        'compare needs two result files: orch-loadtest compare a.json b.json [--out comparison.html]',
      );
    const out = flags.get('out')?.at(-1);
    return { kind: 'compare', a: positional[0]!, b: positional[1]!, ...(out ? { out } : {}) };
  }
  const { flags, positional } = splitFlags(args, FLAGS);
  if (positional.length > 0) throw new UsageError(`unexpected argument: ${positional[0]}`);
  const last = (name: string): string | undefined => flags.get(name)?.at(-1);

  let profile = defaultProfile();
  const profileFile = last('profile');
  if (profileFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(profileFile, 'utf8');
    } catch (err) {
      throw new UsageError(`cannot read --profile ${profileFile}: ${(err as Error).message}`);
    }
    profile = parseProfile(text, profileFile, profile);
  }
  const fields: Record<string, unknown> = {};
  for (const f of FLAGS) {
    const v = last(f.name);
    if (f.field && v !== undefined) fields[f.field] = v;
  }
  if (fields['concurrency'] !== undefined && fields['model'] === undefined && fields['rate'] === undefined)
    fields['model'] = 'closed';
  if (fields['rate'] !== undefined && fields['model'] === undefined) fields['model'] = 'open';
  profile = applyProfileFields(profile, fields, 'command line');

  let connection: Connection | undefined;
  const kubeconfig = last('kubeconfig');
  const server = last('server');
  if (kubeconfig !== undefined) {
    try {
      connection = connectionFromKubeconfig(kubeconfig, last('context'));
    } catch (err) {
      throw new UsageError((err as Error).message);
    }
    if (server !== undefined) connection.server = server;
  } else if (server !== undefined) {
    connection = { server };
  }
  const token = last('token');
  const insecure = boolFlag(flags, 'insecure-skip-tls-verify');
  if (!connection && (token !== undefined || insecure))
    throw new UsageError('--token and --insecure-skip-tls-verify need --server or --kubeconfig');
  if (connection && token !== undefined) connection.token = token;
  if (connection && insecure) connection.insecureSkipTlsVerify = true;
  if (connection) {
    try {
      new URL(connection.server);
    } catch {
      throw new UsageError(`--server: not a URL: ${connection.server}`);
    }
  }
  const runId = last('run-id') ?? `s${profile.seed.toString(36)}`;
  if (!/^[a-z0-9]([a-z0-9-]{0,18}[a-z0-9])?$/.test(runId))
    throw new UsageError(`--run-id must be 1-20 lowercase letters, digits or '-', got ${JSON.stringify(runId)}`);
  const interval = last('progress-interval');
  const progressEverySeconds = interval === undefined ? 10 : Number(interval);
  if (!(progressEverySeconds > 0))
    throw new UsageError(`--progress-interval must be a positive number of seconds, got ${JSON.stringify(interval)}`);
  return {
    kind: 'run',
    profile,
    ...(connection ? { connection } : {}),
    out: last('out') ?? 'loadtest-results',
    runId,
    cleanup: !boolFlag(flags, 'no-cleanup'),
    failOnSlo: boolFlag(flags, 'fail-on-slo'),
    progressEverySeconds,
    serverArgs: flags.get('server-arg') ?? [],
  };
}

export { ProfileError };

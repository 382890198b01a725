// The workload: defaults, a YAML/JSON profile file and command-line overrides, validated with messages naming the field.
import { parse as parseYaml } from 'yaml';

export const OPS = [
  'create',
  'get',
  'update',
  'patch-merge',
  'patch-strategic',
  'apply',
  'list',
  'list-rv0',
  'list-selector',
  'delete',
] as const;
export type OpName = (typeof OPS)[number];
export const KINDS = ['deployments', 'horizontalpodautoscalers', 'flowschemas'] as const;
export type KindName = (typeof KINDS)[number];
const KIND_ALIASES: Record<string, KindName> = {
  deployment: 'deployments',
  deploy: 'deployments',
  hpa: 'horizontalpodautoscalers',
  hpas: 'horizontalpodautoscalers',
  horizontalpodautoscaler: 'horizontalpodautoscalers',
  flowschema: 'flowschemas',
};
export const LIST_SCOPES = ['namespace', 'cluster', 'both'] as const;

export interface Profile {
  /** Measured seconds (after the warm-up). */
  duration: number;
  warmup: number;
  model: 'open' | 'closed';
  /** Operations per second (open model). */
  rate: number;
  /** Workers (closed model). */
  concurrency: number;
  /** Open model: most requests outstanding at once. */
  maxInFlight: number;
  mix: Record<OpName, number>;
  kinds: KindName[];
  namespaces: number;
  /** Approximate JSON size of each object written, in bytes (padded with an annotation). */
  objectSize: number;
  /** Objects created per kind (and per namespace for namespaced kinds) before the run. */
  initialObjects: number;
  /** Page size of LISTs (0: unpaged). */
  listLimit: number;
  listScope: (typeof LIST_SCOPES)[number];
  /** Long-running watches, spread over the kinds. */
  watchers: number;
  seed: number;
}

export const DEFAULT_MIX: Record<OpName, number> = {
  create: 10,
  get: 30,
  update: 8,
  'patch-merge': 5,
  'patch-strategic': 5,
  apply: 5,
  list: 5,
  'list-rv0': 5,
  'list-selector': 5,
  delete: 7,
};

export function defaultProfile(): Profile {
  return {
    duration: 60,
    warmup: 10,
    model: 'open',
    rate: 50,
    concurrency: 8,
    maxInFlight: 256,
    mix: { ...DEFAULT_MIX },
    kinds: [...KINDS],
    namespaces: 3,
    objectSize: 1024,
    initialObjects: 20,
    listLimit: 50,
    listScope: 'both',
    watchers: 6,
    seed: Math.floor(Math.random() * 2 ** 31),
  };
}

export class ProfileError extends Error {
  constructor(
    readonly source: string,
    readonly problems: string[],
  ) {
    super(`invalid load-test profile (${source}):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/** "90", 90, "90s", "2m", "1m30s", "500ms" → seconds. */
export function parseDuration(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const s = value.trim();
  if (/^\d+(\.\d+)?$/.test(s)) return Number(s);
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(s)) return undefined;
  let total = 0;
  for (const m of s.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)) {
    const n = Number(m[1]);
    total += m[2] === 'ms' ? n / 1000 : m[2] === 's' ? n : m[2] === 'm' ? n * 60 : n * 3600;
  }
  return total;
}

function kindName(value: string): KindName | undefined {
  const v = value.trim().toLowerCase();
  return (KINDS as readonly string[]).includes(v) ? (v as KindName) : KIND_ALIASES[v];
}

type Setter = (p: Profile, value: unknown, problems: string[], field: string) => void;

function intField(
  key:
    | 'rate'
    | 'concurrency'
    | 'maxInFlight'
    | 'namespaces'
    | 'objectSize'
    | 'initialObjects'
    | 'listLimit'
    | 'watchers'
    | 'seed',
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  allowFraction = false,
): Setter {
  return (p, value, problems, field) => {
    const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
    if (
      typeof n !== 'number' ||
      !Number.isFinite(n) ||
      (!allowFraction && !Number.isInteger(n)) ||
      n < min ||
      n > max
    ) {
      problems.push(
        `${field}: must be ${allowFraction ? 'a number' : 'an integer'} ≥ ${min}${max < Number.MAX_SAFE_INTEGER ? ` and ≤ ${max}` : ''}, got ${JSON.stringify(value)}`,
      );
      return;
    }
    p[key] = n;
  };
}

function durationField(key: 'duration' | 'warmup', min: number): Setter {
  return (p, value, problems, field) => {
    const d = parseDuration(value);
    if (d === undefined || d < min)
      problems.push(
        `${field}: must be a duration like 60, "60s", "2m" or "500ms"${min > 0 ? ` of at least ${min}s` : ''}, got ${JSON.stringify(value)}`,
      );
    else p[key] = d;
  };
}

/** "create=10,get=30" or a map → weights; ops left out get weight 0 when a mix is given. */
function parseMix(value: unknown, problems: string[], field: string): Record<OpName, number> | undefined {
  let entries: Array<[string, unknown]>;
  if (typeof value === 'string') {
    entries = value
      .split(',')
      .filter((s) => s.trim() !== '')
      .map((pair) => {
        const [k, v] = pair.split('=');
        return [k?.trim() ?? '', v === undefined ? undefined : v.trim()];
      });
  } else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    entries = Object.entries(value);
  } else {
    problems.push(`${field}: must be a map of operation → weight or "op=weight,…", got ${JSON.stringify(value)}`);
    return undefined;
  }
  const mix = Object.fromEntries(OPS.map((op) => [op, 0])) as Record<OpName, number>;
  const before = problems.length;
  for (const [op, raw] of entries) {
    const weight = typeof raw === 'string' && raw !== '' ? Number(raw) : raw;
    if (!(OPS as readonly string[]).includes(op))
      problems.push(`${field}.${op}: unknown operation (known: ${OPS.join(', ')})`);
    else if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0)
      problems.push(`${field}.${op}: weight must be a number ≥ 0, got ${JSON.stringify(raw)}`);
    else mix[op as OpName] = weight;
  }
  if (problems.length === before && OPS.every((op) => mix[op] === 0))
    problems.push(`${field}: at least one operation needs a weight above 0`);
  return problems.length === before ? mix : undefined;
}

const SETTERS: Record<string, Setter> = {
  duration: durationField('duration', 1),
  warmup: durationField('warmup', 0),
  model: (p, value, problems, field) => {
    if (value === 'open' || value === 'closed') p.model = value;
    else
      problems.push(
        `${field}: must be "open" (target rate) or "closed" (fixed concurrency), got ${JSON.stringify(value)}`,
      );
  },
  rate: intField('rate', 0.1, 1e6, true),
  concurrency: intField('concurrency', 1, 10000),
  maxInFlight: intField('maxInFlight', 1, 100000),
  mix: (p, value, problems, field) => {
    const mix = parseMix(value, problems, field);
    if (mix) p.mix = mix;
  },
  kinds: (p, value, problems, field) => {
    const list = typeof value === 'string' ? value.split(',').filter((s) => s.trim() !== '') : value;
    if (!Array.isArray(list) || list.length === 0) {
      problems.push(`${field}: must be a non-empty list of ${KINDS.join(', ')}, got ${JSON.stringify(value)}`);
      return;
    }
    const kinds: KindName[] = [];
    for (const k of list) {
      const kind = typeof k === 'string' ? kindName(k) : undefined;
      if (!kind) problems.push(`${field}: unknown kind ${JSON.stringify(k)} (known: ${KINDS.join(', ')})`);
      else if (!kinds.includes(kind)) kinds.push(kind);
    }
    p.kinds = kinds;
  },
  namespaces: intField('namespaces', 1, 1000),
  objectSize: intField('objectSize', 0, 1_000_000),
  initialObjects: intField('initialObjects', 0, 100000),
  listLimit: intField('listLimit', 0, 100000),
  listScope: (p, value, problems, field) => {
    if (typeof value === 'string' && (LIST_SCOPES as readonly string[]).includes(value))
      p.listScope = value as Profile['listScope'];
    else problems.push(`${field}: must be one of ${LIST_SCOPES.join(', ')}, got ${JSON.stringify(value)}`);
  },
  watchers: intField('watchers', 0, 10000),
  seed: intField('seed', 0, 2 ** 31 - 1),
};

export const PROFILE_FIELDS = Object.keys(SETTERS);

/** Applies `fields` (from a profile file or flags) onto `base`; throws ProfileError listing every problem. */
export function applyProfileFields(base: Profile, fields: Record<string, unknown>, source: string): Profile {
  const p: Profile = { ...base, mix: { ...base.mix }, kinds: [...base.kinds] };
  const problems: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    const setter = SETTERS[key];
    if (!setter) problems.push(`${key}: unknown field (known: ${PROFILE_FIELDS.join(', ')})`);
    else setter(p, value, problems, key);
  }
  if (problems.length === 0) checkConsistency(p, problems);
  if (problems.length > 0) throw new ProfileError(source, problems);
  return p;
}

function checkConsistency(p: Profile, problems: string[]): void {
  const needsObjects = (['get', 'update', 'patch-merge', 'patch-strategic', 'apply', 'delete'] as const).some(
    (op) => p.mix[op] > 0,
  );
  if (needsObjects && p.initialObjects === 0 && p.mix.create === 0)
    problems.push(
      'mix: get/update/patch/apply/delete need objects: give create a weight or set initialObjects above 0',
    );
}

/** Parses a profile file's text (YAML or JSON) onto the defaults. */
export function parseProfile(text: string, source: string, base: Profile = defaultProfile()): Profile {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new ProfileError(source, [
      `not valid YAML or JSON: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`,
    ]);
  }
  if (doc === null || doc === undefined) return base;
  if (typeof doc !== 'object' || Array.isArray(doc))
    throw new ProfileError(source, [
      `the top level must be a map of fields (${PROFILE_FIELDS.join(', ')}), got ${Array.isArray(doc) ? 'a list' : typeof doc}`,
    ]);
  return applyProfileFields(base, doc as Record<string, unknown>, source);
}

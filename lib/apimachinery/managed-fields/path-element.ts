// One step of a field path (structured-merge-diff PathElement): a field name, a list-map key, a set value or an index.
import { goJsonOrdered, goQuote } from './go-json';

export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  /** The list-map keys of an item, sorted by name. */
  | { readonly kind: 'key'; readonly fields: ReadonlyArray<readonly [string, unknown]> }
  | { readonly kind: 'value'; readonly value: unknown }
  | { readonly kind: 'index'; readonly index: number };

export type Path = readonly PathElement[];

export const field = (name: string): PathElement => ({ kind: 'field', name });

export function keyElement(fields: Array<[string, unknown]>): PathElement {
  return { kind: 'key', fields: [...fields].sort((a, b) => compareStrings(a[0], b[0])) };
}

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** value.Compare: numbers < strings < booleans < lists < maps < null, then within the kind. */
export function compareValues(a: unknown, b: unknown): number {
  const rank = (v: unknown): number => (typeof v === 'number' ? 0 : typeof v === 'string' ? 1 : typeof v === 'boolean' ? 2 : Array.isArray(v) ? 3 : v !== null && typeof v === 'object' ? 4 : 5);
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'string' && typeof b === 'string') return compareStrings(a, b);
  if (typeof a === 'boolean' && typeof b === 'boolean') return a === b ? 0 : a ? 1 : -1;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
      const c = compareValues(a[i], b[i]);
      if (c !== 0) return c;
    }
    return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
  }
  if (ra === 4) {
    const fa = Object.entries(a as Record<string, unknown>).sort((x, y) => compareStrings(x[0], y[0]));
    const fb = Object.entries(b as Record<string, unknown>).sort((x, y) => compareStrings(x[0], y[0]));
    return compareFieldLists(fa, fb);
  }
  return 0;
}

function compareFieldLists(a: ReadonlyArray<readonly [string, unknown]>, b: ReadonlyArray<readonly [string, unknown]>): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [na, va] = a[i] as readonly [string, unknown];
    const [nb, vb] = b[i] as readonly [string, unknown];
    const c = compareStrings(na, nb) || compareValues(va, vb);
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** PathElement.Compare: fields (by name), then keys, then values, then indexes. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  const order = { field: 0, key: 1, value: 2, index: 3 } as const;
  if (a.kind !== b.kind) return order[a.kind] < order[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareFieldLists(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index':
      return a.index - (b as typeof a).index;
  }
}

/** The FieldsV1 key: `f:name`, `k:{"name":"nginx"}`, `v:"value"`, `i:3`. */
export function serializePathElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:${goJsonOrdered(Object.fromEntries(pe.fields))}`;
    case 'value':
      return `v:${goJsonOrdered(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

export class PathElementError extends Error {}

/** The inverse of serializePathElement; unknown prefixes are undefined (skipped, as structured-merge-diff does). */
export function parsePathElement(text: string): PathElement | undefined {
  const prefix = text.slice(0, 2);
  const rest = text.slice(2);
  switch (prefix) {
    case 'f:':
      return field(rest);
    case 'k:': {
      const parsed: unknown = parseJson(rest);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) throw new PathElementError(`expected key value pairs but got ${rest}`);
      return keyElement(Object.entries(parsed as Record<string, unknown>));
    }
    case 'v:':
      return { kind: 'value', value: parseJson(rest) };
    case 'i:': {
      if (!/^-?\d+$/.test(rest)) throw new PathElementError(`strconv.Atoi: parsing ${goQuote(rest)}: invalid syntax`);
      return { kind: 'index', index: Number(rest) };
    }
    default:
      return undefined;
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new PathElementError(err instanceof Error ? err.message : String(err));
  }
}

/** value.ToString: strings quoted, numbers and booleans bare, lists in brackets. */
function valueString(v: unknown): string {
  if (v === null) return 'null';
  if (typeof v === 'string') return goQuote(v);
  if (Array.isArray(v)) return `[${v.map(valueString).join(',')}]`;
  if (typeof v === 'object') return Object.entries(v as Record<string, unknown>).map(([k, x]) => `${k}=${valueString(x)}`).join('');
  return String(v);
}

/** Path.String: `.spec.replicas`, `[name="nginx"]`, `[="value"]`, `[3]`. */
export function pathString(path: Path): string {
  return path
    .map((pe) => {
      switch (pe.kind) {
        case 'field':
          return `.${pe.name}`;
        case 'key':
          return `[${pe.fields.map(([k, v]) => `${k}=${valueString(v)}`).join(',')}]`;
        case 'value':
          return `[=${valueString(pe.value)}]`;
        case 'index':
          return `[${pe.index}]`;
      }
    })
    .join('');
}

// One step of a field path (structured-merge-diff PathElement): a field name, a list-map key, a set value or an index.
import { BoundedCache } from './bounded-cache';
import { goEscapeJson, goJsonOrdered } from '../json/go-marshal';
import { goQuote } from './go-json';

/** `serialized` is the FieldsV1 key, computed once when the element is made (sets and lists key by it). */
export type PathElement =
  | { readonly kind: 'field'; readonly name: string; readonly serialized: string }
  /** The list-map keys of an item, sorted by name. */
  | { readonly kind: 'key'; readonly fields: ReadonlyArray<readonly [string, unknown]>; readonly serialized: string }
  | { readonly kind: 'value'; readonly value: unknown; readonly serialized: string }
  | { readonly kind: 'index'; readonly index: number; readonly serialized: string };

export type Path = readonly PathElement[];

/** Field elements are shared (immutable): schema names repeat on every write. */
const fieldElements = new BoundedCache<PathElement>(4096);

const makeField = (name: string): PathElement => ({ kind: 'field', name, serialized: `f:${name}` });

export const field = (name: string): PathElement => fieldElements.get(name, makeField);

export function keyElement(fields: Array<[string, unknown]>): PathElement {
  const sorted = fields.length > 1 ? [...fields].sort((a, b) => compareStrings(a[0], b[0])) : [...fields];
  return { kind: 'key', fields: sorted, serialized: `k:${keyFieldsJson(sorted)}` };
}

const isScalar = (v: unknown): boolean =>
  v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
/** An array-index-like name would be moved first by Object.fromEntries. */
const mayReorder = (name: string): boolean =>
  name.length > 0 && name.charCodeAt(0) >= 0x30 && name.charCodeAt(0) <= 0x39;

/** goJsonOrdered(Object.fromEntries(sorted)), written directly when no name repeats or reorders and values are scalars. */
function keyFieldsJson(sorted: ReadonlyArray<readonly [string, unknown]>): string {
  let text = '';
  for (let i = 0; i < sorted.length; i++) {
    const [name, value] = sorted[i] as readonly [string, unknown];
    if (!isScalar(value) || mayReorder(name) || (i > 0 && sorted[i - 1]?.[0] === name))
      return goJsonOrdered(Object.fromEntries(sorted));
    text += `${i > 0 ? ',' : ''}${JSON.stringify(name)}:${JSON.stringify(value)}`;
  }
  return goEscapeJson(`{${text}}`);
}

export const valueElement = (value: unknown): PathElement => ({
  kind: 'value',
  value,
  serialized: `v:${goJsonOrdered(value)}`,
});

export const indexElement = (index: number): PathElement => ({ kind: 'index', index, serialized: `i:${index}` });

const compareStrings = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const rank = (v: unknown): number =>
  typeof v === 'number'
    ? 0
    : typeof v === 'string'
      ? 1
      : typeof v === 'boolean'
        ? 2
        : Array.isArray(v)
          ? 3
          : v !== null && typeof v === 'object'
            ? 4
            : 5;

/** value.Compare: numbers < strings < booleans < lists < maps < null, then within the kind. */
export function compareValues(a: unknown, b: unknown): number {
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

function compareFieldLists(
  a: ReadonlyArray<readonly [string, unknown]>,
  b: ReadonlyArray<readonly [string, unknown]>,
): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const [na, va] = a[i] as readonly [string, unknown];
    const [nb, vb] = b[i] as readonly [string, unknown];
    const c = compareStrings(na, nb) || compareValues(va, vb);
    if (c !== 0) return c;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

const KIND_ORDER = { field: 0, key: 1, value: 2, index: 3 } as const;

/** PathElement.Compare: fields (by name), then keys, then values, then indexes. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return KIND_ORDER[a.kind] < KIND_ORDER[b.kind] ? -1 : 1;
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
export const serializePathElement = (pe: PathElement): string => pe.serialized;

export class PathElementError extends Error {}

/** Keys of stored FieldsV1 repeat on every write of their object. */
const parsedElements = new BoundedCache<PathElement | null>(4096);

/** The inverse of serializePathElement; unknown prefixes are undefined (skipped, as structured-merge-diff does). */
export function parsePathElement(text: string): PathElement | undefined {
  return parsedElements.get(text, (t) => parseUncached(t) ?? null) ?? undefined;
}

function parseUncached(text: string): PathElement | undefined {
  const prefix = text.slice(0, 2);
  const rest = text.slice(2);
  switch (prefix) {
    case 'f:':
      return field(rest);
    case 'k:': {
      const parsed: unknown = parseJson(rest);
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
        throw new PathElementError(`expected key value pairs but got ${rest}`);
      return keyElement(Object.entries(parsed as Record<string, unknown>));
    }
    case 'v:':
      return valueElement(parseJson(rest));
    case 'i:': {
      if (!/^-?\d+$/.test(rest)) throw new PathElementError(`strconv.Atoi: parsing ${goQuote(rest)}: invalid syntax`);
      return indexElement(Number(rest));
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
  if (typeof v === 'object')
    return Object.entries(v as Record<string, unknown>)
      .map(([k, x]) => `${k}=${valueString(x)}`)
      .join('');
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

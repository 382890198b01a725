// What a create changed: compare() from the empty object a create is tracked against, kept by the new object's
// shape. Objects made from one template (a ReplicaSet's pods, a load test's Deployments) differ only in values that
// walk never reads, so it runs once per shape instead of once per create.
//
// From the empty object, the walk reads of the new object: its keys at every level (which are present, their order,
// whether an object is empty), the kind of each value (undefined, null, string, number, boolean, object, array), and
// whole values only in lists (item keys, set members, repeated items) and at the top level (apiVersion and kind are
// compared with the empty object's). The kept positions (Position) hold exactly that, booleans with their value; an
// object whose walk could read more (a key that names something of Object.prototype, which the empty side then
// "has"; a value JSON cannot hold) is compared directly, as is one too large to keep.
import type { SchemaNode } from '../schema/node';
import { compare, type Comparison } from './compare';

/** Shapes kept per kind and apiVersion (the oldest goes first). */
const SHAPES_PER_KIND = 8;
/** Shapes kept in all (everything starts over when full): with the limits below, a few MiB at most. */
const MAX_KEPT_SHAPES = 256;
/**
 * An object with more positions than this (large lists, maps with many keys), or with more characters in the values
 * kept whole (those in lists), is not kept: its walk runs each time.
 */
const MAX_POSITIONS = 1_000;
const MAX_KEPT_CHARS = 8_192;

/**
 * What the walk reads at one position of the first object of a shape: the kind of a value (`z` null, `u` undefined,
 * `s` string, `n` number, `t`/`f` a boolean), a whole scalar (`v`), a hole in a list (`h`), a list's items, or an
 * object's own keys in order and their values.
 */
type Position =
  | { readonly t: 'z' | 'u' | 's' | 'n' | 't' | 'f' | 'h' }
  | { readonly t: 'v'; readonly v: string | number }
  | { readonly t: 'l'; readonly items: readonly Position[] }
  | { readonly t: 'm'; readonly keys: readonly string[]; readonly values: readonly Position[] };

interface Kept {
  readonly shape: Position;
  readonly comparison: Comparison;
}

/** What one object may still take: positions, and characters of values kept whole. */
interface Budget {
  left: number;
  chars: number;
}

const keptByKind = new Map<string, Kept[]>();
let keptShapes = 0;
const nodeIds = new WeakMap<SchemaNode, number>();
let nextNodeId = 1;

function nodeId(node: SchemaNode | undefined): number {
  if (node === undefined) return 0;
  let id = nodeIds.get(node);
  if (id === undefined) {
    id = nextNodeId++;
    nodeIds.set(node, id);
  }
  return id;
}

/** A plain object (of any realm) or one without a prototype: no class instance, whose reads could differ. */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === null || Object.getPrototypeOf(proto) === null;
}

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** `{apiVersion, kind, metadata: {}}` with string apiVersion and kind: what field-manager tracks a create against. */
function emptyObjectOf(v: unknown): { apiVersion: string; kind: string } | undefined {
  if (!isPlainObject(v)) return undefined;
  const keys = Object.keys(v);
  if (keys.length !== 3 || !('apiVersion' in v && 'kind' in v && 'metadata' in v)) return undefined;
  const { apiVersion, kind, metadata } = v;
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return undefined;
  if (!isPlainObject(metadata) || Object.keys(metadata).length > 0) return undefined;
  return { apiVersion, kind };
}

/** Names the empty side reads a value under (Object.prototype's, `__proto__` among them). */
const PROTOTYPE_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype));

const TAGS = {
  z: { t: 'z' },
  u: { t: 'u' },
  s: { t: 's' },
  n: { t: 'n' },
  t: { t: 't' },
  f: { t: 'f' },
  h: { t: 'h' },
} as const;

/**
 * The positions of `v` as the walk reads them (`whole`: scalars too, inside lists and at the top level), or undefined
 * where the walk may read more than they hold (a key naming something of Object.prototype, which the empty side then
 * "has"; a value JSON cannot hold) or it takes more than `budget` allows.
 */
function positionsOf(v: unknown, whole: boolean, budget: Budget): Position | undefined {
  if (--budget.left < 0) return undefined;
  if (v === null) return TAGS.z;
  switch (typeof v) {
    case 'undefined':
      return TAGS.u;
    case 'string':
      if (!whole) return TAGS.s;
      budget.chars -= v.length;
      return budget.chars < 0 ? undefined : { t: 'v', v };
    case 'number':
      return whole ? { t: 'v', v } : TAGS.n;
    case 'boolean':
      return v ? TAGS.t : TAGS.f;
    case 'object':
      break;
    default:
      return undefined;
  }
  if (Array.isArray(v)) {
    const items: Position[] = [];
    for (let i = 0; i < v.length; i++) {
      const item = i in v ? positionsOf(v[i], true, budget) : TAGS.h;
      if (item === undefined) return undefined;
      items.push(item);
    }
    return { t: 'l', items };
  }
  return memberPositions(v, budget, whole ? ALWAYS : NEVER);
}

const ALWAYS = (): boolean => true;
const NEVER = (): boolean => false;
const isScalar = (v: unknown): boolean => v === null || typeof v !== 'object';

/** The positions of a plain object's own members in order, `whole(value)` deciding for each; undefined as positionsOf. */
function memberPositions(map: unknown, budget: Budget, whole: (value: unknown) => boolean): Position | undefined {
  if (!isPlainObject(map)) return undefined;
  const keys: string[] = [];
  const values: Position[] = [];
  for (const key in map) {
    if (!hasOwn(map, key)) continue;
    if (PROTOTYPE_NAMES.has(key)) return undefined;
    const value = map[key];
    const at = positionsOf(value, whole(value), budget);
    if (at === undefined) return undefined;
    keys.push(key);
    values.push(at);
  }
  return { t: 'm', keys, values };
}

/** The positions of a new object: its top-level scalars whole. */
const objectPositions = (next: Record<string, unknown>): Position | undefined =>
  memberPositions(next, { left: MAX_POSITIONS, chars: MAX_KEPT_CHARS }, isScalar);

/** Whether `v` reads as `at` does (see Position): the same keys in the same order, kinds, and whole values. */
function readsAs(v: unknown, at: Position): boolean {
  switch (at.t) {
    case 'z':
      return v === null;
    case 'u':
      return v === undefined;
    case 's':
      return typeof v === 'string';
    case 'n':
      return typeof v === 'number';
    case 't':
      return v === true;
    case 'f':
      return v === false;
    case 'v':
      return Object.is(v, at.v);
    case 'h':
      return false; // a hole is only matched by the list walk below
    case 'l': {
      if (!Array.isArray(v) || v.length !== at.items.length) return false;
      for (let i = 0; i < v.length; i++) {
        const item = at.items[i] as Position;
        if (item.t === 'h' ? i in v : !(i in v) || !readsAs(v[i], item)) return false;
      }
      return true;
    }
    case 'm': {
      if (!isPlainObject(v)) return false;
      let i = 0;
      for (const key in v) {
        if (!hasOwn(v, key)) continue;
        if (at.keys[i] !== key || !readsAs(v[key], at.values[i] as Position)) return false;
        i++;
      }
      return i === at.keys.length;
    }
  }
}

/**
 * compare(live, next, node, { goShape }); when `live` is the empty object a create is tracked against and `next`
 * reads as an earlier object of its kind did, that object's comparison (Comparisons are never changed once made).
 */
export function trackedComparison(
  live: unknown,
  next: unknown,
  node: SchemaNode | undefined,
  goShape: boolean,
): Comparison {
  const empty = emptyObjectOf(live);
  if (empty === undefined || !isPlainObject(next)) return compare(live, next, node, { goShape });
  const kindKey = `${nodeId(node)}\u0000${goShape ? 1 : 0}\u0000${empty.apiVersion}\u0000${empty.kind}`;
  const kept = keptByKind.get(kindKey);
  if (kept !== undefined) for (const k of kept) if (readsAs(next, k.shape)) return k.comparison;
  const comparison = compare(live, next, node, { goShape });
  const shape = objectPositions(next);
  if (shape === undefined) return comparison;
  if (keptShapes >= MAX_KEPT_SHAPES) {
    keptByKind.clear();
    keptShapes = 0;
  }
  const list = keptByKind.get(kindKey) ?? [];
  if (list.length === 0) keptByKind.set(kindKey, list);
  list.unshift({ shape, comparison });
  keptShapes++;
  if (list.length > SHAPES_PER_KIND) {
    list.pop();
    keptShapes--;
  }
  return comparison;
}

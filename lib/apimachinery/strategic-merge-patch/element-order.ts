// Ordering of merged lists: patch order first, then live order ($setElementOrder design, strategicpatch normalizeElementOrder).
import { isPlainObject } from '../meta/types';
import { errBadArgType, errNoMergeKey, StrategicMergePatchError } from './errors';
import type { GoType } from './go-print';

export type JsonMap = Record<string, unknown>;

export const DIRECTIVE_MARKER = '$patch';
export const DELETE_DIRECTIVE = 'delete';

/** What an element is compared by: its merge key value for maps, itself otherwise. */
function identity(item: unknown, mergeKey: string, kind: GoType): unknown {
  if (kind !== 'map') return item;
  return isPlainObject(item) ? item[mergeKey] : undefined;
}

/** Position of `item` in `list` by identity, or -1. */
function indexOf(list: readonly unknown[], item: unknown, mergeKey: string, kind: GoType): number {
  const wanted = identity(item, mergeKey, kind);
  return list.findIndex((v) => identity(v, mergeKey, kind) === wanted);
}

/** The first map in `list` whose `key` equals `value`, with its index; fails on a non-map element. */
export function findMapByKey(
  list: readonly unknown[],
  key: string,
  value: unknown,
): { map: JsonMap; index: number } | undefined {
  for (const [index, v] of list.entries()) {
    if (!isPlainObject(v)) throw new StrategicMergePatchError(`value for key ${index} is not a map`);
    if (Object.hasOwn(v, key) && v[key] === value) return { map: v, index };
  }
  return undefined;
}

export function requireMap(item: unknown): JsonMap {
  if (!isPlainObject(item)) throw errBadArgType('map', item);
  return item;
}

/** The merge key's value of a list element, failing as Kubernetes does when it is missing. */
export function mergeKeyValue(item: JsonMap, mergeKey: string): unknown {
  if (!Object.hasOwn(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
  return item[mergeKey];
}

/** Splits a patch list into kept elements and `$patch: delete` elements. */
export function splitDeletions(list: readonly unknown[]): { kept: unknown[]; deleted: unknown[] } {
  const kept: unknown[] = [];
  const deleted: unknown[] = [];
  for (const v of list) {
    const item = requireMap(v);
    (item[DIRECTIVE_MARKER] === DELETE_DIRECTIVE ? deleted : kept).push(v);
  }
  return { kept, deleted };
}

/** Sorts `toSort` by the positions its elements have in `order` (stable; deletion markers last). */
function sortByOrder(toSort: readonly unknown[], order: readonly unknown[], mergeKey: string, kind: GoType): unknown[] {
  let sortable = [...toSort];
  let deleted: unknown[] = [];
  if (kind === 'map') {
    for (const list of [toSort, order]) for (const v of list) mergeKeyValue(requireMap(v), mergeKey);
    ({ kept: sortable, deleted } = splitDeletions(toSort));
  }
  const positions = new Map(sortable.map((v) => [v, indexOf(order, v, mergeKey, kind)]));
  // Elements absent from `order` keep their place relative to each other (Go's comparator treats them as "less").
  const sorted = sortable.every((v) => (positions.get(v) ?? -1) >= 0)
    ? sortable.sort((a, b) => (positions.get(a) ?? 0) - (positions.get(b) ?? 0))
    : sortable;
  return [...sorted, ...deleted];
}

/**
 * Interleaves `serverOnly` (live order) into `patch` (patch order): a live element goes before a
 * patch element only when both are in `serverOrder` and it comes first there.
 */
function interleave(
  serverOnly: readonly unknown[],
  patch: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  kind: GoType,
): unknown[] {
  const out: unknown[] = [];
  let i = 0;
  let j = 0;
  while (i < serverOnly.length || j < patch.length) {
    if (j >= patch.length) out.push(serverOnly[i++]);
    else if (i >= serverOnly.length) out.push(patch[j++]);
    else {
      const li = indexOf(serverOrder, serverOnly[i], mergeKey, kind);
      const ri = indexOf(serverOrder, patch[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(serverOnly[i++]);
      else out.push(patch[j++]);
    }
  }
  return out;
}

/** normalizeElementOrder: patch elements in `patchOrder`, live-only ones in `serverOrder`, merged. */
export function normalizeElementOrder(
  patch: readonly unknown[],
  serverOnly: readonly unknown[],
  patchOrder: readonly unknown[],
  serverOrder: readonly unknown[],
  mergeKey: string,
  kind: GoType,
): unknown[] {
  const sortedPatch = sortByOrder(patch, patchOrder, mergeKey, kind);
  const sortedServer = sortByOrder(serverOnly, serverOrder, mergeKey, kind);
  return interleave(sortedServer, sortedPatch, serverOrder, mergeKey, kind);
}

/** Splits `merged` into elements present in `by` and the rest (by merge key for maps, by value otherwise). */
export function partitionByPresence(
  merged: readonly unknown[],
  by: readonly unknown[],
  mergeKey: string,
): { inPatch: unknown[]; serverOnly: unknown[] } {
  const inPatch: unknown[] = [];
  const serverOnly: unknown[] = [];
  if (mergeKey === '') {
    const present = new Set(by);
    for (const v of merged) (present.has(v) ? inPatch : serverOnly).push(v);
    return { inPatch, serverOnly };
  }
  for (const v of merged) {
    const value = mergeKeyValue(requireMap(v), mergeKey);
    (findMapByKey(by, mergeKey, value) ? inPatch : serverOnly).push(v);
  }
  return { inPatch, serverOnly };
}

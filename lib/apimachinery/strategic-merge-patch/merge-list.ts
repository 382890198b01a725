// Merging one list field: by merge key for lists of maps, as a set for lists of primitives (strategicpatch mergeSlice).
import { goPrint, goTypeOf, type GoType } from './go-print';
import { errBadArgType, errBadPatchType, errNoListOfLists, StrategicMergePatchError } from './errors';
import {
  DELETE_DIRECTIVE,
  DIRECTIVE_MARKER,
  findMapByKey,
  mergeKeyValue,
  normalizeElementOrder,
  partitionByPresence,
  requireMap,
  type JsonMap,
} from './element-order';
import { mergeMap } from './merge-map';
import { discardNulls } from './nulls';
import type { PatchMeta } from './patch-meta';

const REPLACE_DIRECTIVE = 'replace';
const MERGE_DIRECTIVE = 'merge';

/** The one Go type shared by every element of `lists`; lists of lists and mixed lists are refused. */
export function sliceElementType(...lists: readonly (readonly unknown[])[]): GoType {
  let found: GoType | undefined;
  for (const list of lists) {
    for (const v of list) {
      const type = goTypeOf(v);
      if (found === undefined) {
        if (type === 'slice') throw errNoListOfLists();
        found = type;
      } else if (type !== found) {
        throw new StrategicMergePatchError(`list element types are not identical: ${goPrint(lists)}`);
      }
    }
  }
  if (found === undefined) throw new StrategicMergePatchError('no elements in any of the given slices');
  return found;
}

/** Go's in-place deduplication (keeps the first of equal values, moving the last element into the gap). */
function deduplicateScalars(values: unknown[]): unknown[] {
  const s = [...values];
  let last = s.length - 1;
  for (let i = 0; i < last; i++) {
    for (let j = i + 1; j <= last; j++) {
      if (s[i] === s[j]) {
        s[j] = s[last];
        s.length = last;
        last--;
        j--;
      }
    }
  }
  return s;
}

/** Applies `$patch` elements: deletions by merge key, `replace` (the patch becomes the list), refusals. */
function applySpecialElements(
  original: unknown[],
  patch: readonly unknown[],
  mergeKey: string,
): { original: unknown[]; patch: unknown[] } {
  const plain: unknown[] = [];
  let replace = false;
  let current = original;
  for (const v of patch) {
    const item = v as JsonMap; // mergeSlice checked every element to be a map
    if (!Object.hasOwn(item, DIRECTIVE_MARKER)) {
      plain.push(v);
      continue;
    }
    const directive = item[DIRECTIVE_MARKER];
    if (directive === DELETE_DIRECTIVE) {
      const value = mergeKeyValue(item, mergeKey);
      current = current.filter((e) => !(Object.hasOwn(requireMap(e), mergeKey) && (e as JsonMap)[mergeKey] === value));
    } else if (directive === REPLACE_DIRECTIVE) {
      replace = true;
    } else if (directive === MERGE_DIRECTIVE) {
      throw new StrategicMergePatchError('merging lists cannot yet be specified in the patch');
    } else {
      throw errBadPatchType(directive, item);
    }
  }
  return replace ? { original: plain.map(discardNulls), patch: [] } : { original: current, patch: plain };
}

/** Merges each patch element into the live element with the same merge key, or appends it. */
function mergeByKey(
  original: unknown[],
  patch: readonly unknown[],
  mergeKey: string,
  items: PatchMeta | undefined,
): unknown[] {
  const merged = [...original];
  for (const v of patch) {
    const item = v as JsonMap; // elements were checked to be maps
    const found = findMapByKey(merged, mergeKey, mergeKeyValue(item, mergeKey));
    if (found) merged[found.index] = mergeMap(found.map, item, items);
    else merged.push(discardNulls(item));
  }
  return merged;
}

/**
 * mergeSlice for a list with strategy `merge`. `isDeleteList` marks the values of a
 * `$deleteFromPrimitiveList/<field>` directive, which are removed instead of added.
 */
export function mergeList(
  original: unknown[],
  patch: unknown[],
  meta: PatchMeta | undefined,
  isDeleteList: boolean,
): unknown[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = sliceElementType(original, patch);
  const mergeKey = meta?.patchMergeKey ?? '';
  let serverOrder = original;
  let merged: unknown[];
  let patchOrder = patch;
  if (kind !== 'map') {
    if (isDeleteList) {
      const doomed = new Set(patch);
      return original.filter((v) => !doomed.has(v));
    }
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '')
      throw new StrategicMergePatchError(
        `cannot merge lists without merge key for ${meta?.items()?.goKind ?? 'struct'}`,
      );
    ({ original: serverOrder, patch: patchOrder } = applySpecialElements(original, patch, mergeKey));
    merged = mergeByKey(serverOrder, patchOrder, mergeKey, meta?.items());
  }
  const { inPatch, serverOnly } = partitionByPresence(merged, patchOrder, mergeKey);
  return normalizeElementOrder(inPatch, serverOnly, patchOrder, serverOrder, mergeKey, kind);
}

/** mergeSliceHandler: lists with strategy `merge` merge, all others are replaced by the patch. */
export function mergeListField(
  original: unknown,
  patch: unknown,
  meta: PatchMeta | undefined,
  strategy: string,
  isDeleteList: boolean,
): unknown[] {
  if (!Array.isArray(original)) throw errBadArgType('slice', original);
  if (!Array.isArray(patch)) throw errBadArgType('slice', patch);
  if (strategy === MERGE_DIRECTIVE) return mergeList(original, patch, meta, isDeleteList);
  return patch.map(discardNulls);
}

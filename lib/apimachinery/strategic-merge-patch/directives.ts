// The parallel-list directives of a patch map: $retainKeys, $setElementOrder/<list> and the $deleteFromPrimitiveList/<list> key form.
import { goPrint } from './go-print';
import {
  errBadArgType,
  errBadPatchFormatForPrimitiveList,
  errBadPatchFormatForRetainKeys,
  errBadPatchFormatForSetElementOrderList,
  StrategicMergePatchError,
} from './errors';
import {
  DIRECTIVE_MARKER,
  mergeKeyValue,
  normalizeElementOrder,
  partitionByPresence,
  requireMap,
  splitDeletions,
  type JsonMap,
} from './element-order';
import { mergeListField, sliceElementType } from './merge-list';
import { discardNulls } from './nulls';
import { listOrMapStrategy, type PatchMeta } from './patch-meta';
import { setField } from './set-field';

export const RETAIN_KEYS_DIRECTIVE = '$retainKeys';
export const SET_ELEMENT_ORDER_PREFIX = '$setElementOrder';
export const DELETE_FROM_PRIMITIVE_LIST_PREFIX = '$deleteFromPrimitiveList';

/** The list field a `<prefix>/<field>` directive key names. */
export function directiveTarget(
  key: string,
  prefix: typeof SET_ELEMENT_ORDER_PREFIX | typeof DELETE_FROM_PRIMITIVE_LIST_PREFIX,
): string {
  const slash = key.indexOf('/');
  if (slash < 0 || key.slice(0, slash) !== prefix) {
    throw prefix === SET_ELEMENT_ORDER_PREFIX
      ? errBadPatchFormatForSetElementOrderList()
      : errBadPatchFormatForPrimitiveList();
  }
  return key.slice(slash + 1);
}

/**
 * `$retainKeys: [...]`: clears live keys missing from the list; every non-null key of the patch must
 * be listed (applyRetainKeysDirective). Kubernetes honours it on any map, whatever the field's strategy.
 */
export function applyRetainKeys(original: JsonMap, patch: JsonMap): void {
  if (!Object.hasOwn(patch, RETAIN_KEYS_DIRECTIVE)) return;
  const retained = patch[RETAIN_KEYS_DIRECTIVE];
  delete patch[RETAIN_KEYS_DIRECTIVE];
  if (!Array.isArray(retained)) throw errBadPatchFormatForRetainKeys();
  const keep = new Set<unknown>(retained);
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX) || k.startsWith(SET_ELEMENT_ORDER_PREFIX))
      continue;
    if (!keep.has(k)) throw errBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!keep.has(k)) delete original[k];
}

function sameElement(left: unknown, right: unknown, mergeKey: string): boolean {
  if (mergeKey === '') return left === right;
  return mergeKeyValue(requireMap(left), mergeKey) === mergeKeyValue(requireMap(right), mergeKey);
}

/** The patch list (deletions aside) must follow the relative order of `$setElementOrder` (validatePatchWithSetOrderList). */
function checkOrderMatches(patchList: readonly unknown[], order: readonly unknown[], mergeKey: string): void {
  if (order.length === 0 || patchList.length === 0) return;
  const kept = mergeKey === '' ? patchList : splitDeletions(patchList).kept;
  let p = 0;
  let o = 0;
  while (p < kept.length && o < order.length) {
    const item = kept[p];
    if (typeof item === 'object' && item !== null && !Array.isArray(item) && Object.hasOwn(item, DIRECTIVE_MARKER)) {
      p++;
      continue;
    }
    if (sameElement(item, order[o], mergeKey)) p++;
    o++;
  }
  if (p < kept.length && o >= order.length) {
    throw new StrategicMergePatchError(
      `The order in patch list:\n${goPrint(patchList)}\n doesn't match ${SET_ELEMENT_ORDER_PREFIX} list:\n${goPrint(order)}\n`,
    );
  }
}

function listAt(map: JsonMap, key: string): unknown[] | undefined {
  if (!Object.hasOwn(map, key)) return undefined;
  const value = map[key];
  if (!Array.isArray(value)) throw errBadArgType('slice', value);
  return value;
}

/**
 * Handles every `$setElementOrder/<list>` of `patch` (mergePatchIntoOriginal): merges `<list>` as
 * usual, then orders it by the directive, then the patch, then the live list. Both the directive
 * and the list are removed from `patch` so the caller does not merge them again.
 */
export function applySetElementOrder(original: JsonMap, patch: JsonMap, meta: PatchMeta | undefined): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER_PREFIX)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw errBadArgType('slice', order);
    const field = directiveTarget(key, SET_ELEMENT_ORDER_PREFIX);
    const live = listAt(original, field);
    const patched = listAt(patch, field);
    const fieldMeta = meta?.field(field);
    const strategy = listOrMapStrategy(fieldMeta);
    const mergeKey = fieldMeta?.patchMergeKey ?? '';
    checkOrderMatches(patched ?? [], order, mergeKey);
    if (live === undefined && patched === undefined) continue;
    const merged =
      live !== undefined && patched !== undefined
        ? mergeListField(live, patched, fieldMeta, strategy, false)
        : (live ?? discardNulls(patched ?? []));
    const { inPatch, serverOnly } = partitionByPresence(merged, order, mergeKey);
    const kind = sliceElementType(live ?? [], patched ?? []);
    setField(original, field, normalizeElementOrder(inPatch, serverOnly, order, live ?? [], mergeKey, kind));
    delete patch[field];
  }
}

// Merging a patch map into a live map, key by key (strategicpatch mergeMap with the server-side options).
import { goTypeOf } from './go-print';
import { errBadPatchType } from './errors';
import { DELETE_DIRECTIVE, DIRECTIVE_MARKER, type JsonMap } from './element-order';
import {
  applyRetainKeys,
  applySetElementOrder,
  DELETE_FROM_PRIMITIVE_LIST_PREFIX,
  directiveTarget,
} from './directives';
import { mergeListField } from './merge-list';
import { discardNulls } from './nulls';
import { listOrMapStrategy, type PatchMeta } from './patch-meta';
import { setField } from './set-field';

const REPLACE = 'replace';

/** `$patch` on a map: `replace` takes the patch as the whole value, `delete` leaves an empty map. */
function mapDirective(directive: unknown, patch: JsonMap): JsonMap {
  if (directive === REPLACE) {
    delete patch[DIRECTIVE_MARKER];
    return discardNulls(patch);
  }
  if (directive === DELETE_DIRECTIVE) return {};
  throw errBadPatchType(directive, patch);
}

/** A nested map: merged, unless its field's strategy is `replace`. */
function mergeMapField(original: JsonMap, patch: JsonMap, meta: PatchMeta | undefined): JsonMap {
  if (listOrMapStrategy(meta) === REPLACE) return discardNulls(patch);
  return mergeMap(original, patch, meta);
}

/**
 * Merges `patch` into `original` (both mutated; pass copies) and returns the result. `meta` describes
 * the map's own fields. Nulls delete keys; values of a different JSON type replace; maps recurse;
 * lists follow their field's strategy.
 */
export function mergeMap(original: JsonMap | undefined, patch: JsonMap, meta: PatchMeta | undefined): JsonMap {
  if (Object.hasOwn(patch, DIRECTIVE_MARKER)) return mapDirective(patch[DIRECTIVE_MARKER], patch);
  const result = original ?? {};
  applyRetainKeys(result, patch);
  applySetElementOrder(result, patch, meta);
  for (const [patchKey, patchValue] of Object.entries(patch)) {
    const isDeleteList = patchKey.startsWith(DELETE_FROM_PRIMITIVE_LIST_PREFIX);
    const k = isDeleteList ? directiveTarget(patchKey, DELETE_FROM_PRIMITIVE_LIST_PREFIX) : patchKey;
    if (patchValue === null) {
      delete result[k];
      continue;
    }
    const type = goTypeOf(patchValue);
    if (!Object.hasOwn(result, k) || goTypeOf(result[k]) !== type) {
      if (!isDeleteList) setField(result, k, discardNulls(patchValue));
      continue;
    }
    const fieldMeta = meta?.field(k);
    if (type === 'map')
      result[k] = mergeMapField(result[k] as JsonMap, patchValue as JsonMap, fieldMeta); // both maps: same Go type
    else if (type === 'slice')
      result[k] = mergeListField(result[k], patchValue, fieldMeta, listOrMapStrategy(fieldMeta), isDeleteList);
    else result[k] = patchValue;
  }
  return result;
}

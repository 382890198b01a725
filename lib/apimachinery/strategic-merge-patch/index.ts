// Strategic merge patch (Kubernetes 1.26 k8s.io/apimachinery/pkg/util/strategicpatch, server-side application).
import { isPlainObject } from '../meta/types';
import { errBadJSONDoc } from './errors';
import type { JsonMap } from './element-order';
import { mergeMap } from './merge-map';
import type { PatchMeta } from './patch-meta';

export { StrategicMergePatchError, type PatchErrorClass } from './errors';
export type { PatchMeta } from './patch-meta';
export { patchMetaForKind } from './patch-meta-from-catalog';
export { setField } from './set-field';

/**
 * Applies a strategic merge patch to `original` as kube-apiserver does (StrategicMergeMapPatch):
 * lists merge by the merge keys and strategies `schema` declares, directives are honoured. Neither
 * input is modified. A null patch changes nothing. Throws StrategicMergePatchError.
 */
export function strategicMergePatch(original: JsonMap, patch: unknown, schema: PatchMeta | undefined): JsonMap {
  if (patch === null) return structuredClone(original);
  if (!isPlainObject(patch)) throw errBadJSONDoc();
  return mergeMap(structuredClone(original), structuredClone(patch), schema);
}

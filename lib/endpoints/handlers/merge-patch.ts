// RFC 7386 JSON merge patch as github.com/evanphx/json-patch v4.12.0 MergePatch applies it in kube-apiserver 1.26.
import { isPlainObject } from '../../apimachinery/meta/types';
import { setField } from '../../apimachinery/strategic-merge-patch';

type JsonObject = Record<string, unknown>;

/**
 * Drops null object members at every depth, also inside lists (whose null elements stay), as
 * evanphx's pruneNulls does for patch values that land where there was nothing to merge into.
 */
function pruneNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === null ? v : pruneNulls(v)));
  if (!isPlainObject(value)) return value;
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(value)) if (v !== null) setField(out, k, pruneNulls(v));
  return out;
}

/** One member: objects merge into objects; anything else replaces (pruned when the live value was not an object). */
function mergeValue(current: unknown, patch: unknown): unknown {
  if (!isPlainObject(current)) return pruneNulls(patch);
  if (!isPlainObject(patch)) return patch;
  return mergeObjects(current, patch);
}

function mergeObjects(target: JsonObject, patch: JsonObject): JsonObject {
  const result: JsonObject = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete result[key];
    else setField(result, key, Object.hasOwn(result, key) ? mergeValue(result[key], value) : pruneNulls(value));
  }
  return result;
}

/**
 * Merges a patch into an object: null deletes a member, objects merge recursively, lists and scalars
 * replace. A list as the whole patch becomes the document (nulls pruned), as evanphx's MergePatch
 * returns it; callers refuse other non-object patches. Neither input is modified.
 */
export function mergePatch(target: JsonObject, patch: JsonObject | unknown[]): unknown {
  if (Array.isArray(patch)) return pruneNulls(structuredClone(patch));
  return mergeObjects(structuredClone(target), structuredClone(patch));
}

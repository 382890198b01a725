// Client-side apply's last-applied annotation under server-side apply by `kubectl` (lastappliedmanager.go, lastappliedupdater.go).
import type { ApiObject } from '../meta/types';
import type { SchemaNode } from '../schema/node';
import { compare } from './compare';
import type { FieldSet } from './field-set';
import { goMarshal } from '../json/go-marshal';
import { goShaped } from './normalize';
import { toFieldSet } from './to-field-set';

/** kubectl reads and writes the upstream key verbatim; the orch-branded spelling is accepted too. */
export const LAST_APPLIED_ANNOTATIONS = [
  'kubectl.kubernetes.io/last-applied-configuration',
  'kubectl.orch.io/last-applied-configuration',
] as const;
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function lastAppliedKey(obj: ApiObject): string | undefined {
  const annotations = obj.metadata.annotations ?? {};
  return LAST_APPLIED_ANNOTATIONS.find((key) => (annotations[key] ?? '') !== '');
}

/**
 * Conflicts the annotation excuses: the fields client-side apply last applied whose values are still
 * the live ones. undefined when there is no usable annotation.
 */
export function allowedConflictsFromLastApplied(live: ApiObject, schema: SchemaNode | undefined): FieldSet | undefined {
  const key = lastAppliedKey(live);
  if (key === undefined) return undefined;
  let lastApplied: unknown;
  try {
    lastApplied = JSON.parse(live.metadata.annotations?.[key] ?? '');
  } catch {
    return undefined;
  }
  try {
    const shapedLast = goShaped(lastApplied, schema);
    const comparison = compare(shapedLast, goShaped(live, schema), schema);
    return toFieldSet(shapedLast, schema).difference(comparison.modified);
  } catch {
    return undefined;
  }
}

/** After an apply by `kubectl`, an existing annotation is rewritten with the applied configuration (dropped when annotations would be too large). */
export function refreshLastApplied(obj: ApiObject, config: Record<string, unknown>): void {
  const key = lastAppliedKey(obj);
  if (key === undefined) return;
  const copy = structuredClone(config);
  const meta = copy['metadata'];
  if (meta !== null && typeof meta === 'object' && !Array.isArray(meta)) {
    const annotations = (meta as Record<string, unknown>)['annotations'];
    if (annotations !== null && typeof annotations === 'object')
      for (const k of LAST_APPLIED_ANNOTATIONS) delete (annotations as Record<string, unknown>)[k];
  }
  const annotations = { ...(obj.metadata.annotations ?? {}), [key]: `${goMarshal(copy)}\n` };
  const size = Object.entries(annotations).reduce((n, [k, v]) => n + Buffer.byteLength(k) + Buffer.byteLength(v), 0);
  if (size > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[key];
  obj.metadata.annotations = annotations;
}

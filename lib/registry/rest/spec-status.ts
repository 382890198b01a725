// Strategy building blocks for kinds with spec and status: reset on create, carry over on update, generation bumps.
import type { ApiObject } from '../../apimachinery/meta/types';

/** prepareForCreate: status starts at its zero value and the generation at 1. */
export function clearStatusAndStartGeneration(obj: ApiObject): void {
  obj.status = {};
  obj.metadata.generation = 1;
}

/** Replaces `obj[key]` by a copy of the stored one, or drops it when storage has none. */
export function carryFromStorage(obj: ApiObject, old: ApiObject, key: 'spec' | 'status'): void {
  if (old[key] === undefined) delete obj[key];
  else obj[key] = structuredClone(old[key]);
}

/**
 * prepareForUpdate of the main resource: status comes from storage, and the generation goes up by
 * one when `changed` (the spec, and whatever else the kind counts) so controllers can tell such
 * changes from status writes.
 */
export function carryStatusAndBumpGeneration(obj: ApiObject, old: ApiObject, changed: boolean): void {
  carryFromStorage(obj, old, 'status');
  const generation = changed ? (old.metadata.generation ?? 0) + 1 : old.metadata.generation;
  if (generation === undefined) delete obj.metadata.generation;
  else obj.metadata.generation = generation;
}

/**
 * prepareForUpdate of /status when only status may change: spec and all of metadata but
 * managedFields (which records this very status write) come from storage, so label or annotation
 * edits sent to /status are dropped, as in Kubernetes.
 */
export function carrySpecAndMetadata(obj: ApiObject, old: ApiObject): void {
  carryFromStorage(obj, old, 'spec');
  const managedFields = obj.metadata.managedFields;
  obj.metadata = structuredClone(old.metadata);
  if (managedFields === undefined) delete obj.metadata.managedFields;
  else obj.metadata.managedFields = managedFields;
}

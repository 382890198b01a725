// Delete-time rules: preconditions and the garbage-collection finalizers a propagation policy adds.
import type { GroupKind } from '../../apimachinery/errors';
import { conflictOnKind } from '../../apimachinery/errors';
import type { DeleteOptions } from '../../apimachinery/meta/delete-options';
import type { ApiObject } from '../../apimachinery/meta/types';

export const FINALIZER_ORPHAN = 'orphan';
export const FINALIZER_FOREGROUND = 'foregroundDeletion';

/** Throws 409 Conflict (named by Kind, as Kubernetes does) when a precondition does not hold. */
export function checkDeletePreconditions(gk: GroupKind, current: ApiObject, options: DeleteOptions): void {
  const name = current.metadata.name ?? '';
  const uid = options.preconditions?.uid;
  if (uid !== undefined && uid !== current.metadata.uid) {
    throw conflictOnKind(
      gk,
      name,
      `the UID in the precondition (${uid}) does not match the UID in record (${current.metadata.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  const rv = options.preconditions?.resourceVersion;
  if (rv !== undefined && rv !== current.metadata.resourceVersion) {
    throw conflictOnKind(
      gk,
      name,
      `the ResourceVersion in the precondition (${rv}) does not match the ResourceVersion in record (${current.metadata.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
}

/**
 * The finalizer list after applying the delete's propagation policy (deletionFinalizersForGarbageCollection).
 * Returns undefined when the list does not change.
 */
export function finalizersForDeletion(current: ApiObject, options: DeleteOptions): string[] | undefined {
  const existing = current.metadata.finalizers ?? [];
  const policyGiven = options.propagationPolicy !== undefined || options.orphanDependents !== undefined;
  const orphan =
    options.orphanDependents === true ||
    options.propagationPolicy === 'Orphan' ||
    (!policyGiven && existing.includes(FINALIZER_ORPHAN));
  const foreground =
    options.propagationPolicy === 'Foreground' || (!policyGiven && existing.includes(FINALIZER_FOREGROUND));
  const next = existing.filter((f) => f !== FINALIZER_ORPHAN && f !== FINALIZER_FOREGROUND);
  if (orphan) next.push(FINALIZER_ORPHAN);
  if (foreground) next.push(FINALIZER_FOREGROUND);
  const same = next.length === existing.length && next.every((f) => existing.includes(f));
  return same ? undefined : next;
}

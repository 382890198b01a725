// The core API's extra ObjectMeta rule (pkg/apis/core/validation.ValidateObjectMeta): legacy finalizer names.
import type { FieldError } from '../../apimachinery/field/errors';
import { invalidValue } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import type { ApiObject, ObjectMeta } from '../../apimachinery/meta/types';
import { NAMESPACE_FINALIZER, NAMESPACE_FINALIZER_UPSTREAM } from './well-known-names';

/** helper.IsStandardFinalizerName's set; the upstream token stays accepted so migrated objects validate. */
const STANDARD_FINALIZERS = new Set([
  NAMESPACE_FINALIZER,
  NAMESPACE_FINALIZER_UPSTREAM,
  'orphan',
  'foregroundDeletion',
]);

export const NOT_STANDARD_FINALIZER = 'name is neither a standard finalizer name nor is it fully qualified';

/** validateKubeFinalizerName: a name without `/` must be one of the standard finalizers. */
export function validateKubeFinalizerName(name: string, path: FieldPath): FieldError[] {
  return !name.includes('/') && !STANDARD_FINALIZERS.has(name)
    ? [invalidValue(path, name, NOT_STANDARD_FINALIZER)]
    : [];
}

/**
 * The finalizer rule every core-validated kind (Deployment, HorizontalPodAutoscaler, Namespace) adds to
 * the generic ObjectMeta checks, at `metadata.finalizers[i]`. Wrong types are the generic checks' business.
 */
export function validateKubeFinalizerNames(meta: ObjectMeta): FieldError[] {
  const finalizers: unknown = meta.finalizers;
  if (!Array.isArray(finalizers)) return [];
  const path = FieldPath.root('metadata', 'finalizers');
  return finalizers.flatMap((f: unknown, i) =>
    typeof f === 'string' ? validateKubeFinalizerName(f, path.index(i)) : [],
  );
}

/**
 * A kind's validation preceded by the finalizer rule: for the kinds whose 1.26 validation calls core's
 * ValidateObjectMeta (ServiceAccount, the RBAC kinds, FlowSchema, PriorityLevelConfiguration).
 */
export function withKubeFinalizerNames<Rest extends unknown[]>(
  validate: (obj: ApiObject, ...rest: Rest) => FieldError[],
): (obj: ApiObject, ...rest: Rest) => FieldError[] {
  return (obj, ...rest) => [...validateKubeFinalizerNames(obj.metadata), ...validate(obj, ...rest)];
}

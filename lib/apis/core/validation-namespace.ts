// Namespace (core v1) validation: create, update, /status and /finalize, with pkg/apis/core/validation's texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { goLiteral, invalidValue } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import { isQualifiedName } from '../../apimachinery/validation/names';
import { WRONG_TYPE, readObject, readString, readStringList } from '../../apimachinery/validation/untrusted-json';
import { goStringMapText } from './go-values';
import { validateKubeFinalizerName, validateKubeFinalizerNames } from './validation-object-meta';
import { LABEL_METADATA_NAME, NAMESPACE_ACTIVE, NAMESPACE_TERMINATING } from './well-known-names';

const specPath = FieldPath.root('spec');
const finalizersPath = specPath.child('finalizers');
// Upstream spells the Go field name here, capital P included.
const phasePath = FieldPath.root('status', 'Phase');

/** validateFinalizerName: a qualified name, and a standard one when it has no `/`. */
function validateFinalizerName(name: string, path: FieldPath): FieldError[] {
  return [
    ...isQualifiedName(name).map((msg) => invalidValue(path, name, msg)),
    ...validateKubeFinalizerName(name, path),
  ];
}

/** `spec.finalizers`, each checked at `path(i)` (create reports them all at the list path, without index). */
function validateSpecFinalizers(errs: FieldError[], obj: ApiObject, pathOf: (i: number) => FieldPath): void {
  const spec = readObject(errs, specPath, obj.spec);
  if (spec === undefined || spec === WRONG_TYPE) return;
  const finalizers = readStringList(errs, finalizersPath, spec.finalizers);
  if (Array.isArray(finalizers)) finalizers.forEach((f, i) => errs.push(...validateFinalizerName(f, pathOf(i))));
}

/**
 * The name label must equal the name. Not an upstream rule (defaulting and Canonicalize overwrite the
 * label there); kept as a guard so a stored namespace never carries a foreign value.
 */
function validateNameLabel(obj: ApiObject): FieldError[] {
  const { name, labels } = obj.metadata;
  if (
    !name ||
    !isPlainObject(labels) ||
    !Object.hasOwn(labels, LABEL_METADATA_NAME) ||
    labels[LABEL_METADATA_NAME] === name
  )
    return [];
  const shown = Object.values(labels).every((v) => typeof v === 'string') ? goLiteral(goStringMapText(labels)) : null;
  return [invalidValue(FieldPath.root('metadata', 'labels').key(LABEL_METADATA_NAME), shown, `must be '${name}'`)];
}

/** ValidateNamespace (kind part; name syntax and the generic ObjectMeta rules are the store's). */
export function validateNamespace(obj: ApiObject): FieldError[] {
  const errs = validateKubeFinalizerNames(obj.metadata);
  validateSpecFinalizers(errs, obj, () => finalizersPath);
  errs.push(...validateNameLabel(obj));
  return errs;
}

/** ValidateNamespaceUpdate: spec and status are carried from storage by the strategy, so only metadata rules. */
export function validateNamespaceUpdate(obj: ApiObject, _old: ApiObject): FieldError[] {
  return [...validateKubeFinalizerNames(obj.metadata), ...validateNameLabel(obj)];
}

/** ValidateNamespaceStatusUpdate: the phase follows `deletionTimestamp`. */
export function validateNamespaceStatusUpdate(obj: ApiObject, _old: ApiObject): FieldError[] {
  const errs = validateKubeFinalizerNames(obj.metadata);
  const status = readObject(errs, FieldPath.root('status'), obj.status);
  if (status === WRONG_TYPE) return errs;
  const phase = readString(errs, phasePath, status?.phase);
  if (phase === WRONG_TYPE) return errs;
  if (!obj.metadata.deletionTimestamp) {
    if (phase !== NAMESPACE_ACTIVE)
      errs.push(invalidValue(phasePath, phase ?? '', "may only be 'Active' if `deletionTimestamp` is empty"));
  } else if (phase !== NAMESPACE_TERMINATING) {
    errs.push(invalidValue(phasePath, phase ?? '', "may only be 'Terminating' if `deletionTimestamp` is not empty"));
  }
  return errs;
}

/** ValidateNamespaceFinalizeUpdate: each `spec.finalizers[i]` is a valid finalizer name. */
export function validateNamespaceFinalizeUpdate(obj: ApiObject, _old: ApiObject): FieldError[] {
  const errs = validateKubeFinalizerNames(obj.metadata);
  validateSpecFinalizers(errs, obj, (i) => finalizersPath.index(i));
  return errs;
}

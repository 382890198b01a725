// Namespace registry behaviour (pkg/registry/core/namespace): cluster-scoped, DNS-label names, finalizer on create, /status, /finalize.
import { isPlainObject, type ApiObject } from '../../../apimachinery/meta/types';
import { validateDNS1123LabelName } from '../../../apimachinery/validation/names';
import {
  validateNamespace,
  validateNamespaceFinalizeUpdate,
  validateNamespaceStatusUpdate,
  validateNamespaceUpdate,
} from '../../../apis/core/validation-namespace';
import { applyNamespaceDefaults, setNamespaceNameLabel } from '../../../apis/core/v1/defaults';
import { NAMESPACE_ACTIVE, NAMESPACE_FINALIZER } from '../../../apis/core/well-known-names';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { RESET_SPEC } from '../../../apimachinery/managed-fields/reset-fields';
import { carryFromStorage } from '../../rest/spec-status';
import { namespaceTable } from './table';

/** On create the namespace finalizer is required: appended when missing (never a default, see defaults.ts). */
function addNamespaceFinalizer(obj: ApiObject): void {
  if (obj.spec === undefined || obj.spec === null) obj.spec = {};
  if (!isPlainObject(obj.spec)) return; // wrongly typed: validation reports it
  const finalizers = obj.spec.finalizers;
  if (finalizers === undefined || finalizers === null) obj.spec.finalizers = [NAMESPACE_FINALIZER];
  else if (Array.isArray(finalizers) && !finalizers.includes(NAMESPACE_FINALIZER)) finalizers.push(NAMESPACE_FINALIZER);
}

export const namespaceStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: false,
  validateName: validateDNS1123LabelName,
  applyDefaults: applyNamespaceDefaults,
  prepareForCreate(obj: ApiObject): void {
    obj.status = { phase: NAMESPACE_ACTIVE };
    addNamespaceFinalizer(obj);
    setNamespaceNameLabel(obj);
  },
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    // Only /finalize changes spec.finalizers (the namespace's only spec field) and only /status the status.
    carryFromStorage(obj, old, 'spec');
    carryFromStorage(obj, old, 'status');
    setNamespaceNameLabel(obj);
  },
  validate: validateNamespace,
  validateUpdate: validateNamespaceUpdate,
  // After generateName has produced the name: the label always equals it.
  canonicalize: setNamespaceNameLabel,
  table: namespaceTable,
};

/** /status: spec comes from storage; the phase must agree with deletionTimestamp. */
export const namespaceStatusStrategy: Strategy = {
  ...namespaceStrategy,
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    carryFromStorage(obj, old, 'spec');
    setNamespaceNameLabel(obj);
  },
  validateUpdate: validateNamespaceStatusUpdate,
  resetFields: RESET_SPEC,
};

/** /finalize: only spec.finalizers is taken from the request; status comes from storage. */
export const namespaceFinalizeStrategy: Strategy = {
  ...namespaceStrategy,
  prepareForUpdate(obj: ApiObject, old: ApiObject): void {
    carryFromStorage(obj, old, 'status');
    setNamespaceNameLabel(obj);
  },
  validateUpdate: validateNamespaceFinalizeUpdate,
};

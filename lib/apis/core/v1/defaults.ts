// core/v1 Namespace defaults (SetDefaults_Namespace, SetDefaults_NamespaceStatus), 1.26, with the orch label name.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { ensureObject, isAbsent } from '../../../apimachinery/validation/untrusted-json';
import { LABEL_METADATA_NAME, NAMESPACE_ACTIVE } from '../well-known-names';

/**
 * Sets the name label when the name is known, overwriting any other value (with generateName the
 * strategy sets it once the name exists).
 */
export function setNamespaceNameLabel(obj: ApiObject): void {
  const name = obj.metadata.name;
  if (!name) return;
  const labels: unknown = obj.metadata.labels;
  if (isAbsent(labels)) obj.metadata.labels = { [LABEL_METADATA_NAME]: name };
  else if (isPlainObject(labels)) labels[LABEL_METADATA_NAME] = name;
}

/**
 * Runs on every decoded Namespace write. The `spec.finalizers` entry is NOT a default: upstream adds it
 * in PrepareForCreate only, so that the namespace controller can remove it later.
 */
export function applyNamespaceDefaults(obj: ApiObject): void {
  setNamespaceNameLabel(obj);
  const status = ensureObject(obj, 'status');
  if (status !== undefined && (isAbsent(status.phase) || status.phase === '')) status.phase = NAMESPACE_ACTIVE;
}

// Validation of FlowSchema and PriorityLevelConfiguration objects (spec, mandatory objects, status); ObjectMeta is the store's.
import type { FieldError } from '../../apimachinery/field/errors';
import { duplicate, required } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import { validateFlowSchemaSpec } from './validation-flowschema';
import { validateMandatoryFlowSchemaSpec, validateMandatoryPriorityLevelSpec } from './validation-mandatory';
import type { FlowcontrolVersion } from './validation-prioritylevel';
import { validatePriorityLevelConfigurationSpec } from './validation-prioritylevel';
import { WRONG_TYPE, readList, readObject, readString } from '../../apimachinery/validation/untrusted-json';
import { readTimestamp } from './validation-values';

export type { FlowcontrolVersion } from './validation-prioritylevel';
export { URL_PARTIAL_WILDCARD, URL_TRAILING_SLASH_STAR } from './validation-flowschema';
export { MANDATORY_FLOW_SCHEMA_SPECS, MANDATORY_PRIORITY_LEVEL_SPECS } from './validation-mandatory';

const specPath = FieldPath.root('spec');
const statusPath = FieldPath.root('status');

function objectName(obj: ApiObject): string {
  const meta: unknown = obj.metadata;
  return isPlainObject(meta) && typeof meta.name === 'string' ? meta.name : '';
}

/** Create: spec, then the mandatory-object freeze, then status (Kubernetes' order). */
export function validateFlowSchema(obj: ApiObject): FieldError[] {
  const name = objectName(obj);
  return [
    ...validateFlowSchemaSpec(name, obj.spec, specPath),
    ...validateMandatoryFlowSchemaSpec(name, obj.spec, specPath),
    ...validateConditions(obj.status, statusPath),
  ];
}

/** Update of the main resource: the whole object is re-validated; nothing in the spec is immutable. */
export function validateFlowSchemaUpdate(obj: ApiObject, _old: ApiObject): FieldError[] {
  return validateFlowSchema(obj);
}

/** Update through /status: only the status is checked (the spec was carried over from storage). */
export function validateFlowSchemaStatus(obj: ApiObject, _old: ApiObject): FieldError[] {
  return validateConditions(obj.status, statusPath);
}

export function validatePriorityLevelConfiguration(
  obj: ApiObject,
  version: FlowcontrolVersion = 'v1beta3',
): FieldError[] {
  const name = objectName(obj);
  return [
    ...validatePriorityLevelConfigurationSpec(name, obj.spec, specPath, version),
    ...validateMandatoryPriorityLevelSpec(name, obj.spec, specPath),
    ...validateConditions(obj.status, statusPath),
  ];
}

export function validatePriorityLevelConfigurationUpdate(
  obj: ApiObject,
  _old: ApiObject,
  version: FlowcontrolVersion = 'v1beta3',
): FieldError[] {
  return validatePriorityLevelConfiguration(obj, version);
}

export function validatePriorityLevelConfigurationStatus(obj: ApiObject, _old: ApiObject): FieldError[] {
  return validateConditions(obj.status, statusPath);
}

/** Both kinds' status: conditions with a non-empty, unique `type`. */
function validateConditions(value: unknown, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const status = readObject(errs, path, value);
  if (status === undefined || status === WRONG_TYPE) return errs;
  const conditionsPath = path.child('conditions');
  const conditions = readList(errs, conditionsPath, status.conditions);
  if (conditions === undefined || conditions === WRONG_TYPE) return errs;
  const seen = new Set<string>();
  conditions.forEach((item, i) => {
    const itemPath = conditionsPath.index(i);
    const condition = readObject(errs, itemPath, item);
    if (condition === WRONG_TYPE) return;
    const c = condition ?? {};
    const typePath = itemPath.child('type');
    const type = readString(errs, typePath, c.type);
    if (type !== WRONG_TYPE) {
      const t = type ?? '';
      if (seen.has(t)) errs.push(duplicate(typePath, t));
      seen.add(t);
      if (t === '') errs.push(required(typePath, 'must not be empty'));
    }
    for (const field of ['status', 'reason', 'message']) readString(errs, itemPath.child(field), c[field]);
    readTimestamp(errs, itemPath.child('lastTransitionTime'), c.lastTransitionTime);
  });
  return errs;
}

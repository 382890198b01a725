// Validation of rbac.authorization.orch.io/v1 kinds (Kubernetes 1.26 pkg/apis/rbac/validation); ObjectMeta is the store's.
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { FieldError } from '../../apimachinery/field/errors';
import { goLiteral, goQuote, invalidValue, notSupported, required } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import { isDNS1123Subdomain, isValidPathSegmentName } from '../../apimachinery/validation/names';
import { goStringSliceText } from '../../apimachinery/validation/untrusted-json';
import {
  labelSelectorAsSelector,
  labelSelectorLiteral,
  readLabelSelector,
  validateLabelSelector,
} from '../apps/label-selector';
import { GROUP_KIND, RBAC_GROUP, SERVICE_ACCOUNT_KIND, USER_KIND, isRbacGroup, roleRefOf, type RoleRef } from './types';

/** ValidateRBACName: roles and bindings are named like path segments. */
export const validateRbacName = (name: string): string[] => isValidPathSegmentName(name);

function stringList(value: unknown): string[] | undefined {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined;
}

function validatePolicyRule(rule: Record<string, unknown>, namespaced: boolean, path: FieldPath): FieldError[] {
  const errs: FieldError[] = [];
  const verbs = stringList(rule['verbs']) ?? [];
  const urls = stringList(rule['nonResourceURLs']);
  const groups = stringList(rule['apiGroups']) ?? [];
  const resources = stringList(rule['resources']) ?? [];
  const names = stringList(rule['resourceNames']) ?? [];
  if (verbs.length === 0) errs.push(required(path.child('verbs'), 'verbs must contain at least one value'));
  if (urls && urls.length > 0) {
    const shown = goLiteral(goStringSliceText(urls));
    if (namespaced)
      errs.push(
        invalidValue(path.child('nonResourceURLs'), shown, 'namespaced rules cannot apply to non-resource URLs'),
      );
    if (groups.length > 0 || resources.length > 0 || names.length > 0)
      errs.push(
        invalidValue(
          path.child('nonResourceURLs'),
          shown,
          'rules cannot apply to both regular resources and non-resource URLs',
        ),
      );
    return errs;
  }
  if (groups.length === 0)
    errs.push(required(path.child('apiGroups'), 'resource rules must supply at least one api group'));
  if (resources.length === 0)
    errs.push(required(path.child('resources'), 'resource rules must supply at least one resource'));
  return errs;
}

function validateRules(obj: ApiObject, namespaced: boolean): FieldError[] {
  const rules = obj['rules'];
  if (!Array.isArray(rules)) return [];
  return rules.flatMap((rule, i) =>
    isPlainObject(rule) ? validatePolicyRule(rule, namespaced, FieldPath.root('rules').index(i)) : [],
  );
}

export function validateRole(obj: ApiObject): FieldError[] {
  return validateRules(obj, true);
}

export function validateClusterRole(obj: ApiObject): FieldError[] {
  const errs = validateRules(obj, false);
  const rule = obj['aggregationRule'];
  if (!isPlainObject(rule)) return errs;
  const selectorsPath = FieldPath.root('aggregationRule', 'clusterRoleSelectors');
  const selectors = Array.isArray(rule['clusterRoleSelectors']) ? rule['clusterRoleSelectors'] : [];
  if (selectors.length === 0)
    errs.push(required(selectorsPath, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
  selectors.forEach((value, i) => {
    const path = selectorsPath.index(i);
    const readErrs: FieldError[] = [];
    const selector = readLabelSelector(readErrs, path, value);
    if (selector === undefined || typeof selector !== 'object') return void errs.push(...readErrs);
    // ValidateLabelSelector without the workloads' non-empty rule: an empty selector selects every ClusterRole.
    errs.push(...validateLabelSelector(selector, path, '').filter((e) => e.field !== path.toString()));
    if (labelSelectorAsSelector(selector) === undefined)
      errs.push(invalidValue(path, labelSelectorLiteral(selector), 'invalid label selector.'));
  });
  return errs;
}

function validateSubjects(obj: ApiObject, namespaced: boolean): FieldError[] {
  const subjects = obj['subjects'];
  if (!Array.isArray(subjects)) return [];
  const errs: FieldError[] = [];
  subjects.forEach((s, i) => {
    if (!isPlainObject(s)) return;
    const path = FieldPath.root('subjects').index(i);
    const name = typeof s['name'] === 'string' ? s['name'] : '';
    const apiGroup = typeof s['apiGroup'] === 'string' ? s['apiGroup'] : '';
    const kind = typeof s['kind'] === 'string' ? s['kind'] : '';
    if (name === '') errs.push(required(path.child('name')));
    switch (kind) {
      case SERVICE_ACCOUNT_KIND:
        if (name !== '')
          for (const msg of isDNS1123Subdomain(name)) errs.push(invalidValue(path.child('name'), name, msg));
        if (apiGroup !== '') errs.push(notSupported(path.child('apiGroup'), apiGroup, ['']));
        if (!namespaced && (typeof s['namespace'] !== 'string' || s['namespace'] === ''))
          errs.push(required(path.child('namespace')));
        break;
      case USER_KIND:
      case GROUP_KIND:
        if (!isRbacGroup(apiGroup)) errs.push(notSupported(path.child('apiGroup'), apiGroup, [RBAC_GROUP]));
        break;
      default:
        errs.push(notSupported(path.child('kind'), kind, [SERVICE_ACCOUNT_KIND, USER_KIND, GROUP_KIND]));
    }
  });
  return errs;
}

function validateBinding(obj: ApiObject, namespaced: boolean): FieldError[] {
  const errs: FieldError[] = [];
  const ref = roleRefOf(obj);
  if (!isRbacGroup(ref.apiGroup))
    errs.push(notSupported(FieldPath.root('roleRef', 'apiGroup'), ref.apiGroup, [RBAC_GROUP]));
  const kinds = namespaced ? ['Role', 'ClusterRole'] : ['ClusterRole'];
  if (!kinds.includes(ref.kind)) errs.push(notSupported(FieldPath.root('roleRef', 'kind'), ref.kind, kinds));
  if (ref.name === '') errs.push(required(FieldPath.root('roleRef', 'name')));
  else
    for (const msg of validateRbacName(ref.name))
      errs.push(invalidValue(FieldPath.root('roleRef', 'name'), ref.name, msg));
  errs.push(...validateSubjects(obj, namespaced));
  return errs;
}

/** Go's `%#v` of rbac.RoleRef, the value of the `cannot change roleRef` error. */
function roleRefLiteral(ref: RoleRef) {
  return goLiteral(
    `rbac.RoleRef{APIGroup:${goQuote(ref.apiGroup)}, Kind:${goQuote(ref.kind)}, Name:${goQuote(ref.name)}}`,
  );
}

function validateBindingUpdate(obj: ApiObject, old: ApiObject, namespaced: boolean): FieldError[] {
  const errs = validateBinding(obj, namespaced);
  const ref = roleRefOf(obj);
  const oldRef = roleRefOf(old);
  if (ref.apiGroup !== oldRef.apiGroup || ref.kind !== oldRef.kind || ref.name !== oldRef.name)
    errs.push(invalidValue(FieldPath.root('roleRef'), roleRefLiteral(ref), 'cannot change roleRef'));
  return errs;
}

export const validateRoleBinding = (obj: ApiObject): FieldError[] => validateBinding(obj, true);
export const validateRoleBindingUpdate = (obj: ApiObject, old: ApiObject): FieldError[] =>
  validateBindingUpdate(obj, old, true);
export const validateClusterRoleBinding = (obj: ApiObject): FieldError[] => validateBinding(obj, false);
export const validateClusterRoleBindingUpdate = (obj: ApiObject, old: ApiObject): FieldError[] =>
  validateBindingUpdate(obj, old, false);

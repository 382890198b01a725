// rbac.authorization.orch.io/v1 shapes (k8s.io/api rbac/v1) as the validation, authorizer and printers read them.
import { isPlainObject, type ApiObject } from '../../apimachinery/meta/types';

export const RBAC_GROUP = 'rbac.authorization.orch.io';
export const RBAC_K8S_GROUP = 'rbac.authorization.k8s.io';

export const SERVICE_ACCOUNT_KIND = 'ServiceAccount';
export const USER_KIND = 'User';
export const GROUP_KIND = 'Group';

export const VERB_ALL = '*';
export const API_GROUP_ALL = '*';
export const RESOURCE_ALL = '*';
export const NON_RESOURCE_ALL = '*';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

export interface Subject {
  kind: string;
  apiGroup?: string;
  name: string;
  namespace?: string;
}

export interface RoleRef {
  apiGroup: string;
  kind: string;
  name: string;
}

/** Whether `group` names the RBAC group (either spelling). */
export function isRbacGroup(group: string | undefined): boolean {
  return group === RBAC_GROUP || group === RBAC_K8S_GROUP;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** The rules of a Role or ClusterRole (decoded objects: fields already of their Go types). */
export function rulesOf(obj: ApiObject): PolicyRule[] {
  const rules = obj['rules'];
  if (!Array.isArray(rules)) return [];
  return rules.filter(isPlainObject).map((r) => ({
    verbs: strings(r['verbs']),
    apiGroups: strings(r['apiGroups']),
    resources: strings(r['resources']),
    resourceNames: strings(r['resourceNames']),
    nonResourceURLs: strings(r['nonResourceURLs']),
  }));
}

export function subjectsOf(obj: ApiObject): Subject[] {
  const subjects = obj['subjects'];
  if (!Array.isArray(subjects)) return [];
  return subjects.filter(isPlainObject).map((s) => ({
    kind: typeof s['kind'] === 'string' ? s['kind'] : '',
    apiGroup: typeof s['apiGroup'] === 'string' ? s['apiGroup'] : '',
    name: typeof s['name'] === 'string' ? s['name'] : '',
    namespace: typeof s['namespace'] === 'string' ? s['namespace'] : '',
  }));
}

export function roleRefOf(obj: ApiObject): RoleRef {
  const ref = isPlainObject(obj['roleRef']) ? obj['roleRef'] : {};
  const text = (k: string): string => (typeof ref[k] === 'string' ? (ref[k] as string) : '');
  return { apiGroup: text('apiGroup'), kind: text('kind'), name: text('name') };
}

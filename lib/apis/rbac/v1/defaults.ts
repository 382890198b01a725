// Defaults of rbac.authorization.orch.io/v1 (Kubernetes 1.26 pkg/apis/rbac/v1/defaults.go): binding roleRef and subject API groups.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { GROUP_KIND, RBAC_GROUP, USER_KIND } from '../types';

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

/** RoleBinding and ClusterRoleBinding: roleRef.apiGroup, and User/Group subjects' apiGroup, default to the RBAC group. */
export function applyBindingDefaults(obj: ApiObject): void {
  const ref = obj['roleRef'];
  if (isPlainObject(ref) && isEmpty(ref['apiGroup'])) ref['apiGroup'] = RBAC_GROUP;
  const subjects = obj['subjects'];
  if (!Array.isArray(subjects)) return;
  for (const subject of subjects) {
    if (!isPlainObject(subject) || !isEmpty(subject['apiGroup'])) continue;
    if (subject['kind'] === USER_KIND || subject['kind'] === GROUP_KIND) subject['apiGroup'] = RBAC_GROUP;
  }
}

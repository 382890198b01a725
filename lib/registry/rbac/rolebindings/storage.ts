// How rolebindings are served (pkg/registry/rbac/rolebinding/policybased): writes pass the escalation check.
import { RBAC_GROUP } from '../../../apis/rbac/types';
import type { RegistrationOptions, ResourceRegistration } from '../../rest/registration';
import { roleBindingStrategy } from './strategy';

export const roleBindingRegistration = ({ rbacGuard }: RegistrationOptions): ResourceRegistration => ({
  definition: {
    group: RBAC_GROUP,
    version: 'v1',
    resource: 'rolebindings',
    kind: 'RoleBinding',
    listKind: 'RoleBindingList',
    shortNames: [],
    categories: [],
    strategy: roleBindingStrategy,
  },
  ...(rbacGuard ? { guard: rbacGuard } : {}),
});

// How roles are served (pkg/registry/rbac/role/policybased): writes pass the escalation check.
import { RBAC_GROUP } from '../../../apis/rbac/types';
import type { RegistrationOptions, ResourceRegistration } from '../../rest/registration';
import { roleStrategy } from './strategy';

export const roleRegistration = ({ rbacGuard }: RegistrationOptions): ResourceRegistration => ({
  definition: {
    group: RBAC_GROUP,
    version: 'v1',
    resource: 'roles',
    kind: 'Role',
    listKind: 'RoleList',
    shortNames: [],
    categories: [],
    strategy: roleStrategy,
  },
  ...(rbacGuard ? { guard: rbacGuard } : {}),
});

// How clusterroles are served (pkg/registry/rbac/clusterrole/policybased): writes pass the escalation check.
import { RBAC_GROUP } from '../../../apis/rbac/types';
import type { RegistrationOptions, ResourceRegistration } from '../../rest/registration';
import { clusterRoleStrategy } from './strategy';

export const clusterRoleRegistration = ({ rbacGuard }: RegistrationOptions): ResourceRegistration => ({
  definition: {
    group: RBAC_GROUP,
    version: 'v1',
    resource: 'clusterroles',
    kind: 'ClusterRole',
    listKind: 'ClusterRoleList',
    shortNames: [],
    categories: [],
    strategy: clusterRoleStrategy,
  },
  ...(rbacGuard ? { guard: rbacGuard } : {}),
});

// How clusterrolebindings are served (pkg/registry/rbac/clusterrolebinding/policybased): writes pass the escalation check.
import { RBAC_GROUP } from '../../../apis/rbac/types';
import type { RegistrationOptions, ResourceRegistration } from '../../rest/registration';
import { clusterRoleBindingStrategy } from './strategy';

export const clusterRoleBindingRegistration = ({ rbacGuard }: RegistrationOptions): ResourceRegistration => ({
  definition: {
    group: RBAC_GROUP,
    version: 'v1',
    resource: 'clusterrolebindings',
    kind: 'ClusterRoleBinding',
    listKind: 'ClusterRoleBindingList',
    shortNames: [],
    categories: [],
    strategy: clusterRoleBindingStrategy,
  },
  ...(rbacGuard ? { guard: rbacGuard } : {}),
});

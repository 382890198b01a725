// ClusterRoleBinding registry behaviour: cluster-scoped, roleRef to a ClusterRole and immutable, service accounts need a namespace.
import { withKubeFinalizerNames } from '../../../apis/core/validation-object-meta';
import { applyBindingDefaults } from '../../../apis/rbac/v1/defaults';
import {
  validateClusterRoleBinding,
  validateClusterRoleBindingUpdate,
  validateRbacName,
} from '../../../apis/rbac/validation';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { bindingTable } from '../binding-table';

const ROLE_REF_DOC =
  'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';

export const clusterRoleBindingStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: false,
  validateName: validateRbacName,
  applyDefaults: applyBindingDefaults,
  validate: withKubeFinalizerNames(validateClusterRoleBinding),
  validateUpdate: withKubeFinalizerNames(validateClusterRoleBindingUpdate),
  table: bindingTable('clusterRoleBinding', ROLE_REF_DOC),
};

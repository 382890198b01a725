// RoleBinding registry behaviour: namespaced, roleRef to a Role or ClusterRole and immutable, subjects validated.
import { withKubeFinalizerNames } from '../../../apis/core/validation-object-meta';
import { applyBindingDefaults } from '../../../apis/rbac/v1/defaults';
import { validateRbacName, validateRoleBinding, validateRoleBindingUpdate } from '../../../apis/rbac/validation';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { bindingTable } from '../binding-table';

const ROLE_REF_DOC =
  'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';

export const roleBindingStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: true,
  validateName: validateRbacName,
  applyDefaults: applyBindingDefaults,
  validate: withKubeFinalizerNames(validateRoleBinding),
  validateUpdate: withKubeFinalizerNames(validateRoleBindingUpdate),
  table: bindingTable('roleBinding', ROLE_REF_DOC),
};

// ClusterRole registry behaviour: cluster-scoped, path-segment names, rules plus aggregationRule selectors validated.
import { withKubeFinalizerNames } from '../../../apis/core/validation-object-meta';
import { validateClusterRole, validateRbacName } from '../../../apis/rbac/validation';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';

export const clusterRoleStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: false,
  validateName: validateRbacName,
  validate: withKubeFinalizerNames(validateClusterRole),
  validateUpdate: withKubeFinalizerNames((obj) => validateClusterRole(obj)),
};

// Role registry behaviour: namespaced, path-segment names, rules validated as namespaced rules (no non-resource URLs).
import { withKubeFinalizerNames } from '../../../apis/core/validation-object-meta';
import { validateRbacName, validateRole } from '../../../apis/rbac/validation';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';

export const roleStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: true,
  validateName: validateRbacName,
  validate: withKubeFinalizerNames(validateRole),
  validateUpdate: withKubeFinalizerNames((obj) => validateRole(obj)),
};

// Role registry behaviour: namespaced, path-segment names, rules validated as namespaced rules (no non-resource URLs).
import { validateRbacName, validateRole } from '../../../apis/rbac/validation';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';

export const roleStrategy: Strategy = {
  ...defaultStrategy,
  namespaced: true,
  validateName: validateRbacName,
  validate: validateRole,
  validateUpdate: (obj) => validateRole(obj),
};

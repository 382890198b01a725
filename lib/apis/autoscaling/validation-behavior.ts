// HorizontalPodAutoscaler spec.behavior validation (validateBehavior, validateScalingRules, validateScalingPolicy) with the 1.26 texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { invalidValue, notSupported, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import {
  WRONG_TYPE,
  readInt32,
  readObject,
  readObjectList,
  readString,
} from '../../apimachinery/validation/untrusted-json';

/** MaxPeriodSeconds: the largest scaling policy period. */
const MAX_PERIOD_SECONDS = 1800;
/** MaxStabilizationWindowSeconds */
const MAX_STABILIZATION_WINDOW_SECONDS = 3600;
const SELECT_POLICIES = ['Disabled', 'Max', 'Min'];
const POLICY_TYPES = ['Percent', 'Pods'];

function validateScalingPolicy(errs: FieldError[], policy: Record<string, unknown>, path: FieldPath): void {
  const type = readString(errs, path.child('type'), policy.type);
  if (type !== WRONG_TYPE && !POLICY_TYPES.includes(type ?? ''))
    errs.push(notSupported(path.child('type'), type ?? '', POLICY_TYPES));
  const value = readInt32(errs, path.child('value'), policy.value);
  if (value !== WRONG_TYPE && (value ?? 0) <= 0)
    errs.push(invalidValue(path.child('value'), value ?? 0, 'must be greater than zero'));
  const period = readInt32(errs, path.child('periodSeconds'), policy.periodSeconds);
  if (period === WRONG_TYPE) return;
  if ((period ?? 0) <= 0)
    errs.push(invalidValue(path.child('periodSeconds'), period ?? 0, 'must be greater than zero'));
  if ((period ?? 0) > MAX_PERIOD_SECONDS)
    errs.push(
      invalidValue(path.child('periodSeconds'), period ?? 0, `must be less than or equal to ${MAX_PERIOD_SECONDS}`),
    );
}

function validateScalingRules(errs: FieldError[], value: unknown, path: FieldPath): void {
  const rules = readObject(errs, path, value);
  if (rules === undefined || rules === WRONG_TYPE) return;
  const windowPath = path.child('stabilizationWindowSeconds');
  const window = readInt32(errs, windowPath, rules.stabilizationWindowSeconds);
  if (typeof window === 'number' && window < 0)
    errs.push(invalidValue(windowPath, window, 'must be greater than or equal to zero'));
  if (typeof window === 'number' && window > MAX_STABILIZATION_WINDOW_SECONDS) {
    errs.push(invalidValue(windowPath, window, `must be less than or equal to ${MAX_STABILIZATION_WINDOW_SECONDS}`));
  }
  const select = readString(errs, path.child('selectPolicy'), rules.selectPolicy);
  if (typeof select === 'string' && !SELECT_POLICIES.includes(select))
    errs.push(notSupported(path.child('selectPolicy'), select, SELECT_POLICIES));
  const policiesPath = path.child('policies');
  const policies = readObjectList(errs, policiesPath, rules.policies);
  if (policies === WRONG_TYPE) return;
  if (policies === undefined || policies.length === 0)
    errs.push(required(policiesPath, 'must specify at least one Policy'));
  policies?.forEach((policy, i) => {
    if (policy !== WRONG_TYPE) validateScalingPolicy(errs, policy ?? {}, policiesPath.index(i));
  });
}

/** validateBehavior: scaleUp then scaleDown, each only when present. */
export function validateBehavior(errs: FieldError[], value: unknown, path: FieldPath): void {
  const behavior = readObject(errs, path, value);
  if (behavior === undefined || behavior === WRONG_TYPE) return;
  validateScalingRules(errs, behavior.scaleUp, path.child('scaleUp'));
  validateScalingRules(errs, behavior.scaleDown, path.child('scaleDown'));
}

// HorizontalPodAutoscaler validation on the autoscaling/v2 (internal) shape with pkg/apis/autoscaling/validation's 1.26 texts and paths.
import type { FieldError } from '../../apimachinery/field/errors';
import { invalidValue } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import { WRONG_TYPE, readInt32, readObject } from '../../apimachinery/validation/untrusted-json';
import { validateKubeFinalizerNames } from '../core/validation-object-meta';
import { validateCrossVersionObjectReference, validateMetrics } from './validation-metrics';
import { validateBehavior } from './validation-behavior';

export interface HorizontalPodAutoscalerValidationOptions {
  /** Feature gate HPAScaleToZero (alpha, off in 1.26): minReplicas may be 0. */
  hpaScaleToZero: boolean;
  /** Feature gate HPAContainerMetrics (alpha, off in 1.26). */
  hpaContainerMetrics?: boolean;
}

const DEFAULT_OPTIONS: HorizontalPodAutoscalerValidationOptions = { hpaScaleToZero: false };

const specPath = FieldPath.root('spec');

/**
 * validateHorizontalPodAutoscalerSpec. A v1 request is converted first, so its errors name the internal
 * paths as in Kubernetes (`targetCPUUtilizationPercentage: 0` → `spec.metrics[n].resource.target.averageUtilization`).
 */
function validateSpec(
  errs: FieldError[],
  obj: ApiObject,
  minReplicasLowerBound: number,
  options: HorizontalPodAutoscalerValidationOptions,
): void {
  const spec = readObject(errs, specPath, obj.spec);
  if (spec === WRONG_TYPE) return;
  const s = spec ?? {};
  const minReplicas = readInt32(errs, specPath.child('minReplicas'), s.minReplicas);
  const min = typeof minReplicas === 'number' ? minReplicas : undefined;
  if (min !== undefined && min < minReplicasLowerBound) {
    errs.push(
      invalidValue(specPath.child('minReplicas'), min, `must be greater than or equal to ${minReplicasLowerBound}`),
    );
  }
  const maxReplicas = readInt32(errs, specPath.child('maxReplicas'), s.maxReplicas);
  if (maxReplicas !== WRONG_TYPE) {
    const max = maxReplicas ?? 0;
    if (max < 1) errs.push(invalidValue(specPath.child('maxReplicas'), max, 'must be greater than 0'));
    if (min !== undefined && max < min)
      errs.push(invalidValue(specPath.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  }
  validateCrossVersionObjectReference(errs, s.scaleTargetRef, specPath.child('scaleTargetRef'));
  validateMetrics(errs, s.metrics, specPath.child('metrics'), min, {
    hpaContainerMetrics: options.hpaContainerMetrics === true,
  });
  validateBehavior(errs, s.behavior, specPath.child('behavior'));
}

function minReplicasOf(obj: ApiObject): unknown {
  return isPlainObject(obj.spec) ? obj.spec.minReplicas : undefined;
}

/** ValidateHorizontalPodAutoscaler (kind part; ObjectMeta's generic rules are the store's). */
export function validateHorizontalPodAutoscaler(
  obj: ApiObject,
  options: HorizontalPodAutoscalerValidationOptions = DEFAULT_OPTIONS,
): FieldError[] {
  const errs = validateKubeFinalizerNames(obj.metadata);
  validateSpec(errs, obj, options.hpaScaleToZero ? 0 : 1, options);
  return errs;
}

/** ValidateHorizontalPodAutoscalerUpdate: minReplicas 0 stays allowed when the stored object already has it. */
export function validateHorizontalPodAutoscalerUpdate(
  obj: ApiObject,
  old: ApiObject,
  options: HorizontalPodAutoscalerValidationOptions = DEFAULT_OPTIONS,
): FieldError[] {
  const errs = validateKubeFinalizerNames(obj.metadata);
  validateSpec(errs, obj, options.hpaScaleToZero || minReplicasOf(old) === 0 ? 0 : 1, options);
  return errs;
}

/** ValidateHorizontalPodAutoscalerStatusUpdate: the replica counters are not negative. */
export function validateHorizontalPodAutoscalerStatus(obj: ApiObject, _old: ApiObject): FieldError[] {
  const errs = validateKubeFinalizerNames(obj.metadata);
  const statusPath = FieldPath.root('status');
  const status = readObject(errs, statusPath, obj.status);
  if (status === WRONG_TYPE) return errs;
  for (const counter of ['currentReplicas', 'desiredReplicas']) {
    const n = readInt32(errs, statusPath.child(counter), status?.[counter]);
    if (typeof n === 'number' && n < 0)
      errs.push(invalidValue(statusPath.child(counter), n, 'must be greater than or equal to 0'));
  }
  return errs;
}

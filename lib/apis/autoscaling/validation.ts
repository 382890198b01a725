// HorizontalPodAutoscaler (autoscaling/v1) validation with pkg/apis/autoscaling/validation's 1.26 texts and paths.
import type { FieldError } from '../../apimachinery/field/errors';
import { forbiddenField, invalidValue, required } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import { isValidPathSegmentName } from '../../apimachinery/validation/names';
import type { JsonObject } from '../../apimachinery/validation/untrusted-json';
import { WRONG_TYPE, readInt32, readObject, readString } from '../../apimachinery/validation/untrusted-json';
import { validateKubeFinalizerNames } from '../core/validation-object-meta';
import { METRICS_ANNOTATION } from './annotations';

export interface HorizontalPodAutoscalerValidationOptions {
  /** Feature gate HPAScaleToZero (alpha, off in 1.26): minReplicas may be 0. */
  hpaScaleToZero: boolean;
}

const DEFAULT_OPTIONS: HorizontalPodAutoscalerValidationOptions = { hpaScaleToZero: false };

const OBJECT_OR_EXTERNAL = new Set(['Object', 'External']);
const SCALE_TO_ZERO_NEEDS_METRIC = 'must specify at least one Object or External metric to support scaling to zero replicas';

const specPath = FieldPath.root('spec');
const metricsPath = specPath.child('metrics');

/**
 * The legacy metrics of the round-trip annotation, or [] when it is absent or does not parse (ignored upstream
 * too). The conversion puts them first in the stored metric list, before the cpu target.
 */
function annotationMetrics(obj: ApiObject): unknown[] {
  const raw = obj.metadata.annotations?.[METRICS_ANNOTATION];
  if (typeof raw !== 'string') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** ValidateCrossVersionObjectReference */
function validateCrossVersionObjectReference(errs: FieldError[], value: unknown, path: FieldPath): void {
  const ref = readObject(errs, path, value);
  if (ref === WRONG_TYPE) return;
  for (const key of ['kind', 'name']) {
    const s = readString(errs, path.child(key), ref?.[key]);
    if (s === WRONG_TYPE) continue;
    if (!s) errs.push(required(path.child(key)));
    else for (const msg of isValidPathSegmentName(s)) errs.push(invalidValue(path.child(key), s, msg));
  }
  readString(errs, path.child('apiVersion'), ref?.apiVersion);
}

/**
 * validateMetrics over the metric list a v1 object converts to: the annotation's metrics, then the cpu
 * Resource metric from `targetCPUUtilizationPercentage` (reported at its internal path).
 */
function validateV1Metrics(errs: FieldError[], spec: JsonObject, extra: readonly unknown[], minReplicas: number | undefined): void {
  const target = readInt32(errs, specPath.child('targetCPUUtilizationPercentage'), spec.targetCPUUtilizationPercentage);
  if (typeof target === 'number' && target < 1) {
    errs.push(invalidValue(metricsPath.index(extra.length).child('resource', 'target', 'averageUtilization'), target, 'must be greater than 0'));
  }
  const scalesToZero = extra.some((m) => isPlainObject(m) && typeof m.type === 'string' && OBJECT_OR_EXTERNAL.has(m.type));
  if (minReplicas === 0 && !scalesToZero) errs.push(forbiddenField(metricsPath, SCALE_TO_ZERO_NEEDS_METRIC));
}

/** validateHorizontalPodAutoscalerSpec */
function validateSpec(errs: FieldError[], obj: ApiObject, minReplicasLowerBound: number): void {
  const spec = readObject(errs, specPath, obj.spec);
  if (spec === WRONG_TYPE) return;
  const s = spec ?? {};
  const minReplicas = readInt32(errs, specPath.child('minReplicas'), s.minReplicas);
  const min = typeof minReplicas === 'number' ? minReplicas : undefined;
  if (min !== undefined && min < minReplicasLowerBound) {
    errs.push(invalidValue(specPath.child('minReplicas'), min, `must be greater than or equal to ${minReplicasLowerBound}`));
  }
  const maxReplicas = readInt32(errs, specPath.child('maxReplicas'), s.maxReplicas);
  if (maxReplicas !== WRONG_TYPE) {
    const max = maxReplicas ?? 0;
    if (max < 1) errs.push(invalidValue(specPath.child('maxReplicas'), max, 'must be greater than 0'));
    if (min !== undefined && max < min) errs.push(invalidValue(specPath.child('maxReplicas'), max, 'must be greater than or equal to `minReplicas`'));
  }
  validateCrossVersionObjectReference(errs, s.scaleTargetRef, specPath.child('scaleTargetRef'));
  validateV1Metrics(errs, s, annotationMetrics(obj), min);
}

function minReplicasOf(obj: ApiObject): unknown {
  return isPlainObject(obj.spec) ? obj.spec.minReplicas : undefined;
}

/** ValidateHorizontalPodAutoscaler (kind part; ObjectMeta's generic rules are the store's). */
export function validateHorizontalPodAutoscaler(obj: ApiObject, options: HorizontalPodAutoscalerValidationOptions = DEFAULT_OPTIONS): FieldError[] {
  const errs = validateKubeFinalizerNames(obj.metadata);
  validateSpec(errs, obj, options.hpaScaleToZero ? 0 : 1);
  return errs;
}

/** ValidateHorizontalPodAutoscalerUpdate: minReplicas 0 stays allowed when the stored object already has it. */
export function validateHorizontalPodAutoscalerUpdate(
  obj: ApiObject,
  old: ApiObject,
  options: HorizontalPodAutoscalerValidationOptions = DEFAULT_OPTIONS,
): FieldError[] {
  const errs = validateKubeFinalizerNames(obj.metadata);
  validateSpec(errs, obj, options.hpaScaleToZero || minReplicasOf(old) === 0 ? 0 : 1);
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
    if (typeof n === 'number' && n < 0) errs.push(invalidValue(statusPath.child(counter), n, 'must be greater than or equal to 0'));
  }
  return errs;
}

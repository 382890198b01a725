// HorizontalPodAutoscaler registry behaviour (pkg/registry/autoscaling/horizontalpodautoscaler), 1.26: stored as autoscaling/v2, no generation tracking.
import type { ApiObject } from '../../../apimachinery/meta/types';
import type { HorizontalPodAutoscalerValidationOptions } from '../../../apis/autoscaling/validation';
import {
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerStatus,
  validateHorizontalPodAutoscalerUpdate,
} from '../../../apis/autoscaling/validation';
import { applyHorizontalPodAutoscalerV2Defaults } from '../../../apis/autoscaling/v2/defaults';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { RESET_SPEC } from '../../../apimachinery/managed-fields/reset-fields';
import { carryFromStorage } from '../../rest/spec-status';
import { asStoredHub, dropContainerMetricSources, hasContainerMetricSources } from './stored-form';
import { horizontalPodAutoscalerTable } from './table';

/** The pair of strategies for a feature-gate setting (HPAScaleToZero decides the minReplicas lower bound). */
export function horizontalPodAutoscalerStrategies(options: HorizontalPodAutoscalerValidationOptions): {
  main: Strategy;
  status: Strategy;
} {
  const containerMetrics = options.hpaContainerMetrics === true;
  const main: Strategy = {
    ...defaultStrategy,
    applyDefaults: applyHorizontalPodAutoscalerV2Defaults,
    prepareForCreate(obj: ApiObject): void {
      // The zero internal status as autoscaling/v2 prints it (desiredReplicas and currentMetrics are not omitempty).
      obj.status = { desiredReplicas: 0, currentMetrics: null };
      if (!containerMetrics) dropContainerMetricSources(obj);
    },
    prepareForUpdate(obj: ApiObject, old: ApiObject): void {
      const stored = asStoredHub(old);
      if (!containerMetrics && !hasContainerMetricSources(stored)) dropContainerMetricSources(obj);
      carryFromStorage(obj, stored, 'status');
    },
    validate: (obj) => validateHorizontalPodAutoscaler(obj, options),
    validateUpdate: (obj, old) => validateHorizontalPodAutoscalerUpdate(obj, asStoredHub(old), options),
    table: horizontalPodAutoscalerTable,
  };
  const status: Strategy = {
    ...main,
    prepareForUpdate(obj: ApiObject, old: ApiObject): void {
      carryFromStorage(obj, asStoredHub(old), 'spec');
    },
    validateUpdate: (obj, old) => validateHorizontalPodAutoscalerStatus(obj, asStoredHub(old)),
    resetFields: RESET_SPEC,
  };
  return { main, status };
}

const defaultGates = horizontalPodAutoscalerStrategies({ hpaScaleToZero: false });

/** With HPAScaleToZero off, its 1.26 default. */
export const horizontalPodAutoscalerStrategy: Strategy = defaultGates.main;
export const horizontalPodAutoscalerStatusStrategy: Strategy = defaultGates.status;

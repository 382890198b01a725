// HorizontalPodAutoscaler registry behaviour (pkg/registry/autoscaling/horizontalpodautoscaler), 1.26: no generation tracking.
import type { ApiObject } from '../../../apimachinery/meta/types';
import type { HorizontalPodAutoscalerValidationOptions } from '../../../apis/autoscaling/validation';
import {
  validateHorizontalPodAutoscaler, validateHorizontalPodAutoscalerStatus, validateHorizontalPodAutoscalerUpdate,
} from '../../../apis/autoscaling/validation';
import { applyHorizontalPodAutoscalerDefaults } from '../../../apis/autoscaling/v1/defaults';
import type { Strategy } from '../../rest/strategy';
import { defaultStrategy } from '../../rest/strategy';
import { carryFromStorage } from '../../rest/spec-status';
import { horizontalPodAutoscalerTable } from './table';

/** The pair of strategies for a feature-gate setting (HPAScaleToZero decides the minReplicas lower bound). */
export function horizontalPodAutoscalerStrategies(options: HorizontalPodAutoscalerValidationOptions): { main: Strategy; status: Strategy } {
  const main: Strategy = {
    ...defaultStrategy,
    applyDefaults: applyHorizontalPodAutoscalerDefaults,
    prepareForCreate(obj: ApiObject): void {
      // The zero status as autoscaling/v1 prints it: both counters are always emitted.
      obj.status = { currentReplicas: 0, desiredReplicas: 0 };
    },
    prepareForUpdate(obj: ApiObject, old: ApiObject): void {
      carryFromStorage(obj, old, 'status');
    },
    validate: (obj) => validateHorizontalPodAutoscaler(obj, options),
    validateUpdate: (obj, old) => validateHorizontalPodAutoscalerUpdate(obj, old, options),
    table: horizontalPodAutoscalerTable,
  };
  const status: Strategy = {
    ...main,
    prepareForUpdate(obj: ApiObject, old: ApiObject): void {
      carryFromStorage(obj, old, 'spec');
    },
    validateUpdate: validateHorizontalPodAutoscalerStatus,
  };
  return { main, status };
}

const defaultGates = horizontalPodAutoscalerStrategies({ hpaScaleToZero: false });

/** With HPAScaleToZero off, its 1.26 default. */
export const horizontalPodAutoscalerStrategy: Strategy = defaultGates.main;
export const horizontalPodAutoscalerStatusStrategy: Strategy = defaultGates.status;

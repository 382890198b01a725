// How horizontalpodautoscalers are served (pkg/registry/autoscaling/horizontalpodautoscaler/storage): stored as
// autoscaling/v2, also served as v1; /status; HPAScaleToZero decides the minReplicas lower bound.
import { applyHorizontalPodAutoscalerDefaults } from '../../../apis/autoscaling/v1/defaults';
import type { RegistrationOptions, ResourceRegistration } from '../../rest/registration';
import { horizontalPodAutoscalerStrategies } from './strategy';

export const horizontalPodAutoscalerRegistration = ({ features }: RegistrationOptions): ResourceRegistration => {
  const hpa = horizontalPodAutoscalerStrategies({ hpaScaleToZero: features.HPAScaleToZero === true });
  return {
    definition: {
      group: 'autoscaling',
      version: 'v2',
      resource: 'horizontalpodautoscalers',
      kind: 'HorizontalPodAutoscaler',
      listKind: 'HorizontalPodAutoscalerList',
      shortNames: ['hpa'],
      categories: ['all'],
      strategy: hpa.main,
      statusStrategy: hpa.status,
    },
    extraVersions: [{ version: 'v1', applyDefaults: applyHorizontalPodAutoscalerDefaults, preferred: false }],
  };
};

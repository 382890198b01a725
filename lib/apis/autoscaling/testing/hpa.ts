// A defaulted autoscaling/v2 HorizontalPodAutoscaler changed by mutations, sample metrics, and the validation texts.
import { fieldErrorText } from '../../../apimachinery/field/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { setPath } from '../../core/testing/json-path';
import { applyHorizontalPodAutoscalerV2Defaults } from '../v2/defaults';
import { validateHorizontalPodAutoscaler } from '../validation';

export type Mutation = (h: ApiObject) => void;
export const set =
  (path: string, value: unknown): Mutation =>
  (h) =>
    setPath(h, path, value);
export const all =
  (...mutations: Mutation[]): Mutation =>
  (h) =>
    mutations.forEach((m) => m(h));

export const pods = {
  type: 'Pods',
  pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } },
};
export const external = {
  type: 'External',
  external: { metric: { name: 'queue' }, target: { type: 'Value', value: '5' } },
};
export const object = {
  type: 'Object',
  object: {
    describedObject: { apiVersion: 'v1', kind: 'Service', name: 'web' },
    metric: { name: 'rps' },
    target: { type: 'Value', value: '100' },
  },
};

export function anHpa(mutate: Mutation = () => {}): ApiObject {
  const h: ApiObject = {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      maxReplicas: 5,
      metrics: [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } },
      ],
    },
  };
  applyHorizontalPodAutoscalerV2Defaults(h);
  mutate(h);
  return h;
}

export const texts = (h: ApiObject, scaleToZero = false): string[] =>
  validateHorizontalPodAutoscaler(h, { hpaScaleToZero: scaleToZero }).map(fieldErrorText);

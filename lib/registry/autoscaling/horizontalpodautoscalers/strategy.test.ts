// HorizontalPodAutoscaler strategies: status handling, feature-gated validation, /status writes.
import { fieldErrorText } from '../../../apimachinery/field/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { horizontalPodAutoscalerStatusStrategy, horizontalPodAutoscalerStrategies, horizontalPodAutoscalerStrategy } from './strategy';

function anHpa(extra: Partial<ApiObject> = {}): ApiObject {
  return {
    metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3 },
    status: { currentReplicas: 2, desiredReplicas: 2 },
    ...extra,
  };
}

describe('horizontalPodAutoscalerStrategy', () => {
  it('resets status on create and leaves generation alone (not tracked in 1.26)', () => {
    const hpa = anHpa();
    horizontalPodAutoscalerStrategy.prepareForCreate(hpa);
    expect(hpa.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
    expect(hpa.metadata.generation).toBeUndefined();
  });

  it('keeps the stored status on update', () => {
    const next = anHpa({ spec: { maxReplicas: 9 }, status: { currentReplicas: 7 } });
    horizontalPodAutoscalerStrategy.prepareForUpdate(next, anHpa());
    expect(next.spec).toEqual({ maxReplicas: 9 });
    expect(next.status).toEqual({ currentReplicas: 2, desiredReplicas: 2 });
  });

  it('applies defaults and validates with the HPAScaleToZero setting', () => {
    const hpa: ApiObject = { metadata: { name: 'web' }, spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 2 } };
    horizontalPodAutoscalerStrategy.applyDefaults(hpa);
    expect(hpa.spec).toMatchObject({ minReplicas: 1 });
    const zero = anHpa({ spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 0, maxReplicas: 3 } });
    expect(horizontalPodAutoscalerStrategy.validate(zero).map(fieldErrorText)[0]).toBe('spec.minReplicas: Invalid value: 0: must be greater than or equal to 1');
    expect(horizontalPodAutoscalerStrategies({ hpaScaleToZero: true }).main.validate(zero).map(fieldErrorText)).toEqual([
      'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
    ]);
  });
});

describe('horizontalPodAutoscalerStatusStrategy', () => {
  it('takes spec from storage and validates the counters', () => {
    const next = anHpa({ spec: { maxReplicas: 9 }, status: { currentReplicas: -1, desiredReplicas: 1 } });
    horizontalPodAutoscalerStatusStrategy.prepareForUpdate(next, anHpa());
    expect(next.spec).toEqual(anHpa().spec);
    expect(horizontalPodAutoscalerStatusStrategy.validateUpdate(next, anHpa()).map(fieldErrorText)).toEqual([
      'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

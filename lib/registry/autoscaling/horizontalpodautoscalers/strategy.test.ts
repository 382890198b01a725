// HorizontalPodAutoscaler strategies: status handling, feature-gated validation, /status writes, stored autoscaling/v1 objects as `old`.
import { fieldErrorText } from '../../../apimachinery/field/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { BEHAVIOR_ANNOTATION, METRICS_ANNOTATION } from '../../../apis/autoscaling/annotations';
import {
  horizontalPodAutoscalerStatusStrategy,
  horizontalPodAutoscalerStrategies,
  horizontalPodAutoscalerStrategy,
} from './strategy';

const CPU = { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } };

function anHpa(extra: Partial<ApiObject> = {}): ApiObject {
  return {
    metadata: { name: 'web', namespace: 'default' },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 1, maxReplicas: 3, metrics: [CPU] },
    status: { currentReplicas: 2, desiredReplicas: 2, currentMetrics: null },
    ...extra,
  };
}

/** An object as autoscaling/v1 left it in etcd: v2-only data in the round-trip annotations. */
function storedV1(): ApiObject {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: {
      name: 'web',
      namespace: 'default',
      annotations: {
        [METRICS_ANNOTATION]: '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]',
        [BEHAVIOR_ANNOTATION]:
          '{"ScaleUp":{"SelectPolicy":"Min","Policies":[{"Type":"Pods","Value":2,"PeriodSeconds":30}]}}',
      },
    },
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web' },
      minReplicas: 0,
      maxReplicas: 4,
      targetCPUUtilizationPercentage: 50,
    },
    status: { currentReplicas: 3, desiredReplicas: 4, currentCPUUtilizationPercentage: 40 },
  };
}

describe('horizontalPodAutoscalerStrategy', () => {
  it('resets status to the zero v2 status on create and leaves generation alone (not tracked in 1.26)', () => {
    const hpa = anHpa();
    horizontalPodAutoscalerStrategy.prepareForCreate(hpa);
    expect(hpa.status).toEqual({ desiredReplicas: 0, currentMetrics: null });
    expect(hpa.metadata.generation).toBeUndefined();
  });

  it('keeps the stored status on update', () => {
    const next = anHpa({ spec: { maxReplicas: 9 }, status: { currentReplicas: 7 } });
    horizontalPodAutoscalerStrategy.prepareForUpdate(next, anHpa());
    expect(next.spec).toEqual({ maxReplicas: 9 });
    expect(next.status).toEqual({ currentReplicas: 2, desiredReplicas: 2, currentMetrics: null });
  });

  it('drops containerResource members (gate HPAContainerMetrics off) unless the stored object has them', () => {
    const container = {
      type: 'ContainerResource',
      containerResource: { name: 'cpu', container: 'app', target: { type: 'Utilization', averageUtilization: 50 } },
    };
    const created = anHpa({ spec: { metrics: [structuredClone(container)] } });
    horizontalPodAutoscalerStrategy.prepareForCreate(created);
    expect(created.spec).toEqual({ metrics: [{ type: 'ContainerResource' }] });
    expect(horizontalPodAutoscalerStrategy.validate(created).map(fieldErrorText)).toContain(
      'spec.metrics[0].containerResource: Required value: must populate information for the given metric source (only allowed when HPAContainerMetrics feature is enabled)',
    );
    const kept = anHpa({ spec: { metrics: [structuredClone(container)] } });
    horizontalPodAutoscalerStrategy.prepareForUpdate(kept, anHpa({ spec: { metrics: [container] } }));
    expect(kept.spec).toEqual({ metrics: [container] });
  });

  it('applies v2 defaults and validates with the HPAScaleToZero setting', () => {
    const hpa: ApiObject = {
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 2 },
    };
    horizontalPodAutoscalerStrategy.applyDefaults(hpa);
    expect(hpa.spec).toMatchObject({ minReplicas: 1, metrics: [CPU] });
    const zero = anHpa({
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 0, maxReplicas: 3, metrics: [CPU] },
    });
    expect(horizontalPodAutoscalerStrategy.validate(zero).map(fieldErrorText)[0]).toBe(
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
    );
    expect(horizontalPodAutoscalerStrategies({ hpaScaleToZero: true }).main.validate(zero).map(fieldErrorText)).toEqual(
      [
        'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas',
      ],
    );
  });

  it('reads a stored autoscaling/v1 object as v2: its status carried over, its minReplicas 0 honoured', () => {
    const next = anHpa({
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, minReplicas: 0, maxReplicas: 4, metrics: [CPU] },
    });
    horizontalPodAutoscalerStrategy.prepareForUpdate(next, storedV1());
    expect(next.status).toEqual({
      currentReplicas: 3,
      desiredReplicas: 4,
      currentMetrics: [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 40 } } }],
    });
    expect(horizontalPodAutoscalerStrategy.validateUpdate(next, storedV1()).map(fieldErrorText)).toEqual([
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

  it('takes the v2 spec of a stored autoscaling/v1 object, annotation metrics and behavior included', () => {
    const next = anHpa({ spec: {} });
    horizontalPodAutoscalerStatusStrategy.prepareForUpdate(next, storedV1());
    expect(next.spec).toEqual({
      scaleTargetRef: { kind: 'Deployment', name: 'web' },
      minReplicas: 0,
      maxReplicas: 4,
      metrics: [
        { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
        { ...CPU, resource: { ...CPU.resource, target: { type: 'Utilization', averageUtilization: 50 } } },
      ],
      behavior: { scaleUp: { selectPolicy: 'Min', policies: [{ type: 'Pods', value: 2, periodSeconds: 30 }] } },
    });
  });
});

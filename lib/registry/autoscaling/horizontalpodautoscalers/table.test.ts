// HorizontalPodAutoscaler printer columns, including the Targets cell for v1 and v2 shapes.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { horizontalPodAutoscalerTable } from './table';

const now = new Date('2024-01-02T03:04:05Z');

function anHpa(
  spec: Record<string, unknown>,
  status: unknown = { currentReplicas: 0, desiredReplicas: 0 },
  annotations?: Record<string, string>,
): ApiObject {
  return {
    metadata: {
      name: 'web',
      creationTimestamp: '2024-01-01T03:04:05Z',
      ...(annotations === undefined ? {} : { annotations }),
    },
    spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 5, ...spec },
    status,
  };
}

describe('horizontalPodAutoscalerTable', () => {
  it('has the 1.26 columns', () => {
    expect(horizontalPodAutoscalerTable.columns.map((c) => c.name)).toEqual([
      'Name',
      'Reference',
      'Targets',
      'MinPods',
      'MaxPods',
      'Replicas',
      'Age',
    ]);
  });

  it('prints a v1 row', () => {
    const hpa = anHpa(
      { minReplicas: 1, targetCPUUtilizationPercentage: 80 },
      { currentReplicas: 2, desiredReplicas: 2, currentCPUUtilizationPercentage: 50 },
    );
    expect(horizontalPodAutoscalerTable.cells(hpa, now)).toEqual([
      'web',
      'Deployment/web',
      '50%/80%',
      '1',
      5,
      2,
      '24h',
    ]);
  });

  it.each<[string, ApiObject, string]>([
    ['no current value yet', anHpa({ targetCPUUtilizationPercentage: 70 }), '<unknown>/70%'],
    ['no target (the conversion default)', anHpa({}), '<unknown>/80%'],
    [
      'annotation metrics first, then cpu',
      anHpa(
        { targetCPUUtilizationPercentage: 60 },
        { currentReplicas: 1 },
        {
          'autoscaling.alpha.orch.io/metrics':
            '[{"type":"Pods","pods":{"metricName":"qps","targetAverageValue":"10"}}]',
          'autoscaling.alpha.orch.io/current-metrics':
            '[{"type":"Pods","pods":{"metricName":"qps","currentAverageValue":"4"}},{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":30}}]',
        },
      ),
      '4/10, 30%/60%',
    ],
    [
      'more than two metrics (v2 shape)',
      anHpa(
        {
          metrics: [
            { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '100Mi' } } },
            {
              type: 'External',
              external: { metric: { name: 'q' }, target: { type: 'AverageValue', averageValue: '30' } },
            },
            { type: 'Object', object: { metric: { name: 'r' }, target: { type: 'Value', value: '5' } } },
          ],
        },
        { currentMetrics: [{ type: 'Resource', resource: { name: 'memory', current: { averageValue: '50Mi' } } }] },
      ),
      '50Mi/100Mi, <unknown>/30 (avg) + 1 more...',
    ],
    ['no metrics (v2 shape)', anHpa({ metrics: [] }), '<none>'],
    ['an unknown type', anHpa({ metrics: [{ type: 'Foo' }] }), '<unknown type>'],
  ])('prints Targets for %s', (_name, hpa, targets) => {
    expect(horizontalPodAutoscalerTable.cells(hpa, now)[2]).toBe(targets);
  });

  it('prints <unset> without minReplicas and survives malformed objects', () => {
    expect(horizontalPodAutoscalerTable.cells({ metadata: {}, spec: 'x', status: 7 }, now)).toEqual([
      '',
      '/',
      '<unknown>/80%',
      '<unset>',
      0,
      0,
      '<unknown>',
    ]);
  });
});

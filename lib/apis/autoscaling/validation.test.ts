// Pins the HorizontalPodAutoscaler defaults, spec, update and status validation texts of 1.26 on the autoscaling/v2 (internal) shape, and v1 requests' internal paths.
import { fieldErrorText } from '../../apimachinery/field/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { applyHorizontalPodAutoscalerDefaults } from './v1/defaults';
import { applyHorizontalPodAutoscalerV2Defaults } from './v2/defaults';
import { METRICS_ANNOTATION } from './annotations';
import { hpaV1ToV2 } from './conversion-v1-v2';
import {
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerStatus,
  validateHorizontalPodAutoscalerUpdate,
} from './validation';
import { all, anHpa, external, object, pods, set, texts } from './testing/hpa';
import type { Mutation } from './testing/hpa';

const SCALE_TO_ZERO =
  'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas';

describe('applyHorizontalPodAutoscalerDefaults (v1)', () => {
  it('defaults minReplicas to 1 and nothing else', () => {
    const h: ApiObject = { metadata: { name: 'x' }, spec: { maxReplicas: 5, targetCPUUtilizationPercentage: 70 } };
    applyHorizontalPodAutoscalerDefaults(h);
    expect(h.spec).toEqual({ maxReplicas: 5, minReplicas: 1, targetCPUUtilizationPercentage: 70 });
    expect(() => applyHorizontalPodAutoscalerDefaults({ metadata: {}, spec: 'x' })).not.toThrow();
  });
});

describe('validateHorizontalPodAutoscaler: spec', () => {
  it('accepts a defaulted autoscaler, and one with every metric type and a behavior', () => {
    expect(texts(anHpa())).toEqual([]);
    expect(
      texts(
        anHpa(
          all(
            set('spec.metrics', [pods, external, object]),
            set('spec.behavior', {}),
            applyHorizontalPodAutoscalerV2Defaults,
          ),
        ),
      ),
    ).toEqual([]);
  });

  it.each<[string, Mutation, string[]]>([
    [
      'minReplicas 0',
      set('spec.minReplicas', 0),
      ['spec.minReplicas: Invalid value: 0: must be greater than or equal to 1', SCALE_TO_ZERO],
    ],
    [
      'maxReplicas 0',
      set('spec.maxReplicas', 0),
      [
        'spec.maxReplicas: Invalid value: 0: must be greater than 0',
        'spec.maxReplicas: Invalid value: 0: must be greater than or equal to `minReplicas`',
      ],
    ],
    [
      'maxReplicas below minReplicas',
      all(set('spec.minReplicas', 3), set('spec.maxReplicas', 2)),
      ['spec.maxReplicas: Invalid value: 2: must be greater than or equal to `minReplicas`'],
    ],
    [
      'scaleTargetRef missing',
      set('spec.scaleTargetRef', undefined),
      ['spec.scaleTargetRef.kind: Required value', 'spec.scaleTargetRef.name: Required value'],
    ],
    [
      'scaleTargetRef name with a slash',
      set('spec.scaleTargetRef.name', 'a/b'),
      ['spec.scaleTargetRef.name: Invalid value: "a/b": may not contain \'/\''],
    ],
    [
      'scaleTargetRef kind ..',
      set('spec.scaleTargetRef.kind', '..'),
      ['spec.scaleTargetRef.kind: Invalid value: "..": may not be \'..\''],
    ],
    [
      'minReplicas a string',
      set('spec.minReplicas', '1'),
      ['spec.minReplicas: Invalid value: "1": must be a 32-bit integer'],
    ],
    ['spec a list', set('spec', []), ['spec: Invalid value: []: must be an object']],
  ])('%s', (_name, mutate, expected) => {
    expect(texts(anHpa(mutate))).toEqual(expected);
  });

  it('allows minReplicas 0 with HPAScaleToZero and an Object or External metric', () => {
    const zero = set('spec.minReplicas', 0);
    expect(texts(anHpa(zero), true)).toEqual([SCALE_TO_ZERO]);
    expect(texts(anHpa(all(zero, set('spec.metrics', [external]))), true)).toEqual([]);
    expect(texts(anHpa(all(zero, set('spec.metrics', [object]))), true)).toEqual([]);
    expect(texts(anHpa(set('spec.minReplicas', -1)), true)).toEqual([
      'spec.minReplicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('a v1 request, validated after conversion (internal paths)', () => {
  function v1(spec: Record<string, unknown>, annotations?: Record<string, string>): ApiObject {
    const h: ApiObject = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', ...(annotations ? { annotations } : {}) },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'web' }, maxReplicas: 3, ...spec },
    };
    applyHorizontalPodAutoscalerDefaults(h);
    return hpaV1ToV2(h);
  }

  it('reports targetCPUUtilizationPercentage 0 at spec.metrics[n].resource.target.averageUtilization, after the annotation metrics', () => {
    expect(texts(v1({ targetCPUUtilizationPercentage: 0 }))).toEqual([
      'spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    ]);
    const two = JSON.stringify([
      { type: 'Pods', pods: { metricName: 'a', targetAverageValue: '1' } },
      { type: 'Pods', pods: { metricName: 'b', targetAverageValue: '1' } },
    ]);
    expect(texts(v1({ targetCPUUtilizationPercentage: 0 }, { [METRICS_ANNOTATION]: two }))).toEqual([
      'spec.metrics[2].resource.target.averageUtilization: Invalid value: 0: must be greater than 0',
    ]);
  });

  it('validates the annotation metrics in their v2 form and accepts a target-less v1 object (cpu 80)', () => {
    expect(texts(v1({}))).toEqual([]);
    expect(
      texts(v1({}, { [METRICS_ANNOTATION]: '[{"type":"Pods","pods":{"metricName":"","targetAverageValue":"0"}}]' })),
    ).toEqual([
      'spec.metrics[0].pods.metric.name: Required value: must specify a metric name',
      'spec.metrics[0].pods.target.averageValue: Invalid value: 0: must be positive',
    ]);
  });
});

describe('robustness and updates', () => {
  it('never throws on garbage', () => {
    const garbage = [
      null,
      1,
      'x',
      [],
      { scaleTargetRef: [], maxReplicas: {}, minReplicas: null, metrics: 'x', behavior: [] },
      {
        metrics: [null, 1, { type: 1, resource: 'x' }, { type: 'Resource', resource: { target: 'x' } }],
        behavior: { scaleUp: { policies: [null, 'x', { value: 'x' }] } },
      },
    ];
    for (const spec of garbage) expect(() => validateHorizontalPodAutoscaler({ metadata: {}, spec })).not.toThrow();
  });

  it('keeps minReplicas 0 allowed on update when the stored object has it', () => {
    const zero = anHpa(set('spec.minReplicas', 0));
    expect(validateHorizontalPodAutoscalerUpdate(zero, zero).map(fieldErrorText)).toEqual([SCALE_TO_ZERO]);
    expect(validateHorizontalPodAutoscalerUpdate(zero, anHpa()).map(fieldErrorText)).toEqual([
      'spec.minReplicas: Invalid value: 0: must be greater than or equal to 1',
      SCALE_TO_ZERO,
    ]);
  });

  it.each<[object, string[]]>([
    [{ currentReplicas: 1, desiredReplicas: 2 }, []],
    [
      { currentReplicas: -1, desiredReplicas: -2 },
      [
        'status.currentReplicas: Invalid value: -1: must be greater than or equal to 0',
        'status.desiredReplicas: Invalid value: -2: must be greater than or equal to 0',
      ],
    ],
    [{ currentReplicas: 'x' }, ['status.currentReplicas: Invalid value: "x": must be a 32-bit integer']],
  ])('status %j', (status, expected) => {
    expect(validateHorizontalPodAutoscalerStatus(anHpa(set('status', status)), anHpa()).map(fieldErrorText)).toEqual(
      expected,
    );
  });
});

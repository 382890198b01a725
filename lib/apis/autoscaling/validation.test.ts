// Pins the HorizontalPodAutoscaler defaults and validation texts of 1.26 on the autoscaling/v2 (internal) shape, and v1 requests' internal paths.
import { fieldErrorText } from '../../apimachinery/field/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { setPath } from '../core/testing/json-path';
import { applyHorizontalPodAutoscalerDefaults } from './v1/defaults';
import { applyHorizontalPodAutoscalerV2Defaults } from './v2/defaults';
import { METRICS_ANNOTATION } from './annotations';
import { hpaV1ToV2 } from './conversion-v1-v2';
import {
  validateHorizontalPodAutoscaler,
  validateHorizontalPodAutoscalerStatus,
  validateHorizontalPodAutoscalerUpdate,
} from './validation';

type Mutation = (h: ApiObject) => void;
const set =
  (path: string, value: unknown): Mutation =>
  (h) =>
    setPath(h, path, value);
const all =
  (...mutations: Mutation[]): Mutation =>
  (h) =>
    mutations.forEach((m) => m(h));

const M0 = 'spec.metrics.0';
const pods = { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } };
const external = { type: 'External', external: { metric: { name: 'queue' }, target: { type: 'Value', value: '5' } } };
const object = {
  type: 'Object',
  object: {
    describedObject: { apiVersion: 'v1', kind: 'Service', name: 'web' },
    metric: { name: 'rps' },
    target: { type: 'Value', value: '100' },
  },
};

function anHpa(mutate: Mutation = () => {}): ApiObject {
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

const texts = (h: ApiObject, scaleToZero = false): string[] =>
  validateHorizontalPodAutoscaler(h, { hpaScaleToZero: scaleToZero }).map(fieldErrorText);
const SCALE_TO_ZERO =
  'spec.metrics: Forbidden: must specify at least one Object or External metric to support scaling to zero replicas';
const UNSUPPORTED_TYPE =
  'Unsupported value: "Foo": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"';

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

describe('validateHorizontalPodAutoscaler: metrics', () => {
  it.each<[string, Mutation, string[]]>([
    [
      'type empty',
      set(`${M0}.type`, ''),
      [
        'spec.metrics[0].type: Required value: must specify a metric source type',
        'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
        'spec.metrics[0].type: Unsupported value: "": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"',
      ],
    ],
    [
      'type unknown (reported twice, as upstream)',
      set(`${M0}.type`, 'Foo'),
      [`spec.metrics[0].type: ${UNSUPPORTED_TYPE}`, `spec.metrics[0].type: ${UNSUPPORTED_TYPE}`],
    ],
    // Forbidden only when more than one member is present: a lone wrong member is not reported.
    [
      'member missing',
      set(`${M0}.type`, 'Pods'),
      ['spec.metrics[0].pods: Required value: must populate information for the given metric source'],
    ],
    [
      'member missing beside two others',
      all(set(`${M0}.type`, 'Object'), set(`${M0}.pods`, pods.pods)),
      [
        'spec.metrics[0].object: Required value: must populate information for the given metric source',
        'spec.metrics[0].pods: Forbidden: must populate the given metric source only',
        'spec.metrics[0].resource: Forbidden: must populate the given metric source only',
      ],
    ],
    [
      'extra member',
      set(`${M0}.pods`, pods.pods),
      ['spec.metrics[0].pods: Forbidden: must populate the given metric source only'],
    ],
    [
      'resource name empty',
      set(`${M0}.resource.name`, ''),
      ['spec.metrics[0].resource.name: Required value: must specify a resource name'],
    ],
    [
      'resource without a target value',
      set(`${M0}.resource.target.averageUtilization`, undefined),
      [
        'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
      ],
    ],
    [
      'resource with both',
      set(`${M0}.resource.target.averageValue`, '1'),
      [
        'spec.metrics[0].resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization',
      ],
    ],
    [
      'averageUtilization 0',
      set(`${M0}.resource.target.averageUtilization`, 0),
      ['spec.metrics[0].resource.target.averageUtilization: Invalid value: 0: must be greater than 0'],
    ],
    [
      'target type empty',
      set(`${M0}.resource.target.type`, ''),
      [
        'spec.metrics[0].resource.target.type: Required value: must specify a metric target type',
        'spec.metrics[0].resource.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue',
      ],
    ],
    [
      'target type unknown',
      set(`${M0}.resource.target.type`, 'X'),
      ['spec.metrics[0].resource.target.type: Invalid value: "X": must be either Utilization, Value, or AverageValue'],
    ],
    [
      'target missing',
      set(`${M0}.resource.target`, undefined),
      [
        'spec.metrics[0].resource.target.type: Required value: must specify a metric target type',
        'spec.metrics[0].resource.target.type: Invalid value: "": must be either Utilization, Value, or AverageValue',
        'spec.metrics[0].resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization',
      ],
    ],
    [
      'pods without averageValue',
      set('spec.metrics', [{ type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue' } } }]),
      ['spec.metrics[0].pods.target.averageValue: Required value: must specify a positive target averageValue'],
    ],
    [
      'pods averageValue 0',
      set('spec.metrics', [
        { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '0' } } },
      ]),
      ['spec.metrics[0].pods.target.averageValue: Invalid value: 0: must be positive'],
    ],
    [
      'pods metric name empty',
      set('spec.metrics', [
        { type: 'Pods', pods: { metric: {}, target: { type: 'AverageValue', averageValue: '1' } } },
      ]),
      ['spec.metrics[0].pods.metric.name: Required value: must specify a metric name'],
    ],
    [
      'metric name with %',
      set('spec.metrics', [
        { type: 'Pods', pods: { metric: { name: 'a%b' }, target: { type: 'AverageValue', averageValue: '1' } } },
      ]),
      ['spec.metrics[0].pods.metric.name: Invalid value: "a%b": may not contain \'%\''],
    ],
    [
      'object without values',
      set('spec.metrics', [
        {
          type: 'Object',
          object: {
            describedObject: { kind: 'Service', name: 'web' },
            metric: { name: 'rps' },
            target: { type: 'Value' },
          },
        },
      ]),
      ['spec.metrics[0].object.target.averageValue: Required value: must set either a target value or averageValue'],
    ],
    [
      'object describedObject empty',
      set('spec.metrics', [
        { type: 'Object', object: { metric: { name: 'rps' }, target: { type: 'Value', value: '1' } } },
      ]),
      [
        'spec.metrics[0].object.describedObject.kind: Required value',
        'spec.metrics[0].object.describedObject.name: Required value',
      ],
    ],
    [
      'external without values',
      set('spec.metrics', [{ type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value' } } }]),
      [
        'spec.metrics[0].external.target.averageValue: Required value: must set either a target value for metric or a per-pod target',
      ],
    ],
    [
      'external with both',
      set('spec.metrics', [
        {
          type: 'External',
          external: { metric: { name: 'q' }, target: { type: 'Value', value: '1', averageValue: '2' } },
        },
      ]),
      [
        'spec.metrics[0].external.target.value: Forbidden: may not set both a target value for metric and a per-pod target',
      ],
    ],
    [
      'external value negative',
      set('spec.metrics', [
        { type: 'External', external: { metric: { name: 'q' }, target: { type: 'Value', value: '-1' } } },
      ]),
      ['spec.metrics[0].external.target.value: Invalid value: -1: must be positive'],
    ],
    [
      'containerResource with the gate off',
      set('spec.metrics', [{ type: 'ContainerResource' }]),
      [
        'spec.metrics[0].containerResource: Required value: must populate information for the given metric source (only allowed when HPAContainerMetrics feature is enabled)',
      ],
    ],
    [
      'containerResource without a container',
      set('spec.metrics', [
        {
          type: 'ContainerResource',
          containerResource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } },
        },
      ]),
      ['spec.metrics[0].containerResource.container: Required value: must specify a container'],
    ],
  ])('%s', (_name, mutate, expected) => {
    expect(texts(anHpa(mutate))).toEqual(expected);
  });
});

describe('validateHorizontalPodAutoscaler: behavior', () => {
  const UP = 'spec.behavior.scaleUp';
  const withBehavior = (mutate: Mutation): Mutation =>
    all(set('spec.behavior', {}), applyHorizontalPodAutoscalerV2Defaults, mutate);
  it.each<[string, Mutation, string[]]>([
    [
      'stabilizationWindowSeconds -1',
      set(`${UP}.stabilizationWindowSeconds`, -1),
      [`${UP}.stabilizationWindowSeconds: Invalid value: -1: must be greater than or equal to zero`],
    ],
    [
      'stabilizationWindowSeconds 3601',
      set('spec.behavior.scaleDown.stabilizationWindowSeconds', 3601),
      ['spec.behavior.scaleDown.stabilizationWindowSeconds: Invalid value: 3601: must be less than or equal to 3600'],
    ],
    [
      'selectPolicy unknown',
      set(`${UP}.selectPolicy`, 'X'),
      [`${UP}.selectPolicy: Unsupported value: "X": supported values: "Disabled", "Max", "Min"`],
    ],
    ['policies empty', set(`${UP}.policies`, []), [`${UP}.policies: Required value: must specify at least one Policy`]],
    [
      'policy type unknown',
      set(`${UP}.policies.0.type`, 'X'),
      [`${UP}.policies[0].type: Unsupported value: "X": supported values: "Percent", "Pods"`],
    ],
    [
      'policy value 0',
      set(`${UP}.policies.1.value`, 0),
      [`${UP}.policies[1].value: Invalid value: 0: must be greater than zero`],
    ],
    [
      'periodSeconds 0',
      set(`${UP}.policies.0.periodSeconds`, 0),
      [`${UP}.policies[0].periodSeconds: Invalid value: 0: must be greater than zero`],
    ],
    [
      'periodSeconds 1801',
      set(`${UP}.policies.0.periodSeconds`, 1801),
      [`${UP}.policies[0].periodSeconds: Invalid value: 1801: must be less than or equal to 1800`],
    ],
  ])('%s', (_name, mutate, expected) => {
    expect(texts(anHpa(withBehavior(mutate)))).toEqual(expected);
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

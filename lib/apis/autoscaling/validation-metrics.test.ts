// Pins the HorizontalPodAutoscaler metric validation texts of 1.26 (every metric source and target) on the autoscaling/v2 shape.
import { all, anHpa, pods, set, texts } from './testing/hpa';
import type { Mutation } from './testing/hpa';

const M0 = 'spec.metrics.0';
const UNSUPPORTED_TYPE =
  'Unsupported value: "Foo": supported values: "ContainerResource", "External", "Object", "Pods", "Resource"';

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

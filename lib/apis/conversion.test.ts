// Round trips of every multi-version kind, property-style: random valid objects through every version pair and back.
import type { ApiObject } from '../apimachinery/meta/types';
import { convertObject } from './conversion';
import { conversionsOf } from './conversions';
import { METRICS_ANNOTATION } from './autoscaling/annotations';
import { seededRandom as random } from '../../test/helpers/seeded-random';
import { goShape } from '../apimachinery/serializers/go-shape';

type Rand = () => number;
const int = (r: Rand, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rand, items: readonly T[]): T => items[int(r, 0, items.length - 1)] as T;
const maybe = <T>(r: Rand, make: () => T): T | undefined => (r() < 0.5 ? make() : undefined);
const quantity = (r: Rand): string => pick(r, ['1', '250m', '2Gi', '100', '1500m']);
const selector = (r: Rand): Record<string, unknown> => ({ matchLabels: { app: pick(r, ['a', 'b']) } });

function withOptional(entries: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(entries).filter(([, v]) => v !== undefined));
}

/** One v2 metric of the shapes the v1 legacy form can carry (as validation admits them). */
function v2Metric(r: Rand): Record<string, unknown> {
  const metric = withOptional({ name: pick(r, ['qps', 'latency']), selector: maybe(r, () => selector(r)) });
  switch (pick(r, ['Object', 'Pods', 'Resource', 'External'])) {
    case 'Object':
      return {
        type: 'Object',
        object: {
          describedObject: { kind: 'Service', name: 'web', apiVersion: 'v1' },
          target: { type: 'Value', value: quantity(r) },
          metric,
        },
      };
    case 'Pods':
      return { type: 'Pods', pods: { metric, target: { type: 'AverageValue', averageValue: quantity(r) } } };
    case 'Resource':
      return {
        type: 'Resource',
        resource: {
          name: 'memory',
          target:
            r() < 0.5
              ? { type: 'Utilization', averageUtilization: int(r, 1, 100) }
              : { type: 'AverageValue', averageValue: quantity(r) },
        },
      };
    default:
      return {
        type: 'External',
        external: {
          metric,
          target:
            r() < 0.5 ? { type: 'Value', value: quantity(r) } : { type: 'AverageValue', averageValue: quantity(r) },
        },
      };
  }
}

function rules(r: Rand): Record<string, unknown> {
  return withOptional({
    stabilizationWindowSeconds: maybe(r, () => int(r, 0, 3600)),
    selectPolicy: pick(r, ['Max', 'Min', 'Disabled']),
    policies: [{ type: pick(r, ['Pods', 'Percent']), value: int(r, 1, 10), periodSeconds: int(r, 1, 1800) }],
  });
}

function randomHpaV2(r: Rand, i: number): ApiObject {
  const metrics = Array.from({ length: int(r, 0, 3) }, () => v2Metric(r));
  if (metrics.length === 0 || r() < 0.5)
    metrics.push({
      type: 'Resource',
      resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: int(r, 1, 100) } },
    });
  const currentMetrics =
    r() < 0.5
      ? null
      : [
          {
            type: 'Resource',
            resource: { name: 'cpu', current: { averageValue: quantity(r), averageUtilization: int(r, 0, 100) } },
          },
          { type: 'Pods', pods: { metric: { name: 'qps' }, current: { averageValue: quantity(r) } } },
        ];
  const conditions = maybe(r, () => [
    {
      type: 'AbleToScale',
      status: 'True',
      lastTransitionTime: '2024-01-02T03:04:05Z',
      reason: 'ReadyForNewScale',
      message: 'ok',
    },
  ]);
  return {
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: withOptional({
      name: `h${i}`,
      namespace: 'ns',
      annotations: maybe(r, () => ({ keep: 'me' })),
    }) as ApiObject['metadata'],
    spec: withOptional({
      scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
      minReplicas: int(r, 1, 3),
      maxReplicas: int(r, 3, 10),
      metrics,
      behavior: maybe(r, () => withOptional({ scaleUp: maybe(r, () => rules(r)), scaleDown: rules(r) })),
    }),
    status: withOptional({
      observedGeneration: maybe(r, () => int(r, 1, 5)),
      currentReplicas: int(r, 1, 5),
      desiredReplicas: int(r, 0, 5),
      currentMetrics,
      conditions,
    }),
  };
}

function randomHpaV1(r: Rand, i: number): ApiObject {
  return {
    apiVersion: 'autoscaling/v1',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name: `h${i}`, namespace: 'ns' },
    spec: {
      scaleTargetRef: { kind: 'Deployment', name: 'web' },
      minReplicas: int(r, 1, 3),
      maxReplicas: int(r, 3, 10),
      targetCPUUtilizationPercentage: int(r, 1, 100),
    },
    status: withOptional({
      lastScaleTime: maybe(r, () => '2024-01-02T03:04:05Z'),
      currentReplicas: int(r, 0, 5),
      desiredReplicas: int(r, 0, 5),
      currentCPUUtilizationPercentage: maybe(r, () => int(r, 0, 100)),
    }),
  };
}

function randomPriorityLevel(r: Rand, i: number, version: 'v1beta2' | 'v1beta3'): ApiObject {
  const shares = version === 'v1beta2' ? 'assuredConcurrencyShares' : 'nominalConcurrencyShares';
  const limitResponse =
    r() < 0.5
      ? { type: 'Reject' }
      : { type: 'Queue', queuing: { queues: int(r, 1, 64), handSize: int(r, 1, 8), queueLengthLimit: int(r, 1, 50) } };
  return {
    apiVersion: `flowcontrol.apiserver.orch.io/${version}`,
    kind: 'PriorityLevelConfiguration',
    metadata: { name: `p${i}` },
    spec:
      r() < 0.2
        ? { type: 'Exempt' }
        : {
            type: 'Limited',
            limited: withOptional({
              [shares]: int(r, 1, 100),
              limitResponse,
              lendablePercent: int(r, 0, 100),
              borrowingLimitPercent: maybe(r, () => int(r, 0, 200)),
            }),
          },
  };
}

function convert(obj: ApiObject, group: string, kind: string, version: string): ApiObject {
  return convertObject(conversionsOf(group, kind), obj, group, kind, version);
}

/** v_a → storage → v_b → storage → v_a equals the original. */
function roundTrip(obj: ApiObject, group: string, kind: string, from: string, via: string): ApiObject {
  const hub = conversionsOf(group, kind)?.hub ?? from;
  const b = convert(convert(obj, group, kind, hub), group, kind, via);
  return convert(convert(b, group, kind, hub), group, kind, from);
}

const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

describe('HorizontalPodAutoscaler v1 ↔ v2', () => {
  it.each([
    ['v2', 'v1'],
    ['v2', 'v2'],
  ])('%s objects survive a round trip through %s', (from, via) => {
    for (const seed of SEEDS) {
      const r = random(seed);
      const obj = from === 'v2' ? randomHpaV2(r, seed) : randomHpaV1(r, seed);
      // Nothing is lost: the object comes back as Go writes it (converted objects are written in Go's shape).
      expect({ seed, obj: goShape(roundTrip(obj, 'autoscaling', 'HorizontalPodAutoscaler', from, via)) }).toEqual({
        seed,
        obj: goShape(obj),
      });
    }
  });

  it.each(['v1', 'v2'])(
    'v1 objects keep spec and status through %s (and the v2 storage version), and are stable from then on',
    (via) => {
      // As in Kubernetes, a v1 object read back after a trip through v2 carries its current metrics in the annotation.
      for (const seed of SEEDS) {
        const obj = randomHpaV1(random(seed), seed);
        const once = roundTrip(obj, 'autoscaling', 'HorizontalPodAutoscaler', 'v1', via);
        expect({ seed, spec: once['spec'], status: once['status'] }).toEqual({
          seed,
          spec: obj['spec'],
          status: obj['status'],
        });
        expect({ seed, obj: roundTrip(once, 'autoscaling', 'HorizontalPodAutoscaler', 'v1', via) }).toEqual({
          seed,
          obj: once,
        });
      }
    },
  );

  it('stores as autoscaling/v2 (Kubernetes 1.26)', () => {
    expect(conversionsOf('autoscaling', 'HorizontalPodAutoscaler')?.hub).toBe('v2');
  });

  it('writes v2-only metrics into the v1 annotation and takes the cpu target from the first cpu utilization metric', () => {
    const v2 = randomHpaV2(random(7), 1);
    (v2['spec'] as Record<string, unknown>)['metrics'] = [
      { type: 'Pods', pods: { metric: { name: 'qps' }, target: { type: 'AverageValue', averageValue: '10' } } },
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 55 } } },
    ];
    const v1 = convert(v2, 'autoscaling', 'HorizontalPodAutoscaler', 'v1');
    expect(v1['spec']).toMatchObject({ targetCPUUtilizationPercentage: 55 });
    expect(JSON.parse(v1.metadata.annotations?.[METRICS_ANNOTATION] ?? 'null')).toEqual([
      { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '10' } },
    ]);
  });

  it('gives a v1 object without a target the 80% cpu metric in v2', () => {
    const v1: ApiObject = {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'x' },
      spec: { scaleTargetRef: { kind: 'Deployment', name: 'w' }, maxReplicas: 3 },
    };
    const v2 = convert(v1, 'autoscaling', 'HorizontalPodAutoscaler', 'v2');
    expect((v2['spec'] as Record<string, unknown>)['metrics']).toEqual([
      { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } },
    ]);
    expect(v2['status']).toEqual({ desiredReplicas: 0, currentMetrics: null });
  });
});

describe('PriorityLevelConfiguration v1beta2 ↔ v1beta3', () => {
  it.each([
    ['v1beta2', 'v1beta3'],
    ['v1beta3', 'v1beta2'],
    ['v1beta2', 'v1beta2'],
  ] as const)('%s objects survive a round trip through %s', (from, via) => {
    for (const seed of SEEDS) {
      const obj = randomPriorityLevel(random(seed), seed, from);
      expect({
        seed,
        obj: goShape(roundTrip(obj, 'flowcontrol.apiserver.orch.io', 'PriorityLevelConfiguration', from, via)),
      }).toEqual({ seed, obj: goShape(obj) });
    }
  });

  it('renames assuredConcurrencyShares to nominalConcurrencyShares', () => {
    const obj = randomPriorityLevel(random(3), 1, 'v1beta2');
    (obj['spec'] as Record<string, unknown>)['limited'] = {
      assuredConcurrencyShares: 7,
      limitResponse: { type: 'Reject' },
    };
    (obj['spec'] as Record<string, unknown>)['type'] = 'Limited';
    const v1beta3 = convert(obj, 'flowcontrol.apiserver.orch.io', 'PriorityLevelConfiguration', 'v1beta3');
    expect(v1beta3).toMatchObject({
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      spec: { limited: { nominalConcurrencyShares: 7 } },
    });
    expect(JSON.stringify(v1beta3)).not.toContain('assured');
  });

  it('returns an object already in the target version unchanged (the same object)', () => {
    const obj = randomPriorityLevel(random(4), 1, 'v1beta3');
    expect(convert(obj, 'flowcontrol.apiserver.orch.io', 'PriorityLevelConfiguration', 'v1beta3')).toBe(obj);
  });
});

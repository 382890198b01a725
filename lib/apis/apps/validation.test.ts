// Pins each Deployment validation rule (selector, strategy, counters, update, status) to its exact 1.26 text, path and order.
import { fieldErrorText } from '../../apimachinery/field/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { aDeployment, all, CTR, del, set, SPEC, texts } from './testing/deployment';
import type { Mutation } from './testing/deployment';
import { validateDeployment, validateDeploymentStatus, validateDeploymentUpdate } from './validation';

const PERCENT =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

describe('validateDeployment', () => {
  it('accepts a defaulted deployment', () => {
    expect(texts(aDeployment())).toEqual([]);
  });

  it.each<[string, Mutation, string[]]>([
    [
      'negative replicas',
      set('spec.replicas', -1),
      ['spec.replicas: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'missing selector (and so template labels not selected)',
      del('spec.selector'),
      [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'missing selector and template labels',
      all(del('spec.selector'), del('spec.template.metadata')),
      [
        'spec.selector: Required value',
        'spec.template.metadata.labels: Invalid value: map[string]string(nil): `selector` does not match template `labels`',
      ],
    ],
    [
      'empty selector',
      set('spec.selector', {}),
      [
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: empty selector is invalid for deployment',
      ],
    ],
    [
      'selector not matching the template labels',
      set('spec.selector.matchLabels', { app: 'x', tier: 'a' }),
      [
        'spec.template.metadata.labels: Invalid value: map[string]string{"app":"web"}: `selector` does not match template `labels`',
      ],
    ],
    [
      'In without values',
      set('spec.selector', { matchExpressions: [{ key: 'app', operator: 'In' }] }),
      [
        "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string(nil), MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"In", Values:[]string(nil)}}}: invalid label selector',
      ],
    ],
    [
      'unknown operator',
      set('spec.selector', {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'app', operator: 'Is', values: ['web'] }],
      }),
      [
        'spec.selector.matchExpressions[0].operator: Invalid value: "Is": not a valid selector operator',
        'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"web"}, MatchExpressions:[]v1.LabelSelectorRequirement{v1.LabelSelectorRequirement{Key:"app", Operator:"Is", Values:[]string{"web"}}}}: invalid label selector',
      ],
    ],
    [
      'restartPolicy OnFailure',
      set(`${SPEC}.restartPolicy`, 'OnFailure'),
      ['spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"'],
    ],
    [
      'restartPolicy unknown',
      set(`${SPEC}.restartPolicy`, 'X'),
      [
        'spec.template.spec.restartPolicy: Unsupported value: "X": supported values: "Always", "OnFailure", "Never"',
        'spec.template.spec.restartPolicy: Unsupported value: "X": supported values: "Always"',
      ],
    ],
    [
      'activeDeadlineSeconds',
      set(`${SPEC}.activeDeadlineSeconds`, 30),
      ['spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported'],
    ],
    [
      'unknown strategy type',
      set('spec.strategy', { type: 'Foo' }),
      [
        'spec.strategy: Unsupported value: apps.DeploymentStrategy{Type:"Foo", RollingUpdate:(*apps.RollingUpdateDeployment)(nil)}: supported values: "Recreate", "RollingUpdate"',
      ],
    ],
    [
      'Recreate with rollingUpdate',
      set('spec.strategy.type', 'Recreate'),
      ["spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"],
    ],
    [
      'RollingUpdate without rollingUpdate',
      del('spec.strategy.rollingUpdate'),
      ['spec.strategy.rollingUpdate: Required value: this should be defaulted and never be nil'],
    ],
    [
      'negative maxSurge',
      set('spec.strategy.rollingUpdate.maxSurge', -1),
      [
        'spec.strategy.rollingUpdate.maxSurge: Invalid value: intstr.IntOrString{Type:0, IntVal:-1, StrVal:""}: must be greater than or equal to 0',
      ],
    ],
    [
      'malformed percent',
      set('spec.strategy.rollingUpdate.maxUnavailable', 'x'),
      [
        `spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"x"}: ${PERCENT}`,
      ],
    ],
    [
      'both zero',
      set('spec.strategy.rollingUpdate', { maxUnavailable: 0, maxSurge: '0%' }),
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:0, IntVal:0, StrVal:""}: may not be 0 when `maxSurge` is 0',
      ],
    ],
    [
      'maxUnavailable over 100%',
      set('spec.strategy.rollingUpdate', { maxUnavailable: '150%', maxSurge: '150%' }),
      [
        'spec.strategy.rollingUpdate.maxUnavailable: Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"150%"}: must not be greater than 100%',
      ],
    ],
    [
      'negative minReadySeconds',
      set('spec.minReadySeconds', -1),
      ['spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'negative revisionHistoryLimit',
      set('spec.revisionHistoryLimit', -1),
      ['spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'progressDeadlineSeconds not above minReadySeconds',
      all(set('spec.minReadySeconds', 10), set('spec.progressDeadlineSeconds', 10)),
      ['spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds'],
    ],
    [
      'non-standard metadata finalizer',
      set('metadata.finalizers', ['foo', 'example.com/foo']),
      [
        'metadata.finalizers[0]: Invalid value: "foo": name is neither a standard finalizer name nor is it fully qualified',
      ],
    ],
  ])('%s', (_name, mutate, expected) => {
    expect(texts(aDeployment(mutate))).toEqual(expected);
  });

  it.each<[string, Mutation, string[]]>([
    ['spec a string', set('spec', 'x'), ['spec: Invalid value: "x": must be an object']],
    ['replicas a string', set('spec.replicas', '3'), ['spec.replicas: Invalid value: "3": must be a 32-bit integer']],
    ['selector a list', set('spec.selector', []), ['spec.selector: Invalid value: []: must be an object']],
    [
      'maxSurge a float',
      set('spec.strategy.rollingUpdate.maxSurge', 1.5),
      ['spec.strategy.rollingUpdate.maxSurge: Invalid value: 1.5: must be an integer or a string'],
    ],
    [
      'containers an object',
      set(`${SPEC}.containers`, {}),
      ['spec.template.spec.containers: Invalid value: {}: must be a list'],
    ],
    [
      'template labels not a map',
      set('spec.template.metadata.labels', 'x'),
      ['spec.template.labels: Invalid value: "x": must be a map of string keys to string values'],
    ],
    // Go decodes null as the zero value: a null list member is an EnvVar without a name.
    [
      'null members',
      all(set(`${CTR}.ports`, null), set(`${CTR}.env`, [null]), set(`${CTR}.resources`, null)),
      ['spec.template.spec.containers[0].env[0].name: Required value'],
    ],
  ])('reports a wrongly typed %s without throwing', (_name, mutate, expected) => {
    expect(texts(aDeployment(mutate))).toEqual(expected);
  });

  it('never throws on garbage', () => {
    for (const spec of [
      null,
      1,
      true,
      [],
      { template: 1, selector: { matchExpressions: [1, null, { values: 'x' }] }, strategy: [] },
    ]) {
      expect(() => validateDeployment({ metadata: { name: 'x' }, spec })).not.toThrow();
    }
  });
});

describe('validateDeploymentUpdate', () => {
  it('rejects a selector change (apps/v1)', () => {
    const old = aDeployment();
    const next = aDeployment(
      all(set('spec.selector.matchLabels', { app: 'y' }), set('spec.template.metadata.labels', { app: 'y' })),
    );
    expect(validateDeploymentUpdate(next, old).map(fieldErrorText)).toEqual([
      'spec.selector: Invalid value: v1.LabelSelector{MatchLabels:map[string]string{"app":"y"}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}: field is immutable',
    ]);
  });

  it('treats nil and empty lists as the same selector', () => {
    const old = aDeployment();
    const next = aDeployment(set('spec.selector.matchExpressions', []));
    expect(validateDeploymentUpdate(next, old)).toEqual([]);
  });
});

describe('validateDeploymentStatus', () => {
  const withStatus = (status: object): ApiObject => aDeployment(set('status', status));

  it.each<[string, object, object, string[]]>([
    ['consistent counters', { replicas: 3, updatedReplicas: 3, readyReplicas: 2, availableReplicas: 2 }, {}, []],
    [
      'negative replicas (then every other counter exceeds it, as upstream reports)',
      { replicas: -1 },
      {},
      [
        'status.replicas: Invalid value: -1: must be greater than or equal to 0',
        'status.updatedReplicas: Invalid value: 0: cannot be greater than status.replicas',
        'status.readyReplicas: Invalid value: 0: cannot be greater than status.replicas',
        'status.availableReplicas: Invalid value: 0: cannot be greater than status.replicas',
      ],
    ],
    [
      'updated above replicas',
      { replicas: 1, updatedReplicas: 5 },
      {},
      ['status.updatedReplicas: Invalid value: 5: cannot be greater than status.replicas'],
    ],
    [
      'available above ready',
      { replicas: 3, readyReplicas: 1, availableReplicas: 3 },
      {},
      ['status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas'],
    ],
    [
      'collisionCount decreased',
      { collisionCount: 0 },
      { collisionCount: 2 },
      ['status.collisionCount: Invalid value: 0: cannot be decremented'],
    ],
    [
      'collisionCount unset',
      {},
      { collisionCount: 0 },
      ['status.collisionCount: Invalid value: 0: cannot be decremented'],
    ],
  ])('%s', (_name, status, oldStatus, expected) => {
    expect(validateDeploymentStatus(withStatus(status), withStatus(oldStatus)).map(fieldErrorText)).toEqual(expected);
  });
});

// Pins each Deployment validation rule (and the pod template subset) to its exact 1.26 text, path and order.
import { fieldErrorText } from '../../apimachinery/field/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { getPath, setPath } from '../core/testing/json-path';
import { applyDeploymentDefaults } from './v1/defaults';
import { validateDeployment, validateDeploymentStatus, validateDeploymentUpdate } from './validation';

const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const PERCENT =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

type Mutation = (d: ApiObject) => void;

function aDeployment(mutate: Mutation = () => {}, defaulted = true): ApiObject {
  const d: ApiObject = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25' }] } },
    },
  };
  if (defaulted) applyDeploymentDefaults(d);
  mutate(d);
  return d;
}

const texts = (obj: ApiObject): string[] => validateDeployment(obj).map(fieldErrorText);
const set =
  (path: string, value: unknown): Mutation =>
  (d) =>
    setPath(d, path, value);
const del = (path: string): Mutation => set(path, undefined);
const all =
  (...mutations: Mutation[]): Mutation =>
  (d) =>
    mutations.forEach((m) => m(d));
const SPEC = 'spec.template.spec';
const CTR = 'spec.template.spec.containers.0';

describe('validateDeployment', () => {
  it('accepts a defaulted deployment', () => {
    expect(texts(aDeployment())).toEqual([]);
  });

  it('accepts a realistic defaulted deployment', () => {
    const d: ApiObject = {
      metadata: {
        name: 'shop',
        namespace: 'default',
        labels: { app: 'shop' },
        annotations: { 'example.com/owner': 'team-a' },
      },
      spec: {
        replicas: 3,
        selector: {
          matchLabels: { app: 'shop' },
          matchExpressions: [{ key: 'tier', operator: 'In', values: ['web', 'api'] }],
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
        template: {
          metadata: { labels: { app: 'shop', tier: 'web' }, annotations: { 'prometheus.io/scrape': 'true' } },
          spec: {
            volumes: [
              { name: 'config', configMap: { name: 'shop-config' } },
              { name: 'cache', emptyDir: { sizeLimit: '1Gi' } },
              { name: 'token', projected: { sources: [{ serviceAccountToken: { path: 'token' } }] } },
            ],
            initContainers: [{ name: 'migrate', image: 'shop/migrate:2.1', command: ['./migrate'] }],
            containers: [
              {
                name: 'shop',
                image: 'registry.example.com:5000/shop/web@sha256:' + 'ab'.repeat(32),
                ports: [
                  { name: 'http', containerPort: 8080 },
                  { name: 'metrics', containerPort: 9090, protocol: 'TCP' },
                ],
                env: [
                  { name: 'MODE', value: 'prod' },
                  { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
                ],
                resources: { limits: { cpu: '500m', memory: '256Mi' }, requests: { cpu: 0.25, memory: '128Mi' } },
                volumeMounts: [
                  { name: 'config', mountPath: '/etc/shop', readOnly: true },
                  { name: 'cache', mountPath: '/cache', subPath: 'web' },
                ],
                readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, initialDelaySeconds: 5 },
                livenessProbe: { tcpSocket: { port: 8080 } },
                startupProbe: { exec: { command: ['cat', '/tmp/ready'] }, failureThreshold: 30 },
                lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
              },
            ],
            nodeSelector: { 'kubernetes.io/os': 'linux' },
            serviceAccountName: 'shop',
            priorityClassName: 'high',
          },
        },
      },
    };
    applyDeploymentDefaults(d);
    expect(texts(d)).toEqual([]);
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
    ['no containers', set(`${SPEC}.containers`, []), ['spec.template.spec.containers: Required value']],
    ['container without name', del(`${CTR}.name`), ['spec.template.spec.containers[0].name: Required value']],
    [
      'container name not a DNS label',
      set(`${CTR}.name`, 'Web'),
      [`spec.template.spec.containers[0].name: Invalid value: "Web": ${DNS_LABEL}`],
    ],
    ['container without image', del(`${CTR}.image`), ['spec.template.spec.containers[0].image: Required value']],
    [
      'duplicate container names',
      (d) => setPath(d, `${SPEC}.containers.1`, structuredClone(getPath(d, CTR))),
      ['spec.template.spec.containers[1].name: Duplicate value: "web"'],
    ],
    [
      'init container named like a container',
      (d) => setPath(d, `${SPEC}.initContainers`, [structuredClone(getPath(d, CTR))]),
      ['spec.template.spec.initContainers[0].name: Duplicate value: "web"'],
    ],
    [
      'dnsPolicy unknown',
      set(`${SPEC}.dnsPolicy`, 'X'),
      [
        'spec.template.spec.dnsPolicy: Unsupported value: "X": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      ],
    ],
    [
      'imagePullPolicy unknown',
      set(`${CTR}.imagePullPolicy`, 'X'),
      [
        'spec.template.spec.containers[0].imagePullPolicy: Unsupported value: "X": supported values: "Always", "IfNotPresent", "Never"',
      ],
    ],
    [
      'terminationMessagePolicy unknown',
      set(`${CTR}.terminationMessagePolicy`, 'X'),
      [
        'spec.template.spec.containers[0].terminationMessagePolicy: Unsupported value: "X": supported values: "File", "FallbackToLogsOnError"',
      ],
    ],
    [
      'containerPort 0',
      set(`${CTR}.ports`, [{ containerPort: 0, protocol: 'TCP' }]),
      ['spec.template.spec.containers[0].ports[0].containerPort: Required value'],
    ],
    [
      'containerPort out of range',
      set(`${CTR}.ports`, [{ containerPort: 70000, protocol: 'TCP' }]),
      [
        'spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ],
    ],
    [
      'port protocol unknown',
      set(`${CTR}.ports`, [{ containerPort: 80, protocol: 'X' }]),
      [
        'spec.template.spec.containers[0].ports[0].protocol: Unsupported value: "X": supported values: "SCTP", "TCP", "UDP"',
      ],
    ],
    [
      'duplicate port names',
      set(`${CTR}.ports`, [
        { name: 'http', containerPort: 80, protocol: 'TCP' },
        { name: 'http', containerPort: 81, protocol: 'TCP' },
      ]),
      ['spec.template.spec.containers[0].ports[1].name: Duplicate value: "http"'],
    ],
    [
      'negative terminationGracePeriodSeconds',
      set(`${SPEC}.terminationGracePeriodSeconds`, -1),
      ['spec.template.spec.terminationGracePeriodSeconds: Invalid value: -1: must be greater than or equal to 0'],
    ],
    [
      'bad template label key',
      set('spec.template.metadata.labels.bad key!', 'x'),
      [
        `spec.template.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      ],
    ],
    [
      'duplicate volume names',
      set(`${SPEC}.volumes`, [
        { name: 'data', emptyDir: {} },
        { name: 'data', emptyDir: {} },
      ]),
      ['spec.template.spec.volumes[1].name: Duplicate value: "data"'],
    ],
    [
      'two volume sources',
      set(`${SPEC}.volumes`, [{ name: 'data', emptyDir: {}, hostPath: { path: '/x' } }]),
      ['spec.template.spec.volumes[0].hostPath: Forbidden: may not specify more than 1 volume type'],
    ],
    [
      'mount of an unknown volume',
      set(`${CTR}.volumeMounts`, [{ name: 'data', mountPath: '/data' }]),
      ['spec.template.spec.containers[0].volumeMounts[0].name: Not found: "data"'],
    ],
    [
      'bad env var name',
      set(`${CTR}.env`, [{ name: '1X', value: 'v' }]),
      [
        "spec.template.spec.containers[0].env[0].name: Invalid value: \"1X\": a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
      ],
    ],
    [
      'request above limit',
      set(`${CTR}.resources`, { limits: { cpu: '1' }, requests: { cpu: '2' } }),
      [
        'spec.template.spec.containers[0].resources.requests: Invalid value: "2": must be less than or equal to cpu limit',
      ],
    ],
    [
      'negative quantity',
      set(`${CTR}.resources`, { limits: { cpu: '-1' } }),
      [
        'spec.template.spec.containers[0].resources.limits[cpu]: Invalid value: "-1": must be greater than or equal to 0',
      ],
    ],
    [
      'liveness successThreshold',
      set(`${CTR}.livenessProbe`, {
        tcpSocket: { port: 80 },
        successThreshold: 2,
        timeoutSeconds: 1,
        periodSeconds: 10,
        failureThreshold: 3,
      }),
      ['spec.template.spec.containers[0].livenessProbe.successThreshold: Invalid value: 2: must be 1'],
    ],
    [
      'probe without handler',
      set(`${CTR}.readinessProbe`, { successThreshold: 1 }),
      ['spec.template.spec.containers[0].readinessProbe: Required value: must specify a handler type'],
    ],
    [
      'read-write GCE PD with 2 replicas',
      all(set('spec.replicas', 2), set(`${SPEC}.volumes`, [{ name: 'pd', gcePersistentDisk: { pdName: 'x' } }])),
      [
        'spec.template.spec.volumes[0].gcePersistentDisk.readOnly: Invalid value: false: must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
      ],
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

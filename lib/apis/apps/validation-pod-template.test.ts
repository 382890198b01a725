// Pins the pod template subset of Deployment validation (containers, ports, volumes, env, resources, probes) to 1.26.
import type { ApiObject } from '../../apimachinery/meta/types';
import { getPath, setPath } from '../core/testing/json-path';
import { aDeployment, all, CTR, del, DNS_LABEL, set, SPEC, texts } from './testing/deployment';
import type { Mutation } from './testing/deployment';
import { applyDeploymentDefaults } from './v1/defaults';

describe('validateDeployment', () => {
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
  ])('%s', (_name, mutate, expected) => {
    expect(texts(aDeployment(mutate))).toEqual(expected);
  });
});

// Objects of every served kind in the JSON form Go prints (non-omitempty zeros and empty structs included), using
// most wire features: maps, int-or-string, quantities, times, inline fields, unicode, long text, large and negative ints.
const LONG_TEXT = 'a description long enough to leave the short-string path of the writer: '.repeat(4);
const CREATED = '2024-02-29T23:59:59Z';

const objectMeta = (name: string, namespace?: string): Record<string, unknown> => ({
  name,
  ...(namespace ? { namespace } : {}),
  uid: '0b5e5d4c-3f2a-4e1b-9c8d-7a6b5c4d3e2f',
  resourceVersion: '123456789',
  generation: 7,
  creationTimestamp: CREATED,
  labels: { app: name, 'zz/last': 'z', 'a.orch.io/first': 'é-ünïcødé-✓', '10': 'ten', '9': 'nine' },
  annotations: { description: LONG_TEXT, empty: '' },
  ownerReferences: [
    {
      apiVersion: 'apps/v1',
      kind: 'ReplicaSet',
      name: 'owner',
      uid: 'u-1',
      controller: true,
      blockOwnerDeletion: false,
    },
  ],
  finalizers: ['orch.io/one', 'example.com/two'],
  managedFields: [
    {
      manager: 'kubectl',
      operation: 'Update',
      apiVersion: 'v1',
      time: CREATED,
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } },
    },
  ],
});

export const RICH_DEPLOYMENT = {
  kind: 'Deployment',
  apiVersion: 'apps/v1',
  metadata: { ...objectMeta('web', 'prod'), deletionTimestamp: '2030-01-01T00:00:00Z', deletionGracePeriodSeconds: 0 },
  spec: {
    replicas: 0,
    selector: {
      matchLabels: { app: 'web' },
      matchExpressions: [
        { key: 'tier', operator: 'In', values: ['a', 'b'] },
        { key: 'gone', operator: 'DoesNotExist' },
      ],
    },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        volumes: [
          {
            name: 'cfg',
            configMap: {
              name: 'settings',
              items: [{ key: 'k', path: 'p', mode: 256 }],
              defaultMode: 420,
              optional: false,
            },
          },
          { name: 'scratch', emptyDir: { medium: 'Memory', sizeLimit: '1Gi' } },
        ],
        initContainers: [{ name: 'init', image: 'busybox', command: ['sh', '-c', 'true'], resources: {} }],
        containers: [
          {
            name: 'nginx',
            image: 'nginx:1.25',
            args: ['--port', '8080'],
            ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
            env: [
              { name: 'MODE', value: 'prod' },
              { name: 'FROM_CM', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode', optional: true } } },
              {
                name: 'LIMIT',
                valueFrom: { resourceFieldRef: { containerName: 'nginx', resource: 'limits.cpu', divisor: '1m' } },
              },
            ],
            resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '250m', 'example.com/gpu': '1' } },
            volumeMounts: [{ name: 'cfg', mountPath: '/etc/cfg', readOnly: true }],
            livenessProbe: {
              httpGet: { path: '/healthz', port: 'http', scheme: 'HTTP', httpHeaders: [{ name: 'X', value: 'y' }] },
              initialDelaySeconds: 3,
              timeoutSeconds: 1,
              periodSeconds: 10,
              successThreshold: 1,
              failureThreshold: 3,
            },
            readinessProbe: {
              tcpSocket: { port: 8080 },
              timeoutSeconds: 1,
              periodSeconds: 5,
              successThreshold: 1,
              failureThreshold: 3,
            },
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'File',
            imagePullPolicy: 'IfNotPresent',
            securityContext: {
              runAsUser: 1000,
              runAsNonRoot: true,
              allowPrivilegeEscalation: false,
              capabilities: { drop: ['ALL'] },
            },
          },
        ],
        restartPolicy: 'Always',
        terminationGracePeriodSeconds: 30,
        activeDeadlineSeconds: 1099511627776,
        dnsPolicy: 'ClusterFirst',
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        serviceAccountName: 'web',
        securityContext: { runAsGroup: -5, supplementalGroups: [1000, 2000], fsGroup: 2000 },
        hostname: 'web-host',
        affinity: {
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 100,
                podAffinityTerm: {
                  labelSelector: { matchLabels: { app: 'web' } },
                  topologyKey: 'kubernetes.io/hostname',
                },
              },
            ],
          },
        },
        schedulerName: 'default-scheduler',
        tolerations: [
          { key: 'dedicated', operator: 'Equal', value: 'web', effect: 'NoSchedule', tolerationSeconds: 300 },
        ],
        priority: -10,
      },
    },
    strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } },
    minReadySeconds: 5,
    revisionHistoryLimit: 10,
    paused: true,
    progressDeadlineSeconds: 600,
  },
  status: {
    observedGeneration: 7,
    replicas: 3,
    updatedReplicas: 3,
    readyReplicas: 2,
    availableReplicas: 2,
    unavailableReplicas: 1,
    conditions: [
      {
        type: 'Available',
        status: 'True',
        lastUpdateTime: CREATED,
        lastTransitionTime: CREATED,
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
      },
      { type: 'Progressing', status: 'Unknown' },
    ],
    collisionCount: 2,
  },
};

export const RICH_HPA = {
  kind: 'HorizontalPodAutoscaler',
  apiVersion: 'autoscaling/v1',
  metadata: objectMeta('web', 'prod'),
  spec: {
    scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
    minReplicas: 1,
    maxReplicas: 10,
    targetCPUUtilizationPercentage: 80,
  },
  status: {
    observedGeneration: 3,
    lastScaleTime: CREATED,
    currentReplicas: 0,
    desiredReplicas: 0,
    currentCPUUtilizationPercentage: 0,
  },
};

export const RICH_FLOW_SCHEMA = {
  kind: 'FlowSchema',
  apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
  metadata: objectMeta('tenants'),
  spec: {
    priorityLevelConfiguration: { name: 'workload-low' },
    matchingPrecedence: 9000,
    distinguisherMethod: { type: 'ByNamespace' },
    rules: [
      {
        subjects: [
          { kind: 'User', user: { name: 'alice' } },
          { kind: 'Group', group: { name: 'system:authenticated' } },
          { kind: 'ServiceAccount', serviceAccount: { namespace: 'ci', name: '*' } },
        ],
        resourceRules: [
          {
            verbs: ['get', 'list'],
            apiGroups: ['apps'],
            resources: ['deployments'],
            clusterScope: true,
            namespaces: ['*'],
          },
        ],
        nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/metrics'] }],
      },
    ],
  },
  status: {
    conditions: [
      {
        type: 'Dangling',
        status: 'False',
        lastTransitionTime: CREATED,
        reason: 'Found',
        message: 'This FlowSchema references the PriorityLevelConfiguration object named "workload-low" and it exists',
      },
    ],
  },
};

export const RICH_PRIORITY_LEVEL = {
  kind: 'PriorityLevelConfiguration',
  apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
  metadata: objectMeta('workload-low'),
  spec: {
    type: 'Limited',
    limited: {
      nominalConcurrencyShares: 100,
      limitResponse: { type: 'Queue', queuing: { queues: 128, handSize: 6, queueLengthLimit: 50 } },
      lendablePercent: 90,
      borrowingLimitPercent: 0,
    },
  },
  status: { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: CREATED }] },
};

export const RICH_NAMESPACE = {
  kind: 'Namespace',
  apiVersion: 'v1',
  metadata: objectMeta('prod'),
  spec: { finalizers: ['kubernetes'] },
  status: {
    phase: 'Terminating',
    conditions: [
      {
        type: 'NamespaceDeletionContentFailure',
        status: 'False',
        lastTransitionTime: CREATED,
        reason: 'ContentDeleted',
        message: 'All content successfully deleted',
      },
    ],
  },
};

export const RICH_SCALE = {
  kind: 'Scale',
  apiVersion: 'autoscaling/v1',
  metadata: objectMeta('web', 'prod'),
  spec: { replicas: 2 }, // omitempty non-pointer: Go prints no replicas for 0
  status: { replicas: 3, selector: 'app=web,tier in (a,b)' },
};

export const RICH_STATUS = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
  reason: 'Invalid',
  details: {
    name: 'web',
    group: 'apps',
    kind: 'Deployment',
    causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: -1', field: 'spec.replicas' }],
    retryAfterSeconds: 3,
  },
  code: 422,
};

export const RICH_DEPLOYMENT_LIST = {
  kind: 'DeploymentList',
  apiVersion: 'apps/v1',
  metadata: {
    resourceVersion: '99',
    continue: 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6OTksInN0YXJ0IjoicHJvZC93ZWJcdTAwMDAifQ',
    remainingItemCount: 4,
  },
  items: [
    RICH_DEPLOYMENT,
    { ...RICH_DEPLOYMENT, metadata: { name: 'second', namespace: 'prod', creationTimestamp: CREATED } },
  ].map(({ kind: _k, apiVersion: _a, ...item }) => item),
};

// Protobuf body decoding: round trips through the catalog types, kubectl's captured bodies, and 400s for bad input.
import { isStatusError } from '../../errors';
import { decodeProtobufBody, encodeProtobufBody, PROTOBUF_PREFIX } from '.';
import { KUBECTL_CREATE_DEPLOYMENT_WEB, KUBECTL_CREATE_NAMESPACE_FOO } from './kubectl-bodies.fixture';

function roundTrip(apiVersion: string, kind: string, object: Record<string, unknown>): void {
  const decoded = decodeProtobufBody(encodeProtobufBody(apiVersion, kind, object));
  expect(decoded).toEqual({ apiVersion, kind, object });
}

function expect400(body: Buffer, message?: RegExp): void {
  let caught: unknown;
  try {
    decodeProtobufBody(body);
  } catch (err) {
    caught = err;
  }
  expect(isStatusError(caught)).toBe(true);
  if (!isStatusError(caught)) return;
  expect(caught.code).toBe(400);
  if (message) expect(caught.message).toMatch(message);
}

describe('decodeProtobufBody round trips', () => {
  it('Namespace with labels, annotations, finalizers and a time', () => {
    roundTrip('v1', 'Namespace', {
      metadata: {
        name: 'foo',
        labels: { a: 'b', team: 'x' },
        annotations: { note: 'hi' },
        creationTimestamp: '2024-01-02T03:04:05Z',
        generation: 3,
      },
      spec: { finalizers: ['kubernetes'] },
      status: { phase: 'Active' },
    });
  });

  it('HorizontalPodAutoscaler with targetCPUUtilizationPercentage', () => {
    roundTrip('autoscaling/v1', 'HorizontalPodAutoscaler', {
      metadata: { name: 'web', namespace: 'default' },
      spec: {
        scaleTargetRef: { kind: 'Deployment', name: 'web', apiVersion: 'apps/v1' },
        minReplicas: 1,
        maxReplicas: 5,
        targetCPUUtilizationPercentage: 80,
      },
      status: { currentReplicas: 0, desiredReplicas: 0 },
    });
  });

  it('keeps pointer fields set to zero (replicas: 0) and drops omitempty zeros (paused: false)', () => {
    roundTrip('apps/v1', 'Deployment', {
      metadata: { name: 'z' },
      spec: { replicas: 0, template: { metadata: {}, spec: {} }, strategy: {}, selector: {} },
      status: {},
    });
    const body = encodeProtobufBody('apps/v1', 'Deployment', { metadata: { name: 'z' }, spec: { paused: false } });
    expect(decodeProtobufBody(body).object['spec']).toEqual({ template: { metadata: {}, spec: {} }, strategy: {} }); // selector is a pointer: absent, left out
  });

  it('Scale', () => {
    roundTrip('autoscaling/v1', 'Scale', {
      metadata: { name: 'web', namespace: 'default', resourceVersion: '12' },
      spec: { replicas: 3 },
      status: { replicas: 2, selector: 'app=web' },
    });
  });

  const deployment = (maxSurge: number | string): Record<string, unknown> => ({
    metadata: { name: 'web', namespace: 'default', labels: { app: 'web' } },
    spec: {
      replicas: 2,
      selector: {
        matchLabels: { app: 'web' },
        matchExpressions: [{ key: 'tier', operator: 'In', values: ['a', 'b'] }],
      },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.25',
              ports: [{ containerPort: 80, protocol: 'TCP', name: 'http' }],
              env: [
                { name: 'MODE', value: 'prod' },
                { name: 'CM', valueFrom: { configMapKeyRef: { name: 'cfg', key: 'k', optional: true } } },
              ],
              resources: { limits: { cpu: '500m', memory: '1Gi' }, requests: { cpu: '250m', memory: '64Mi' } },
              readinessProbe: { httpGet: { path: '/', port: 'http', scheme: 'HTTP' }, periodSeconds: 10 },
            },
          ],
          volumes: [{ name: 'data', emptyDir: { sizeLimit: '1Gi' } }],
          terminationGracePeriodSeconds: 30,
          securityContext: { supplementalGroups: [1000, 2000], runAsUser: 1000 },
        },
      },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge, maxUnavailable: 0 } },
      progressDeadlineSeconds: 600,
    },
    status: {},
  });

  it('Deployment with a pod template and maxSurge as a percentage', () => {
    roundTrip('apps/v1', 'Deployment', deployment('25%'));
  });

  it('Deployment with maxSurge as an integer', () => {
    roundTrip('apps/v1', 'Deployment', deployment(1));
  });

  it('FlowSchema under the orch group and the k8s.io alias', () => {
    const object = {
      metadata: { name: 'fs' },
      spec: {
        priorityLevelConfiguration: { name: 'global-default' },
        matchingPrecedence: 500,
        distinguisherMethod: { type: 'ByUser' },
        rules: [
          {
            subjects: [
              { kind: 'Group', group: { name: 'system:authenticated' } },
              { kind: 'ServiceAccount', serviceAccount: { namespace: 'kube-system', name: 'x' } },
            ],
            resourceRules: [
              { verbs: ['get'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] },
            ],
            nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['/healthz'] }],
          },
        ],
      },
      status: {
        conditions: [
          {
            type: 'Dangling',
            status: 'False',
            lastTransitionTime: '2024-05-06T07:08:09Z',
            reason: 'Found',
            message: 'ok',
          },
        ],
      },
    };
    roundTrip('flowcontrol.apiserver.orch.io/v1beta3', 'FlowSchema', object);
    roundTrip('flowcontrol.apiserver.k8s.io/v1beta3', 'FlowSchema', object);
  });

  it('PriorityLevelConfiguration', () => {
    roundTrip('flowcontrol.apiserver.k8s.io/v1beta3', 'PriorityLevelConfiguration', {
      metadata: { name: 'plc' },
      spec: {
        type: 'Limited',
        limited: {
          nominalConcurrencyShares: 30,
          lendablePercent: 0,
          limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 6, queueLengthLimit: 50 } },
        },
      },
      status: {},
    });
  });

  it('managedFields: fieldsV1 raw JSON and MicroTime-free timestamps', () => {
    roundTrip('v1', 'Namespace', {
      metadata: {
        name: 'm',
        managedFields: [
          {
            manager: 'kubectl',
            operation: 'Update',
            apiVersion: 'v1',
            time: '2024-01-02T03:04:05Z',
            fieldsType: 'FieldsV1',
            fieldsV1: { 'f:metadata': { 'f:labels': {} } },
          },
        ],
      },
      spec: {},
      status: {},
    });
  });
});

describe('decodeProtobufBody on kubectl bodies', () => {
  it('decodes `kubectl create namespace foo`', () => {
    expect(decodeProtobufBody(Buffer.from(KUBECTL_CREATE_NAMESPACE_FOO, 'hex'))).toEqual({
      apiVersion: 'v1',
      kind: 'Namespace',
      object: { metadata: { name: 'foo' }, spec: {}, status: {} },
    });
  });

  it('decodes `kubectl create deployment web --image=nginx` with Go zero values where JSON has them', () => {
    expect(decodeProtobufBody(Buffer.from(KUBECTL_CREATE_DEPLOYMENT_WEB, 'hex'))).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      object: {
        metadata: { name: 'web', labels: { app: 'web' } },
        spec: {
          replicas: 1,
          selector: { matchLabels: { app: 'web' } },
          template: {
            metadata: { labels: { app: 'web' } },
            spec: { containers: [{ name: 'nginx', image: 'nginx', resources: {} }] },
          },
          strategy: {},
        },
        status: {},
      },
    });
  });
});

describe('decodeProtobufBody errors', () => {
  it('rejects a body without the k8s\\0 prefix', () => {
    expect400(
      Buffer.from('{"kind":"Namespace"}'),
      /provided data does not appear to be a protobuf message, expected prefix \[107 56 115 0\]/,
    );
  });

  it('rejects an empty body', () => {
    expect400(Buffer.alloc(0), /empty data/);
  });

  it('rejects garbage after the prefix', () => {
    expect400(Buffer.concat([PROTOBUF_PREFIX, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x12, 0x99])]));
    expect400(Buffer.concat([PROTOBUF_PREFIX, Buffer.from([0x0a, 0x40, 0x01])]));
  });

  it('never crashes on pseudo-random bodies after the prefix', () => {
    let seed = 42;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) & 0xff;
    for (let i = 0; i < 300; i++) {
      const body = Buffer.concat([PROTOBUF_PREFIX, Buffer.from(Array.from({ length: 1 + (i % 40) }, next))]);
      try {
        decodeProtobufBody(body);
      } catch (err) {
        expect(isStatusError(err) && err.code === 400).toBe(true);
      }
    }
  });

  it('rejects an unknown kind and garbage in raw', () => {
    const ns = encodeProtobufBody('v1', 'Namespace', { metadata: { name: 'x' } });
    expect400(
      Buffer.from(
        ns.toString('hex').replace(Buffer.from('Namespace').toString('hex'), Buffer.from('Namespacf').toString('hex')),
        'hex',
      ),
      /no kind "Namespacf" is registered for version "v1"/,
    );
  });
});

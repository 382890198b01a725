// Pins the apps/v1 Deployment defaults and the pod template defaults Kubernetes 1.26 applies.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { getPath } from '../../core/testing/json-path';
import { imageTag } from '../../core/v1/image-reference';
import { applyDeploymentDefaults } from './defaults';

function defaulted(spec: unknown): ApiObject {
  const d: ApiObject = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'web' }, spec };
  applyDeploymentDefaults(d);
  return d;
}

const minimal = (): Record<string, unknown> => ({
  selector: { matchLabels: { app: 'web' } },
  template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
});

describe('applyDeploymentDefaults', () => {
  it('fills the Deployment and pod template defaults of 1.26', () => {
    expect(defaulted(minimal()).spec).toEqual({
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx',
              imagePullPolicy: 'Always',
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
            },
          ],
          restartPolicy: 'Always',
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          terminationGracePeriodSeconds: 30,
          schedulerName: 'default-scheduler',
        },
      },
    });
  });

  it.each<[string, Record<string, unknown>, unknown]>([
    ['explicit 0 replicas', { replicas: 0 }, 0],
    ['null replicas', { replicas: null }, 1],
  ])('keeps %s', (_name, spec, replicas) => {
    expect(getPath(defaulted({ ...minimal(), ...spec }), 'spec.replicas')).toBe(replicas);
  });

  it('leaves minReadySeconds absent', () => {
    expect(getPath(defaulted(minimal()), 'spec.minReadySeconds')).toBeUndefined();
  });

  it('does not add or remove rollingUpdate for Recreate', () => {
    expect(getPath(defaulted({ ...minimal(), strategy: { type: 'Recreate' } }), 'spec.strategy')).toEqual({
      type: 'Recreate',
    });
    expect(
      getPath(defaulted({ ...minimal(), strategy: { type: 'Recreate', rollingUpdate: {} } }), 'spec.strategy'),
    ).toEqual({ type: 'Recreate', rollingUpdate: {} });
  });

  it('keeps supplied rolling-update values', () => {
    const d = defaulted({ ...minimal(), strategy: { rollingUpdate: { maxSurge: 0 } } });
    expect(getPath(d, 'spec.strategy')).toEqual({
      type: 'RollingUpdate',
      rollingUpdate: { maxSurge: 0, maxUnavailable: '25%' },
    });
  });

  it('creates spec when absent and leaves a wrongly typed one alone', () => {
    expect(getPath(defaulted(undefined), 'spec.template.spec.restartPolicy')).toBe('Always');
    expect(defaulted('x').spec).toBe('x');
    expect(() => defaulted({ template: { spec: { containers: 'x', volumes: [1, null] } }, strategy: 7 })).not.toThrow();
  });

  it.each<[string, string]>([
    ['nginx', 'Always'],
    ['nginx:latest', 'Always'],
    ['nginx:1.25', 'IfNotPresent'],
    ['registry.example.com:5000/team/app', 'Always'],
    ['registry.example.com:5000/team/app:v2', 'IfNotPresent'],
    [`nginx@sha256:${'a'.repeat(64)}`, 'IfNotPresent'],
    [`nginx:latest@sha256:${'a'.repeat(64)}`, 'Always'],
    ['Nginx', 'IfNotPresent'],
    ['', 'IfNotPresent'],
  ])('imagePullPolicy of %j is %s', (image, policy) => {
    const spec = minimal();
    const d = defaulted({ ...spec, template: { spec: { containers: [{ name: 'c', image }] } } });
    expect(getPath(d, 'spec.template.spec.containers.0.imagePullPolicy')).toBe(policy);
  });

  it('reads tags like the docker reference grammar', () => {
    expect(imageTag('localhost/app')).toBe('latest');
    expect(imageTag('a'.repeat(64))).toBe('');
  });

  it('defaults ports, probes, env field refs, lifecycle hooks and init containers', () => {
    const probe = { httpGet: { port: 80 } };
    const d = defaulted({
      template: {
        spec: {
          initContainers: [{ name: 'init', image: 'busybox:1' }],
          containers: [
            {
              name: 'web',
              image: 'nginx:1',
              ports: [{ containerPort: 80 }],
              env: [{ name: 'NODE', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } }],
              livenessProbe: probe,
              startupProbe: { grpc: { port: 9000 } },
              lifecycle: { preStop: { httpGet: { port: 80 } } },
            },
          ],
        },
      },
    });
    const c = 'spec.template.spec.containers.0';
    expect(getPath(d, `${c}.ports.0`)).toEqual({ containerPort: 80, protocol: 'TCP' });
    expect(getPath(d, `${c}.env.0.valueFrom.fieldRef.apiVersion`)).toBe('v1');
    expect(getPath(d, `${c}.livenessProbe`)).toEqual({
      httpGet: { port: 80, path: '/', scheme: 'HTTP' },
      timeoutSeconds: 1,
      periodSeconds: 10,
      successThreshold: 1,
      failureThreshold: 3,
    });
    expect(getPath(d, `${c}.startupProbe.grpc`)).toEqual({ port: 9000, service: '' });
    expect(getPath(d, `${c}.lifecycle.preStop.httpGet`)).toEqual({ port: 80, path: '/', scheme: 'HTTP' });
    expect(getPath(d, 'spec.template.spec.initContainers.0.imagePullPolicy')).toBe('IfNotPresent');
  });

  it('gives hostNetwork pods hostPort = containerPort', () => {
    const d = defaulted({
      template: {
        spec: { hostNetwork: true, containers: [{ name: 'c', image: 'x:1', ports: [{ containerPort: 8080 }] }] },
      },
    });
    expect(getPath(d, 'spec.template.spec.containers.0.ports.0.hostPort')).toBe(8080);
  });

  it.each<[string, unknown, unknown]>([
    ['no source', { name: 'v' }, { name: 'v', emptyDir: {} }],
    [
      'secret',
      { name: 'v', secret: { secretName: 's' } },
      { name: 'v', secret: { secretName: 's', defaultMode: 420 } },
    ],
    [
      'configMap',
      { name: 'v', configMap: { name: 'c', defaultMode: 256 } },
      { name: 'v', configMap: { name: 'c', defaultMode: 256 } },
    ],
    ['hostPath', { name: 'v', hostPath: { path: '/x' } }, { name: 'v', hostPath: { path: '/x', type: '' } }],
    [
      'projected token',
      { name: 'v', projected: { sources: [{ serviceAccountToken: { path: 't' } }] } },
      {
        name: 'v',
        projected: { defaultMode: 420, sources: [{ serviceAccountToken: { path: 't', expirationSeconds: 3600 } }] },
      },
    ],
  ])('defaults a %s volume', (_name, volume, expected) => {
    const d = defaulted({ template: { spec: { volumes: [volume], containers: [] } } });
    expect(getPath(d, 'spec.template.spec.volumes.0')).toEqual(expected);
  });
});

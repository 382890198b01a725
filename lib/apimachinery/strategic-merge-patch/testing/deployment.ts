// The live Deployment, patch builders and the case shape shared by the strategic merge patch tests.
import { patchMetaForKind, type PatchMeta } from '..';

export const DEPLOYMENT_META = patchMetaForKind('apps/v1', 'Deployment') as PatchMeta;

/** A Deployment with two containers, a volume, tolerations, finalizers and an owner. */
export function live(): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      labels: { app: 'web', tier: 'front' },
      finalizers: ['a.io/x', 'b.io/y'],
      ownerReferences: [{ apiVersion: 'v1', kind: 'Owner', name: 'o1', uid: 'u1' }],
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [main(), sidecar()],
          volumes: [{ name: 'data', emptyDir: {} }],
          tolerations: [{ key: 'k1', operator: 'Exists' }],
          imagePullSecrets: [{ name: 'reg' }],
        },
      },
    },
    status: {
      conditions: [
        { type: 'Available', status: 'True' },
        { type: 'Progressing', status: 'True' },
      ],
    },
  };
}

export const POD = 'spec.template.spec';
export const CONTAINERS = `${POD}.containers`;

export function at(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], obj);
}

/** Builds a patch that sets `value` at the dotted `path`. */
export function patchAt(path: string, value: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reverse()
    .reduce<Record<string, unknown>>((inner, key, i) => ({ [key]: i === 0 ? value : inner }), {});
}

export const main = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'main',
  image: 'nginx:1',
  args: ['-v'],
  ports: [{ containerPort: 80, name: 'http' }],
  env: [
    { name: 'A', value: '1' },
    { name: 'B', value: '2' },
  ],
  ...extra,
});
export const sidecar = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'sidecar',
  image: 'envoy:1',
  volumeMounts: [{ name: 'data', mountPath: '/data' }],
  ...extra,
});

// [description, path the patch is rooted at, patch value there, path to read, expected value there]
export type Case = [string, string, unknown, string, unknown];

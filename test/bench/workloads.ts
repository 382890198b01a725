// Request bodies and paths of the server workloads: Deployment creates and GETs in namespace `bench`.
export const NAMESPACE = 'bench';
export const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NAMESPACE}/deployments`;

/** A realistic small Deployment (≈1 KB of JSON). */
export function deploymentBody(name: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name,
      namespace: NAMESPACE,
      labels: { app: name, tier: 'web', 'app.kubernetes.io/managed-by': 'orch-bench' },
      annotations: { 'bench.orch.io/purpose': 'load test' },
    },
    spec: {
      replicas: 3,
      selector: { matchLabels: { app: name } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: name, tier: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.25.3',
              ports: [{ name: 'http', containerPort: 80, protocol: 'TCP' }],
              env: [{ name: 'LOG_LEVEL', value: 'info' }],
              resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
              readinessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 10 },
            },
          ],
        },
      },
    },
  });
}

export const namespaceBody = JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NAMESPACE } });

/** A Deployment of about 2 KiB (annotations pad a realistic spec). */
export function bigDeployment(name: string): string {
  return JSON.stringify({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: { app: name, tier: 'web' }, annotations: { 'bench.orch.io/notes': 'n'.repeat(900) } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name, tier: 'web' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'nginx:1.25.3',
              ports: [{ containerPort: 80 }],
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
            },
          ],
        },
      },
    },
  });
}

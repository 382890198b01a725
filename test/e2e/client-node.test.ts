// End-to-end: the built server binary driven by @kubernetes/client-node (ESM-only, so it runs in a child `node`
// process from client-node-script.mjs, which prints one JSON document of step results asserted on here).
import { join } from 'node:path';
import { startBinaryServer, type BinaryServer } from '../helpers/binary-server';
import { runClientNodeScript, stepValue, type Step } from '../helpers/client-node-script';

const SCRIPT = join(__dirname, 'client-node-script.mjs');

let server: BinaryServer;
let steps: Record<string, Step>;
const namespace = `e2e-client-node-${process.pid}`;

/** The step's value, or a failure naming the step and its error. */
const value = (name: string): any => stepValue(steps, name);

beforeAll(async () => {
  server = await startBinaryServer();
  steps = await runClientNodeScript(SCRIPT, [server.url, namespace]);
}, 120_000);

afterAll(async () => {
  await server?.stop();
}, 60_000);

describe('@kubernetes/client-node against the built server', () => {
  it('CoreV1Api.listNamespace includes default', () => {
    expect(value('listNamespace').names).toEqual(
      expect.arrayContaining(['default', 'kube-system', 'kube-public', 'kube-node-lease']),
    );
  });

  it('CoreV1Api.createNamespace creates an Active namespace', () => {
    expect(value('createNamespace')).toEqual({ name: namespace, phase: 'Active' });
  });

  it('AppsV1Api.createNamespacedDeployment and readNamespacedDeployment return the defaulted object', () => {
    const created = value('createNamespacedDeployment');
    expect(created).toMatchObject({ name: 'web', namespace, replicas: 1 });
    expect(created.uid).toEqual(expect.any(String));
    expect(value('readNamespacedDeployment')).toMatchObject({
      name: 'web',
      replicas: 1,
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      generation: 1,
    });
  });

  it('AppsV1Api.replaceNamespacedDeployment changes the replica count', () => {
    expect(value('replaceNamespacedDeployment')).toEqual({
      replicas: 3,
      generation: 2,
      resourceVersionChanged: true,
      readBackReplicas: 3,
    });
  });

  it('AppsV1Api.listDeploymentForAllNamespaces includes the deployment', () => {
    const list = value('listDeploymentForAllNamespaces');
    expect(list.items).toContain(`${namespace}/web`);
    expect(list.resourceVersion).toEqual(expect.any(String));
  });

  it('AutoscalingV1Api.createNamespacedHorizontalPodAutoscaler and read return the defaulted HPA', () => {
    expect(value('createNamespacedHorizontalPodAutoscaler')).toEqual({ name: 'web', minReplicas: 1, maxReplicas: 5 });
    expect(value('readNamespacedHorizontalPodAutoscaler')).toEqual({
      name: 'web',
      minReplicas: 1,
      maxReplicas: 5,
      targetCPUUtilizationPercentage: 70,
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
    });
  });

  it('AppsV1Api.deleteNamespacedDeployment succeeds', () => {
    expect(value('deleteNamespacedDeployment')).toEqual({ kind: 'Status', status: 'Success' });
  });

  it('reading the deleted deployment throws a 404 ApiException with a NotFound Status', () => {
    const step = steps['readDeletedDeployment'];
    expect(step?.ok).toBe(false);
    expect(step?.error).toMatchObject({
      apiException: true,
      code: 404,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        status: 'Failure',
        reason: 'NotFound',
        code: 404,
        message: 'deployments.apps "web" not found',
        details: { name: 'web', group: 'apps', kind: 'deployments' },
      },
    });
  });

  it('an informer lists, then watches: the existing deployment and each later change arrive in order', () => {
    const { events, cached, errors } = value('informer');
    expect(errors).toEqual([]);
    expect(events.filter((e: string) => e.includes('inf-'))).toEqual([
      'add inf-a',
      'add inf-b',
      'update inf-a 4',
      'delete inf-b',
    ]);
    expect(cached).toEqual(['inf-a 4']);
  });
});

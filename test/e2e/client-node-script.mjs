// Drives a running orch-apiserver with @kubernetes/client-node (ESM-only, hence a plain .mjs run by `node`).
// Usage: node client-node-script.mjs <server-url> <namespace>
// Prints one JSON document on stdout: { steps: { <step>: <result> } }; a step that throws records { error }.
import { CoreV1Api, AppsV1Api, AutoscalingV1Api, makeInformer } from '@kubernetes/client-node';
import { kubeConfig, stepRecorder, until } from './client-node-harness.mjs';

const [serverUrl, namespace] = process.argv.slice(2);
if (!serverUrl || !namespace) {
  process.stderr.write('usage: client-node-script.mjs <server-url> <namespace>\n');
  process.exit(2);
}

const kc = kubeConfig(serverUrl, namespace);
const core = kc.makeApiClient(CoreV1Api);
const apps = kc.makeApiClient(AppsV1Api);
const autoscaling = kc.makeApiClient(AutoscalingV1Api);
const { step, print } = stepRecorder();

const deployment = (replicas) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', labels: { app: 'web' } },
  spec: {
    replicas,
    selector: { matchLabels: { app: 'web' } },
    template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
  },
});

await step('listNamespace', async () => {
  const list = await core.listNamespace();
  return { names: list.items.map((n) => n.metadata?.name) };
});

await step('createNamespace', async () => {
  const ns = await core.createNamespace({ body: { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } } });
  return { name: ns.metadata?.name, phase: ns.status?.phase };
});

await step('createNamespacedDeployment', async () => {
  const d = await apps.createNamespacedDeployment({ namespace, body: deployment(1) });
  return { name: d.metadata?.name, namespace: d.metadata?.namespace, replicas: d.spec?.replicas, uid: d.metadata?.uid };
});

let current;
await step('readNamespacedDeployment', async () => {
  current = await apps.readNamespacedDeployment({ name: 'web', namespace });
  return {
    name: current.metadata?.name,
    replicas: current.spec?.replicas,
    revisionHistoryLimit: current.spec?.revisionHistoryLimit,
    progressDeadlineSeconds: current.spec?.progressDeadlineSeconds,
    strategy: current.spec?.strategy,
    resourceVersion: current.metadata?.resourceVersion,
    generation: current.metadata?.generation,
  };
});

await step('replaceNamespacedDeployment', async () => {
  if (!current) throw new Error('no deployment read');
  current.spec.replicas = 3;
  const d = await apps.replaceNamespacedDeployment({ name: 'web', namespace, body: current });
  const again = await apps.readNamespacedDeployment({ name: 'web', namespace });
  return {
    replicas: d.spec?.replicas,
    generation: d.metadata?.generation,
    resourceVersionChanged: d.metadata?.resourceVersion !== current.metadata?.resourceVersion,
    readBackReplicas: again.spec?.replicas,
  };
});

await step('listDeploymentForAllNamespaces', async () => {
  const list = await apps.listDeploymentForAllNamespaces();
  return { items: list.items.map((d) => `${d.metadata?.namespace}/${d.metadata?.name}`), resourceVersion: list.metadata?.resourceVersion };
});

await step('createNamespacedHorizontalPodAutoscaler', async () => {
  const hpa = await autoscaling.createNamespacedHorizontalPodAutoscaler({
    namespace,
    body: {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web' },
      spec: { scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' }, maxReplicas: 5, targetCPUUtilizationPercentage: 70 },
    },
  });
  return { name: hpa.metadata?.name, minReplicas: hpa.spec?.minReplicas, maxReplicas: hpa.spec?.maxReplicas };
});

await step('readNamespacedHorizontalPodAutoscaler', async () => {
  const hpa = await autoscaling.readNamespacedHorizontalPodAutoscaler({ name: 'web', namespace });
  return {
    name: hpa.metadata?.name,
    minReplicas: hpa.spec?.minReplicas,
    maxReplicas: hpa.spec?.maxReplicas,
    targetCPUUtilizationPercentage: hpa.spec?.targetCPUUtilizationPercentage,
    scaleTargetRef: hpa.spec?.scaleTargetRef,
  };
});

await step('deleteNamespacedDeployment', async () => {
  const res = await apps.deleteNamespacedDeployment({ name: 'web', namespace });
  return { kind: res.kind, status: res.status };
});

await step('readDeletedDeployment', async () => {
  const d = await apps.readNamespacedDeployment({ name: 'web', namespace });
  return { unexpectedlyFound: d.metadata?.name, deletionTimestamp: d.metadata?.deletionTimestamp };
});

const named = (name, replicas) => {
  const d = deployment(replicas);
  d.metadata = { name, labels: { app: 'web' } };
  return d;
};

// An informer (list, then watch from the list's resourceVersion) sees the existing object and every change.
await step('informer', async () => {
  await apps.createNamespacedDeployment({ namespace, body: named('inf-a', 1) });
  const informer = makeInformer(kc, `/apis/apps/v1/namespaces/${namespace}/deployments`, () => apps.listNamespacedDeployment({ namespace }));
  const events = [];
  informer.on('add', (d) => events.push(`add ${d.metadata?.name}`));
  informer.on('update', (d) => events.push(`update ${d.metadata?.name} ${d.spec?.replicas}`));
  informer.on('delete', (d) => events.push(`delete ${d.metadata?.name}`));
  const errors = [];
  informer.on('error', (err) => errors.push(String(err)));
  await informer.start();
  await until(() => events.includes('add inf-a'), 10_000, 'the initial add');
  await apps.createNamespacedDeployment({ namespace, body: named('inf-b', 1) });
  const a = await apps.readNamespacedDeployment({ name: 'inf-a', namespace });
  a.spec.replicas = 4;
  await apps.replaceNamespacedDeployment({ name: 'inf-a', namespace, body: a });
  await apps.deleteNamespacedDeployment({ name: 'inf-b', namespace });
  await until(() => events.includes('delete inf-b'), 10_000, 'the delete event');
  const cached = informer.list(namespace).map((d) => `${d.metadata?.name} ${d.spec?.replicas}`);
  // Stopping aborts the watch request, which the informer reports as an error; only errors before count.
  const errorsWhileRunning = [...errors];
  await informer.stop();
  return { events, cached, errors: errorsWhileRunning };
});

print();

// What controllers built on @kubernetes/client-node do beyond plain CRUD: discovery-driven KubernetesObjectApi on the
// orch flowcontrol group, every patch content type, paginated lists, selector watches, an informer relisting after a
// 410, and the ApiException a client sees for each failure. Usage: node client-node-qa-script.mjs <server-url> <namespace>
import { AppsV1Api, CoreV1Api, KubernetesObjectApi, PatchStrategy, Watch, makeInformer, setHeaderOptions } from '@kubernetes/client-node';
import { kubeConfig, stepRecorder, until } from './client-node-harness.mjs';

const [serverUrl, namespace] = process.argv.slice(2);
if (!serverUrl || !namespace) {
  process.stderr.write('usage: client-node-qa-script.mjs <server-url> <namespace>\n');
  process.exit(2);
}

const kc = kubeConfig(serverUrl, namespace);
const core = kc.makeApiClient(CoreV1Api);
const apps = kc.makeApiClient(AppsV1Api);
const objects = KubernetesObjectApi.makeApiClient(kc);
const { step, print } = stepRecorder();
const contentType = (type) => setHeaderOptions('Content-Type', type);

const FLOWCONTROL = 'flowcontrol.apiserver.orch.io';
const deployment = (name, labels = { app: name }) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name, labels },
  spec: { selector: { matchLabels: { app: name } }, template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } } },
});

await core.createNamespace({ body: { metadata: { name: namespace } } });
await apps.createNamespacedDeployment({ namespace, body: deployment('web') });

await step('discoveryVerbs', async () => {
  const verbsOf = (list, name) => list.resources.find((r) => r.name === name)?.verbs;
  return { namespaces: verbsOf(await core.getAPIResources(), 'namespaces'), deployments: verbsOf(await apps.getAPIResources(), 'deployments') };
});

// client-node's generated patch methods send application/json-patch+json unless told otherwise.
await step('patchMissingWithObjectBody', () => apps.patchNamespacedDeployment({ namespace, name: 'ghost', body: { spec: { replicas: 2 } } }));

await step('patchContentTypes', async () => {
  const replicas = async (promise) => (await promise).spec.replicas;
  const patch = (body, type, extra = {}) => apps.patchNamespacedDeployment({ namespace, name: 'web', body, ...extra }, contentType(type));
  const json = await replicas(apps.patchNamespacedDeployment({ namespace, name: 'web', body: [{ op: 'replace', path: '/spec/replicas', value: 2 }] }));
  const merge = await replicas(patch({ spec: { replicas: 3 } }, PatchStrategy.MergePatch));
  const strategic = await replicas(patch({ spec: { replicas: 4 } }, PatchStrategy.StrategicMergePatch));
  const applied = await patch({ ...deployment('web'), spec: { ...deployment('web').spec, replicas: 5 } }, PatchStrategy.ServerSideApply, { fieldManager: 'qa', force: true });
  const managers = applied.metadata.managedFields.map((m) => `${m.manager}/${m.operation}`).sort();
  return { json, merge, strategic, apply: applied.spec.replicas, managers };
});

await step('applyConflict', () =>
  apps.patchNamespacedDeployment({ namespace, name: 'web', fieldManager: 'other', body: { ...deployment('web'), spec: { ...deployment('web').spec, replicas: 6 } } }, contentType(PatchStrategy.ServerSideApply)),
);

await step('createInvalid', () => apps.createNamespacedDeployment({ namespace, body: { ...deployment('bad'), spec: { ...deployment('bad').spec, replicas: -1 } } }));

await step('objectApiFlowSchema', async () => {
  const spec = { priorityLevelConfiguration: { name: 'global-default' }, matchingPrecedence: 5000 };
  const created = await objects.create({ apiVersion: `${FLOWCONTROL}/v1beta3`, kind: 'FlowSchema', metadata: { name: namespace }, spec });
  const ref = (version) => ({ apiVersion: `${FLOWCONTROL}/${version}`, kind: 'FlowSchema', metadata: { name: namespace } });
  const readOld = await objects.read(ref('v1beta2'));
  const patched = await objects.patch({ ...ref('v1beta3'), spec: { matchingPrecedence: 4000 } }, undefined, undefined, undefined, undefined, PatchStrategy.MergePatch);
  const list = await objects.list(`${FLOWCONTROL}/v1beta3`, 'FlowSchema');
  const deleted = await objects.delete(ref('v1beta3'));
  return {
    created: created.apiVersion,
    readOld: readOld.apiVersion,
    patched: patched.spec.matchingPrecedence,
    listed: list.items.some((i) => i.metadata.name === namespace),
    deleted: deleted.status,
  };
});

await step('paginatedList', async () => {
  for (const name of ['p1', 'p2', 'p3', 'p4']) await apps.createNamespacedDeployment({ namespace, body: deployment(name, { app: name, page: 'yes' }) });
  const pages = [];
  let token;
  do {
    const page = await apps.listNamespacedDeployment({ namespace, labelSelector: 'page=yes', limit: 3, _continue: token });
    pages.push({ names: page.items.map((d) => d.metadata.name), remaining: page.metadata.remainingItemCount ?? null });
    token = page.metadata._continue;
  } while (token);
  return pages;
});

await step('labelSelectorWatch', async () => {
  const events = [];
  const from = (await apps.listNamespacedDeployment({ namespace })).metadata.resourceVersion;
  const request = await new Watch(kc).watch(`/apis/apps/v1/namespaces/${namespace}/deployments`, { resourceVersion: from, labelSelector: 'tier=front' }, (type, obj) => events.push(`${type} ${obj.metadata.name}`), () => {});
  await apps.createNamespacedDeployment({ namespace, body: deployment('front', { app: 'front', tier: 'front' }) });
  await apps.patchNamespacedDeployment({ namespace, name: 'front', body: { metadata: { labels: { tier: 'back' } } } }, contentType(PatchStrategy.MergePatch));
  await until(() => events.length >= 2, 10_000, 'two watch events');
  request.abort();
  return events;
});

// A list whose resourceVersion etcd has compacted: the informer's watch gets a 410 ERROR event and the informer relists.
await step('informerRelistAfterExpired', async () => {
  const stale = await apps.listNamespacedDeployment({ namespace });
  await apps.deleteNamespacedDeployment({ namespace, name: 'p1' });
  const expired = async () => {
    try {
      await apps.listNamespacedDeployment({ namespace, resourceVersion: stale.metadata.resourceVersion, resourceVersionMatch: 'Exact' });
      return false;
    } catch (err) {
      return err.code === 410;
    }
  };
  await until(expired, 30_000, 'etcd compacting the stale resourceVersion');
  let lists = 0;
  const informer = makeInformer(kc, `/apis/apps/v1/namespaces/${namespace}/deployments`, () => (++lists === 1 ? Promise.resolve(stale) : apps.listNamespacedDeployment({ namespace })));
  const errors = [];
  informer.on('error', (err) => errors.push(String(err)));
  await informer.start();
  await until(() => lists >= 2 && !informer.get('p1', namespace), 10_000, 'the relist');
  await apps.createNamespacedDeployment({ namespace, body: deployment('after') });
  await until(() => informer.get('after', namespace) !== undefined, 10_000, 'the watch after the relist');
  const errorsWhileRunning = [...errors];
  await informer.stop();
  return { lists, errors: errorsWhileRunning, cached: informer.list(namespace).map((d) => d.metadata.name).sort() };
});

print();

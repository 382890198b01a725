// KubernetesObjectApi (client-node's generic client, which finds a kind's resource through discovery) with objects
// written in the Kubernetes group names. Usage: node client-node-object-api-script.mjs <server-url> <namespace>
import { CoreV1Api, KubernetesObjectApi, PatchStrategy } from '@kubernetes/client-node';
import { kubeConfig, stepRecorder } from './client-node-harness.mjs';

const [serverUrl, namespace] = process.argv.slice(2);
const kc = kubeConfig(serverUrl, namespace);
const objects = KubernetesObjectApi.makeApiClient(kc);
const { step, print } = stepRecorder();

const role = {
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'Role',
  metadata: { name: 'reader', namespace },
  rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }],
};
const event = {
  apiVersion: 'events.k8s.io/v1',
  kind: 'Event',
  metadata: { name: 'started', namespace },
  eventTime: '2026-01-01T00:00:00.000000Z',
  reportingController: 'example.com/ctl',
  reportingInstance: 'ctl-1',
  action: 'Start',
  reason: 'Started',
  type: 'Normal',
  regarding: { kind: 'Pod', name: 'web', namespace },
};
const hooks = {
  apiVersion: 'admissionregistration.k8s.io/v1',
  kind: 'ValidatingWebhookConfiguration',
  metadata: { name: `${namespace}-hooks` },
};

await step('createNamespace', async () => {
  await kc.makeApiClient(CoreV1Api).createNamespace({ body: { metadata: { name: namespace } } });
  return true;
});
for (const obj of [role, event, hooks]) {
  await step(`create ${obj.kind}`, async () => {
    const created = await objects.create(obj);
    return { apiVersion: created.apiVersion, name: created.metadata.name };
  });
}
await step('read Role', async () => (await objects.read(role)).rules);
await step('patch Role', async () => {
  const patched = await objects.patch(
    { ...role, metadata: { ...role.metadata, labels: { team: 'a' } } },
    undefined,
    undefined,
    'object-api',
    true,
    PatchStrategy.ServerSideApply,
  );
  return patched.metadata.labels;
});
await step('list Roles', async () =>
  (await objects.list('rbac.authorization.k8s.io/v1', 'Role', namespace)).items.map((r) => r.metadata.name),
);
for (const obj of [role, event, hooks]) {
  await step(`delete ${obj.kind}`, async () => {
    await objects.delete(obj);
    return true;
  });
}
print();

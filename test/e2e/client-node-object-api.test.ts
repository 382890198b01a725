// @kubernetes/client-node's KubernetesObjectApi maps apiVersion/kind to a resource through discovery
// (/apis/<group>/<version>): objects written with rbac.authorization.k8s.io, events.k8s.io or
// admissionregistration.k8s.io are created, read, applied, listed and deleted. Before, those group-versions listed
// no resources and the client answered "Unrecognized API version and kind".
import { join } from 'node:path';
import { runClientNodeScript, stepValue, type Step } from '../helpers/client-node-script';
import { startTestServer, type TestServer } from '../helpers/test-server';

const SCRIPT = join(__dirname, 'client-node-object-api-script.mjs');
const namespace = `object-api-${process.pid}`;
let ts: TestServer;
let steps: Record<string, Step>;

beforeAll(async () => {
  ts = await startTestServer();
  steps = await runClientNodeScript(SCRIPT, [ts.url, namespace]);
}, 90_000);
afterAll(async () => ts?.stop());

describe('KubernetesObjectApi with Kubernetes group names', () => {
  it('creates each object, answered in the group it was asked in or the served one', () => {
    expect(stepValue(steps, 'create Role')).toEqual({ apiVersion: 'rbac.authorization.k8s.io/v1', name: 'reader' });
    expect(stepValue(steps, 'create Event').name).toBe('started');
    expect(stepValue(steps, 'create ValidatingWebhookConfiguration').name).toBe(`${namespace}-hooks`);
  });

  it('reads, applies and lists through the same mapping', () => {
    expect(stepValue(steps, 'read Role')).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get'] }]);
    expect(stepValue(steps, 'patch Role')).toEqual({ team: 'a' });
    expect(stepValue(steps, 'list Roles')).toEqual(['reader']);
  });

  it('deletes them, and the server no longer has them', async () => {
    for (const kind of ['Role', 'Event', 'ValidatingWebhookConfiguration'])
      expect(stepValue(steps, `delete ${kind}`)).toBe(true);
    expect((await ts.api.get(`/apis/rbac.authorization.k8s.io/v1/namespaces/${namespace}/roles/reader`)).status).toBe(
      404,
    );
  });
});

// Objects read back as Kubernetes writes them from their Go types (resources.md, "JSON output quirks clients see"):
// struct fields always present, omitempty zero values gone; in responses, in etcd, in every version, in managedFields.
import { Etcd3 } from 'etcd3';
import { startTestServer, createNamespace, type TestServer } from '../helpers/test-server';
import { aDeployment, anHpa } from '../helpers/fixtures';
import { Kubectl } from '../helpers/kubectl';

let ts: TestServer;
let etcd: Etcd3;
const NS = 'go-shape';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

beforeAll(async () => {
  ts = await startTestServer();
  etcd = new Etcd3({ hosts: ts.etcd.clientUrl });
  await createNamespace(ts.api, NS);
});
afterAll(async () => {
  etcd.close();
  await ts.stop();
});

/** A Deployment whose body carries omitempty zero values and no container resources. */
function withZeroValues(name: string): Record<string, any> {
  const dep = aDeployment(name);
  dep['metadata'].annotations = {};
  dep['spec'].paused = false;
  dep['spec'].minReadySeconds = 0;
  dep['spec'].template.spec.containers[0].ports = [];
  return dep;
}

describe('Go-shaped objects', () => {
  it("answers a create with the template's creationTimestamp: null and resources: {}, without the omitempty zeros", async () => {
    const res = await ts.api.post(DEPLOYMENTS, withZeroValues('created'));
    expect(res.status).toBe(201);
    const { spec, metadata } = res.body;
    expect(spec.template.metadata).toEqual({ labels: { app: 'created' }, creationTimestamp: null });
    expect(spec.template.spec.containers[0].resources).toEqual({});
    expect(spec.template.spec.containers[0]).not.toHaveProperty('ports');
    expect(spec).not.toHaveProperty('paused');
    expect(spec).not.toHaveProperty('minReadySeconds');
    expect(metadata).not.toHaveProperty('annotations');
    expect((await ts.api.get(`${DEPLOYMENTS}/created`)).body.spec).toEqual(spec);
  });

  it('stores that form in etcd', async () => {
    const stored = JSON.parse((await etcd.get(`/registry/apps/deployments/${NS}/created`).string()) ?? '{}');
    expect(stored.spec.template.metadata.creationTimestamp).toBeNull();
    expect(stored.spec.template.spec.containers[0].resources).toEqual({});
    expect(stored.spec).not.toHaveProperty('paused');
  });

  it('records no managedFields for the omitempty zeros the Go object does not have', async () => {
    const res = await ts.api.get(`${DEPLOYMENTS}/created`);
    const fields = res.body.metadata.managedFields[0].fieldsV1;
    expect(fields['f:spec']).not.toHaveProperty('f:paused');
    expect(fields['f:spec']).not.toHaveProperty('f:minReadySeconds');
    expect(fields['f:metadata']).not.toHaveProperty('f:annotations');
    expect(fields['f:spec']['f:template']['f:spec']['f:containers']['k:{"name":"main"}']).toHaveProperty('f:resources');
  });

  it('writes a PUT, a merge patch and a dry run the same way, and a PUT of the read-back changes nothing', async () => {
    const read = (await ts.api.get(`${DEPLOYMENTS}/created`)).body;
    const put = await ts.api.put(`${DEPLOYMENTS}/created`, read);
    expect(put.status).toBe(200);
    expect(put.body.metadata.resourceVersion).toBe(read.metadata.resourceVersion); // nothing changed, nothing written
    const patched = await ts.api.patch(
      `${DEPLOYMENTS}/created`,
      { spec: { paused: false, template: { spec: { containers: [{ name: 'main', resources: null }] } } } },
      'application/strategic-merge-patch+json',
    );
    expect(patched.status).toBe(200);
    expect(patched.body.spec).not.toHaveProperty('paused');
    expect(patched.body.spec.template.spec.containers[0].resources).toEqual({});
    const dry = await ts.api.post(`${DEPLOYMENTS}?dryRun=All`, withZeroValues('dry'));
    expect(dry.status).toBe(201);
    expect(dry.body.spec.template.metadata.creationTimestamp).toBeNull();
    expect(dry.body.spec).not.toHaveProperty('paused');
  });

  it('writes non-omitempty HPA status fields in each version (v2 desiredReplicas and currentMetrics, v1 both replica counts)', async () => {
    const created = await ts.api.post(`/apis/autoscaling/v1/namespaces/${NS}/horizontalpodautoscalers`, anHpa('web'));
    expect(created.status).toBe(201);
    expect(created.body.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
    const v2 = await ts.api.get(`/apis/autoscaling/v2/namespaces/${NS}/horizontalpodautoscalers/web`);
    expect(v2.body.status).toEqual({ desiredReplicas: 0, currentMetrics: null });
  });

  it('shows creationTimestamp: null and resources: {} in kubectl get -o yaml', async () => {
    const out = await new Kubectl(ts.url).ok('get', 'deployment', 'created', '-n', NS, '-o', 'yaml');
    expect(out).toMatch(/template:\n\s+metadata:\n\s+creationTimestamp: null\n/);
    expect(out).toMatch(/\n\s+resources: \{\}\n/);
  });
});

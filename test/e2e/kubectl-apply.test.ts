// End-to-end: real kubectl apply (server-side, conflicts, --force-conflicts, client-side migration), diff and --dry-run=server.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { useKubectlOnBinaryServer } from '../helpers/kubectl';

const ns = `e2e-apply-${process.pid}`;
const env = useKubectlOnBinaryServer(ns);

/** Writes a Deployment manifest into kubectl's work dir and returns its path. */
function manifest(name: string, replicas: number, image = 'nginx:1.25'): string {
  const yaml = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: ${name}
  namespace: ${ns}
spec:
  replicas: ${replicas}
  selector:
    matchLabels: {app: ${name}}
  template:
    metadata:
      labels: {app: ${name}}
    spec:
      containers:
      - name: web
        image: ${image}
`;
  const file = join(env.kubectl().workDir, `${name}-${replicas}-${image.replace(/[^a-z0-9]/g, '')}.yaml`);
  writeFileSync(file, yaml);
  return file;
}

async function getDeployment(name: string): Promise<any> {
  return JSON.parse(await env.kubectl().ok('-n', ns, 'get', 'deployment', name, '-o', 'json', '--show-managed-fields'));
}

const managers = (dep: any): Array<[string, string]> =>
  dep.metadata.managedFields.map((e: Record<string, string>) => [e['manager'], e['operation']]);

describe('kubectl apply --server-side', () => {
  it('creates, then updates, under the kubectl Apply entry', async () => {
    expect(await env.kubectl().ok('apply', '--server-side', '-f', manifest('ssa', 2))).toContain(
      'deployment.apps/ssa serverside-applied',
    );
    expect(managers(await getDeployment('ssa'))).toEqual([['kubectl', 'Apply']]);
    await env.kubectl().ok('apply', '--server-side', '-f', manifest('ssa', 3));
    const dep = await getDeployment('ssa');
    expect(dep.spec.replicas).toBe(3);
    expect(dep.metadata.managedFields[0].fieldsV1['f:spec']['f:replicas']).toEqual({});
  });

  it('refuses a second field manager changing an owned field with exit code 1 and the conflict listing, until --force-conflicts', async () => {
    const res = await env.kubectl().run(['apply', '--server-side', '--field-manager=other', '-f', manifest('ssa', 5)]);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas');
    expect(res.stderr).toContain('--force-conflicts');
    expect((await getDeployment('ssa')).spec.replicas).toBe(3);

    await env
      .kubectl()
      .ok('apply', '--server-side', '--field-manager=other', '--force-conflicts', '-f', manifest('ssa', 5));
    const dep = await getDeployment('ssa');
    expect(dep.spec.replicas).toBe(5);
    const kubectlEntry = dep.metadata.managedFields.find((e: Record<string, string>) => e['manager'] === 'kubectl');
    expect(kubectlEntry.fieldsV1['f:spec']['f:replicas']).toBeUndefined();
    const other = dep.metadata.managedFields.find((e: Record<string, string>) => e['manager'] === 'other');
    expect(other).toMatchObject({ operation: 'Apply', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
  });

  it('takes over from client-side apply (twice) without conflicts', async () => {
    await env.kubectl().ok('apply', '-f', manifest('csa', 2));
    await env.kubectl().ok('apply', '-f', manifest('csa', 3));
    const before = await getDeployment('csa');
    expect(before.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain('"replicas":3');
    expect(managers(before).map((m) => m[0])).toContain('kubectl-client-side-apply');

    const res = await env.kubectl().run(['apply', '--server-side', '-f', manifest('csa', 3)]);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    const after = await getDeployment('csa');
    const entry = after.metadata.managedFields.find((e: Record<string, string>) => e['manager'] === 'kubectl');
    expect(entry).toMatchObject({ operation: 'Apply', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
    expect(managers(after).map((m) => m[0])).not.toContain('kubectl-client-side-apply');
    expect(after.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain('"replicas":3');
  });
});

describe('kubectl diff', () => {
  it('exits 1 with the changed field when the manifest differs, 0 when it matches', async () => {
    await env.kubectl().ok('apply', '-f', manifest('diffed', 2));
    const same = await env.kubectl().run(['diff', '-f', manifest('diffed', 2)]);
    expect(same.stderr).toBe('');
    expect(same.code).toBe(0);
    expect(same.stdout).toBe('');
    const changed = await env.kubectl().run(['diff', '-f', manifest('diffed', 4)]);
    expect(changed.code).toBe(1);
    expect(changed.stdout).toMatch(/^-\s+replicas: 2$/m);
    expect(changed.stdout).toMatch(/^\+\s+replicas: 4$/m);
    expect((await getDeployment('diffed')).spec.replicas).toBe(2);
  });
});

describe('--dry-run=server', () => {
  it('create, apply and delete leave the objects as they were', async () => {
    expect(await env.kubectl().ok('create', '--dry-run=server', '-f', manifest('dry', 1))).toContain(
      '(server dry run)',
    );
    const missing = await env.kubectl().run(['-n', ns, 'get', 'deployment', 'dry']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('deployments.apps "dry" not found');

    await env.kubectl().ok('apply', '--server-side', '-f', manifest('dry', 1));
    const before = await getDeployment('dry');
    expect(
      await env.kubectl().ok('apply', '--server-side', '--dry-run=server', '-f', manifest('dry', 6, 'nginx:1.26')),
    ).toContain('(server dry run)');
    expect(await env.kubectl().ok('apply', '--dry-run=server', '-f', manifest('dry', 7))).toContain('(server dry run)');
    expect(await env.kubectl().ok('-n', ns, 'delete', 'deployment', 'dry', '--dry-run=server')).toContain(
      'deployment.apps "dry" deleted (server dry run)',
    );
    const after = await getDeployment('dry');
    expect(after.metadata.resourceVersion).toBe(before.metadata.resourceVersion);
    expect(after.spec.replicas).toBe(1);
  });
});

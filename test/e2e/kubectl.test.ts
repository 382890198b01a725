// End-to-end: the built server binary driven by a real `kubectl` (and one older kubectl release when installed).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { Kubectl, kubectlRelease, useKubectlOnBinaryServer, type KubectlResult } from '../helpers/kubectl';

const KUBECTL_127 = kubectlRelease('1.27');
const env = useKubectlOnBinaryServer();
let counter = 0;

/** A name unique to this run (namespaces outlive nothing here, but keep runs from colliding on a shared etcd). */
function unique(prefix: string): string {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

function kubectl(...args: string[]): Promise<KubectlResult> {
  return env.kubectl().run(args);
}

/** Runs kubectl and fails with its output unless it exits 0. */
function kubectlOk(...args: string[]): Promise<string> {
  return env.kubectl().ok(...args);
}

async function getJson(...args: string[]): Promise<any> {
  return JSON.parse(await kubectlOk('get', ...args, '-o', 'json'));
}

function writeManifest(name: string, ...objects: Record<string, unknown>[]): string {
  const file = join(env.kubectl().workDir, name);
  writeFileSync(file, objects.map((o) => stringify(o)).join('---\n'));
  return file;
}

/** Polls `probe` until it returns true or the deadline passes. */
async function eventually(probe: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function deployment(name: string, namespace: string, spec: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace, labels: { app: name } },
    spec: {
      selector: { matchLabels: { app: name } },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } },
      ...spec,
    },
  };
}

describe('kubectl against the built server', () => {
  const ns = unique('e2e-kubectl');
  const fsName = unique('e2e-fs');
  const plName = unique('e2e-pl');

  it('api-resources lists the served kinds with their short names', async () => {
    const out = await kubectlOk('api-resources');
    const rows = out
      .trim()
      .split('\n')
      .map((l) => l.trim().split(/\s+/));
    expect(rows[0]).toEqual(['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND']);
    const byName = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byName.get('namespaces')).toEqual(['namespaces', 'ns', 'v1', 'false', 'Namespace']);
    expect(byName.get('deployments')).toEqual(['deployments', 'deploy', 'apps/v1', 'true', 'Deployment']);
    // autoscaling/v2 is the preferred version, as in Kubernetes 1.26.
    expect(byName.get('horizontalpodautoscalers')).toEqual([
      'horizontalpodautoscalers',
      'hpa',
      'autoscaling/v2',
      'true',
      'HorizontalPodAutoscaler',
    ]);
    // flowcontrol's preferred (and storage) version in 1.26 is still v1beta2: v1beta3 is new in 1.26 (spec Versioning 4b).
    expect(byName.get('flowschemas')).toEqual([
      'flowschemas',
      'flowcontrol.apiserver.orch.io/v1beta2',
      'false',
      'FlowSchema',
    ]);
    expect(byName.get('prioritylevelconfigurations')).toEqual([
      'prioritylevelconfigurations',
      'flowcontrol.apiserver.orch.io/v1beta2',
      'false',
      'PriorityLevelConfiguration',
    ]);
  });

  it('get --raw /readyz?verbose reports every check', async () => {
    const out = await kubectlOk('get', '--raw', '/readyz?verbose');
    const lines = out.split('\n');
    expect(lines).toEqual(
      expect.arrayContaining(['[+]ping ok', '[+]etcd ok', '[+]shutdown ok', 'readyz check passed']),
    );
  });

  it('create -f makes a Namespace, Deployment, HPA, PriorityLevelConfiguration and FlowSchema', async () => {
    const nsFile = writeManifest('ns.yaml', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
    expect(await kubectlOk('create', '-f', nsFile)).toBe(`namespace/${ns} created\n`);

    const deployFile = writeManifest('deploy.yaml', deployment('web', ns));
    expect(await kubectlOk('create', '-f', deployFile)).toBe('deployment.apps/web created\n');

    const hpaFile = writeManifest('hpa.yaml', {
      apiVersion: 'autoscaling/v1',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: 'web', namespace: ns },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
        maxReplicas: 4,
        targetCPUUtilizationPercentage: 75,
      },
    });
    expect(await kubectlOk('create', '-f', hpaFile)).toBe('horizontalpodautoscaler.autoscaling/web created\n');

    // Two documents in one file, the second (no matchingPrecedence) referring to the first.
    const flowFile = writeManifest(
      'flowcontrol.yaml',
      {
        apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
        kind: 'PriorityLevelConfiguration',
        metadata: { name: plName },
        spec: { type: 'Limited', limited: { nominalConcurrencyShares: 10, limitResponse: { type: 'Reject' } } },
      },
      {
        apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
        kind: 'FlowSchema',
        metadata: { name: fsName },
        spec: {
          priorityLevelConfiguration: { name: plName },
          distinguisherMethod: { type: 'ByUser' },
          rules: [
            {
              subjects: [{ kind: 'User', user: { name: 'alice' } }],
              resourceRules: [{ verbs: ['get'], apiGroups: ['apps'], resources: ['deployments'], namespaces: ['*'] }],
            },
          ],
        },
      },
    );
    expect(await kubectlOk('create', '-f', flowFile)).toBe(
      `prioritylevelconfiguration.flowcontrol.apiserver.orch.io/${plName} created\nflowschema.flowcontrol.apiserver.orch.io/${fsName} created\n`,
    );
  });

  it('get -o json returns the Deployment with its defaults', async () => {
    const d = await getJson('deploy', 'web', '-n', ns);
    expect(d).toMatchObject({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: ns, generation: 1 },
    });
    expect(d.metadata.uid).toEqual(expect.any(String));
    expect(d.metadata.resourceVersion).toEqual(expect.any(String));
    expect(d.spec).toMatchObject({
      replicas: 1,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(d.spec.template.spec).toMatchObject({
      restartPolicy: 'Always',
      dnsPolicy: 'ClusterFirst',
      terminationGracePeriodSeconds: 30,
    });
    expect(d.spec.template.spec.containers[0]).toMatchObject({
      imagePullPolicy: 'IfNotPresent',
      terminationMessagePath: '/dev/termination-log',
    });
  });

  it('get -o json returns the HPA (autoscaling/v2, converted from the v1 manifest), PriorityLevelConfiguration and FlowSchema (matchingPrecedence defaulted to 1000)', async () => {
    const hpa = await getJson('hpa', 'web', '-n', ns);
    expect(hpa).toMatchObject({
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      spec: {
        minReplicas: 1,
        maxReplicas: 4,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 75 } } },
        ],
        scaleTargetRef: { kind: 'Deployment', name: 'web' },
      },
    });
    const v1 = await getJson('horizontalpodautoscalers.v1.autoscaling', 'web', '-n', ns);
    expect(v1).toMatchObject({ apiVersion: 'autoscaling/v1', spec: { targetCPUUtilizationPercentage: 75 } });

    // kubectl reads the preferred version, v1beta2 in 1.26 (the v1beta3 manifest's nominalConcurrencyShares comes back as assuredConcurrencyShares),
    // at the group's Kubernetes name, which discovery lists first and the answer keeps.
    const pl = await getJson('prioritylevelconfigurations', plName);
    expect(pl).toMatchObject({
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2',
      kind: 'PriorityLevelConfiguration',
      spec: { type: 'Limited', limited: { assuredConcurrencyShares: 10, limitResponse: { type: 'Reject' } } },
    });
    const plV1beta3 = await getJson('prioritylevelconfigurations.v1beta3.flowcontrol.apiserver.orch.io', plName);
    expect(plV1beta3).toMatchObject({
      apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
      spec: { limited: { nominalConcurrencyShares: 10 } },
    });

    const fs = await getJson('flowschemas', fsName);
    expect(fs).toMatchObject({
      apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta2',
      kind: 'FlowSchema',
      metadata: { name: fsName },
      spec: {
        matchingPrecedence: 1000,
        priorityLevelConfiguration: { name: plName },
        distinguisherMethod: { type: 'ByUser' },
      },
    });
  });

  it('get deploy prints the server-side table', async () => {
    const out = await kubectlOk('get', 'deploy', '-n', ns);
    const [header, ...rows] = out.trim().split('\n');
    expect(header?.trim().split(/\s+/)).toEqual(['NAME', 'READY', 'UP-TO-DATE', 'AVAILABLE', 'AGE']);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.trim().split(/\s+/).slice(0, 4)).toEqual(['web', '0/1', '0', '0']);
  });

  it('label adds a label that get then shows', async () => {
    expect(await kubectlOk('label', 'deploy', 'web', 'tier=front', '-n', ns)).toBe('deployment.apps/web labeled\n');
    const d = await getJson('deploy', 'web', '-n', ns);
    expect(d.metadata.labels).toEqual({ app: 'web', tier: 'front' });
    expect(d.metadata.generation).toBe(1); // metadata-only change
    const selected = await kubectlOk('get', 'deploy', '-n', ns, '-l', 'tier=front', '-o', 'name');
    expect(selected).toBe('deployment.apps/web\n');
  });

  it('scale changes replicas through the scale subresource', async () => {
    expect(await kubectlOk('scale', 'deploy', 'web', '--replicas=3', '-n', ns)).toBe('deployment.apps/web scaled\n');
    const d = await getJson('deploy', 'web', '-n', ns);
    expect(d.spec.replicas).toBe(3);
    expect(d.metadata.generation).toBe(2);
    const stale = await kubectl('scale', 'deploy', 'web', '--replicas=4', '--resource-version=1', '-n', ns);
    expect(stale.code).toBe(1);
  });

  it('imperative commands that send protobuf bodies work: create namespace, create deployment, autoscale', async () => {
    const extra = `${ns}-pb`;
    expect(await kubectlOk('create', 'namespace', extra)).toBe(`namespace/${extra} created\n`);
    expect(await kubectlOk('create', 'deployment', 'pb', '--image=nginx:1.25', '-n', extra)).toBe(
      'deployment.apps/pb created\n',
    );
    expect(await kubectlOk('autoscale', 'deploy', 'pb', '--min=2', '--max=5', '--cpu-percent=80', '-n', extra)).toBe(
      'horizontalpodautoscaler.autoscaling/pb autoscaled\n',
    );
    const hpa = await getJson('hpa', 'pb', '-n', extra);
    expect(hpa.spec).toMatchObject({
      minReplicas: 2,
      maxReplicas: 5,
      metrics: [{ resource: { name: 'cpu', target: { averageUtilization: 80 } } }],
      scaleTargetRef: { kind: 'Deployment', name: 'pb' },
    });
    const d = await getJson('deploy', 'pb', '-n', extra);
    expect(d.spec.template.spec.containers[0].image).toBe('nginx:1.25');
  });

  it('delete --cascade=orphan and --cascade=foreground complete (the server removes the GC finalizers)', async () => {
    for (const cascade of ['orphan', 'foreground']) {
      const name = `cascade-${cascade}`;
      await kubectlOk('create', 'deployment', name, '--image=nginx:1.25', '-n', ns);
      expect(await kubectlOk('delete', 'deploy', name, `--cascade=${cascade}`, '-n', ns, '--timeout=20s')).toBe(
        `deployment.apps "${name}" deleted\n`,
      );
      const after = await kubectl('get', 'deploy', name, '-n', ns);
      expect(after.stderr).toContain(`deployments.apps "${name}" not found`);
    }
  });

  it('refuses an invalid Deployment with exit code 1 and the field error', async () => {
    const file = writeManifest('bad.yaml', deployment('x', ns, { replicas: -1 }));
    const res = await kubectl('create', '-f', file);
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('The Deployment "x" is invalid:');
    expect(res.stderr).toContain('spec.replicas: Invalid value: -1: must be greater than or equal to 0');
    const after = await kubectl('get', 'deploy', 'x', '-n', ns);
    expect(after.code).toBe(1);
    expect(after.stderr).toContain('Error from server (NotFound): deployments.apps "x" not found');
  });

  it('delete deploy succeeds and a later get says NotFound', async () => {
    const del = await kubectl('delete', 'deploy', 'web', '-n', ns);
    expect(del).toMatchObject({ code: 0, stdout: 'deployment.apps "web" deleted\n' });
    const get = await kubectl('get', 'deploy', 'web', '-n', ns);
    expect(get.code).toBe(1);
    expect(get.stdout).toBe('');
    expect(get.stderr.trim()).toBe('Error from server (NotFound): deployments.apps "web" not found');
  });

  it('delete ns waits until the namespace and its content are gone', async () => {
    // Still holds the HPA; add another Deployment so the namespace controller has content to remove.
    await kubectlOk('create', '-f', writeManifest('more.yaml', deployment('api', ns)));
    const del = await kubectl('delete', 'ns', ns, '--timeout=25s');
    expect(del).toMatchObject({ code: 0, stdout: `namespace "${ns}" deleted\n` });
    // kubectl waited for the deletion, so the namespace is already gone.
    const get = await kubectl('get', 'ns', ns);
    expect(get.code).toBe(1);
    expect(get.stderr.trim()).toBe(`Error from server (NotFound): namespaces "${ns}" not found`);
    const hpa = await kubectl('get', 'hpa', 'web', '-n', ns);
    expect(hpa.code).toBe(1);
    expect(hpa.stderr).toContain('Error from server (NotFound)');
  }, 40_000);

  it('delete of the flowcontrol objects succeeds', async () => {
    await kubectlOk('delete', 'flowschema', fsName);
    await kubectlOk('delete', 'prioritylevelconfiguration', plName);
    await eventually(async () => (await kubectl('get', 'flowschema', fsName)).code === 1, 10_000, 'FlowSchema removal');
  });

  // kubectl's typed clients send protobuf bodies (`Content-Type: application/vnd.kubernetes.protobuf`).
  it('create namespace NAME (protobuf request body) creates the namespace', async () => {
    const name = unique('e2e-imperative');
    const res = await kubectl('create', 'namespace', name);
    expect(res).toMatchObject({ code: 0, stdout: `namespace/${name} created\n` });
    await kubectlOk('delete', 'ns', name, '--timeout=20s');
  });

  (KUBECTL_127 ? it : it.skip)('kubectl 1.27 lists namespaces', async () => {
    const old = new Kubectl(env.server().url, KUBECTL_127);
    const res = await old.run(['get', 'ns']);
    old.cleanup();
    expect(res.code).toBe(0);
    const [header, ...rows] = res.stdout.trim().split('\n');
    expect(header?.trim().split(/\s+/)).toEqual(['NAME', 'STATUS', 'AGE']);
    const names = rows.map((r) => r.trim().split(/\s+/));
    expect(names).toEqual(expect.arrayContaining([expect.arrayContaining(['default', 'Active'])]));
  });
});

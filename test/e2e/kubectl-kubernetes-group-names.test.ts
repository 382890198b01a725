// Manifests written with the Kubernetes group names (rbac.authorization.k8s.io, events.k8s.io,
// admissionregistration.k8s.io, flowcontrol.apiserver.k8s.io), as charts and docs carry them: kubectl maps a
// manifest's apiVersion through discovery, so the server lists those names too. Before, `kubectl apply -f` answered
// 'no matches for kind "Role" in version "rbac.authorization.k8s.io/v1"'.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kubectl, kubectlRelease } from '../helpers/kubectl';
import { startTestServer, type TestServer } from '../helpers/test-server';

const VERSIONS = ['1.27', '1.33'].filter((v) => kubectlRelease(v) !== undefined);
const MANIFEST = `apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: pod-reader, namespace: NS}
rules: [{apiGroups: [""], resources: [pods], verbs: [get, list]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRoleBinding
metadata: {name: NS-viewers}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}
subjects: [{kind: Group, name: NS-team, apiGroup: rbac.authorization.k8s.io}]
---
apiVersion: events.k8s.io/v1
kind: Event
metadata: {name: started, namespace: NS}
eventTime: "2026-01-01T00:00:00.000000Z"
reportingController: example.com/ctl
reportingInstance: ctl-1
action: Start
reason: Started
type: Normal
regarding: {kind: Pod, name: web, namespace: NS}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: NS-hooks}
---
apiVersion: flowcontrol.apiserver.k8s.io/v1beta3
kind: FlowSchema
metadata: {name: NS-flow}
spec:
  priorityLevelConfiguration: {name: global-default}
  matchingPrecedence: 5000
  rules: [{subjects: [{kind: Group, group: {name: NS-team}}], nonResourceRules: [{verbs: ["*"], nonResourceURLs: ["*"]}]}]
`;
const OBJECTS = [
  'role.rbac.authorization.k8s.io/pod-reader',
  'clusterrolebinding.rbac.authorization.k8s.io/NS-viewers',
  'event.events.k8s.io/started',
  'validatingwebhookconfiguration.admissionregistration.k8s.io/NS-hooks',
  'flowschema.flowcontrol.apiserver.k8s.io/NS-flow',
];

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
}, 60_000);
afterAll(async () => ts?.stop());

describe.each(VERSIONS)('kubectl %s', (version) => {
  const ns = `names-${version.replace('.', '-')}`;
  let kubectl: Kubectl;
  let file: string;
  beforeAll(async () => {
    kubectl = new Kubectl(ts.url, kubectlRelease(version));
    await kubectl.ok('create', 'namespace', ns);
    file = join(kubectl.workDir, 'manifest.yaml');
    writeFileSync(file, MANIFEST.replaceAll('NS', ns));
  });
  afterAll(() => kubectl?.cleanup());
  const names = (): string[] => OBJECTS.map((o) => o.replace('NS', ns));

  it('applies, re-applies and diffs the manifest client-side', async () => {
    expect((await kubectl.ok('apply', '-f', file)).trim().split('\n')).toEqual(names().map((n) => `${n} created`));
    expect((await kubectl.ok('apply', '-f', file)).trim().split('\n')).toEqual(names().map((n) => `${n} unchanged`));
    expect(await kubectl.run(['diff', '-f', file])).toMatchObject({ code: 0, stdout: '' });
    const role = JSON.parse(
      await kubectl.ok('get', 'role.rbac.authorization.k8s.io', 'pod-reader', '-n', ns, '-o', 'json'),
    );
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
    expect(role.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain('pod-reader');
  });

  it('applies it server-side, then deletes it by the file', async () => {
    expect((await kubectl.ok('apply', '--server-side', '-f', file)).trim().split('\n')).toEqual(
      names().map((n) => `${n} serverside-applied`),
    );
    const deleted = (await kubectl.ok('delete', '-f', file)).trim().split('\n');
    expect(deleted).toHaveLength(OBJECTS.length);
    expect(deleted[0]).toBe('role.rbac.authorization.k8s.io "pod-reader" deleted');
    expect((await kubectl.run(['get', 'roles', '-n', ns, '-o', 'name'])).stdout).toBe('');
  });

  it('resolves bare resource names to the Kubernetes group, so describe and printers work as against 1.26', async () => {
    await kubectl.ok('create', 'role', 'r2', '--verb=get', '--resource=deployments', '-n', ns);
    expect(await kubectl.ok('get', 'roles', '-n', ns, '-o', 'name')).toBe('role.rbac.authorization.k8s.io/r2\n');
    // kubectl's RBAC describer (found by group-kind) prints the rules as a table; the generic one printed the fields.
    const described = await kubectl.ok('describe', 'role', 'r2', '-n', ns);
    expect(described).toMatch(/PolicyRule:\n\s+Resources\s+Non-Resource URLs\s+Resource Names\s+Verbs\n/);
    expect(described).toMatch(/deployments\.apps\s+\[\]\s+\[\]\s+\[get\]/);
    // The orch name still answers when asked for.
    expect(await kubectl.ok('get', 'roles.rbac.authorization.orch.io', '-n', ns, '-o', 'name')).toBe(
      'role.rbac.authorization.orch.io/r2\n',
    );
  });
});

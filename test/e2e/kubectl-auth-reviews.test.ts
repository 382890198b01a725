// kubectl 1.27 and 1.33 against the review kinds now in discovery and OpenAPI: `auth can-i` finds them without a
// warning, `api-resources` lists them, `explain` reads their schemas, and a LocalSubjectAccessReview goes through
// `kubectl create -o json`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kubectl, kubectlRelease } from '../helpers/kubectl';
import { TestPki } from '../helpers/pki';
import { startTestServer, type TestServer } from '../helpers/test-server';

const pki = new TestPki();
const tokenFile = join(pki.dir, 'tokens.csv');
writeFileSync(tokenFile, ['admin-token,admin,uid-admin,system:masters', 'alice-token,alice,uid-a'].join('\n'));
const NS = 'kreviews';
const VERSIONS = ['1.27', '1.33'].filter((v) => kubectlRelease(v) !== undefined);

let ts: TestServer;
const clients = new Map<string, Kubectl>();
const as = (who: string): string[] => [`--certificate-authority=${pki.ca.cert}`, `--token=${who}-token`];

beforeAll(async () => {
  ts = await startTestServer([
    `--tls-cert-file=${pki.serving.cert}`,
    `--tls-private-key-file=${pki.serving.key}`,
    `--token-auth-file=${tokenFile}`,
    '--authorization-mode=RBAC',
  ]);
  for (const v of VERSIONS) clients.set(v, new Kubectl(ts.url, kubectlRelease(v)));
  const first = clients.get(VERSIONS[0] as string) as Kubectl;
  await first.ok(...as('admin'), 'create', 'namespace', NS);
  await first.ok(
    ...as('admin'),
    'create',
    'rolebinding',
    'alice-admin',
    '--clusterrole=admin',
    '--user=alice',
    '-n',
    NS,
  );
}, 60_000);
afterAll(async () => {
  for (const k of clients.values()) k.cleanup();
  await ts?.stop();
  pki.remove();
});

describe.each(VERSIONS)('kubectl %s', (version) => {
  const kubectl = (): Kubectl => clients.get(version) as Kubectl;

  it('auth can-i finds the review resources in discovery (no warning)', async () => {
    const self = await kubectl().run([...as('alice'), 'auth', 'can-i', 'create', 'selfsubjectaccessreviews']);
    expect(self).toMatchObject({ code: 0, stdout: 'yes\n' });
    // Before: "Warning: the server doesn't have a resource type 'selfsubjectaccessreviews'". kubectl still notes the
    // scope, as it does against any cluster when a namespace is set.
    expect(self.stderr).toBe(
      "Warning: resource 'selfsubjectaccessreviews' is not namespace scoped in group 'authorization.k8s.io'\n\n",
    );
    const local = await kubectl().run([
      ...as('alice'),
      'auth',
      'can-i',
      'create',
      'localsubjectaccessreviews',
      '-n',
      NS,
    ]);
    expect(local).toMatchObject({ code: 0, stdout: 'yes\n' });
    expect(local.stderr).toBe('');
    const elsewhere = await kubectl().run([
      ...as('alice'),
      'auth',
      'can-i',
      'create',
      'localsubjectaccessreviews',
      '-n',
      'default',
    ]);
    expect(elsewhere).toMatchObject({ code: 1, stdout: 'no\n' });
  });

  it('api-resources lists the five review kinds, create only', async () => {
    const out = await kubectl().ok(...as('admin'), 'api-resources', '-o', 'wide');
    const rows = out.split('\n').filter((line) => /reviews\s.*\.orch\.io\//.test(line));
    expect(rows.map((r) => r.split(/\s+/)[0]).sort()).toEqual([
      'localsubjectaccessreviews',
      'selfsubjectaccessreviews',
      'selfsubjectrulesreviews',
      'subjectaccessreviews',
      'tokenreviews',
    ]);
    for (const row of rows) expect(row).toMatch(/\s\[?create\]?(\s|$)/);
    expect(rows.find((r) => r.startsWith('localsubjectaccessreviews'))).toMatch(
      /authorization\.orch\.io\/v1\s+true\s+LocalSubjectAccessReview/,
    );
  });

  it('explain reads the review schemas and their descriptions', async () => {
    const out = await kubectl().ok(...as('admin'), 'explain', 'selfsubjectaccessreviews.spec.resourceAttributes');
    expect(out).toMatch(/KIND:\s+SelfSubjectAccessReview/);
    expect(out).toMatch(/verb\s+<string>/);
    expect(out).toContain('The attributes of a request on a resource');
    const token = await kubectl().ok(...as('admin'), 'explain', 'tokenreviews.status');
    expect(token).toMatch(/authenticated\s+<boolean>/);
  });

  // --validate=false: kubectl's field-validation probe finds no PATCH for the kind and lists CRDs, which alice may not
  // (it does the same against kube-apiserver 1.26).
  it('creates a LocalSubjectAccessReview with kubectl create -o json', async () => {
    const file = join(kubectl().workDir, 'lsar.json');
    writeFileSync(
      file,
      JSON.stringify({
        apiVersion: 'authorization.orch.io/v1',
        kind: 'LocalSubjectAccessReview',
        metadata: { namespace: NS },
        spec: {
          user: 'alice',
          resourceAttributes: { namespace: NS, verb: 'delete', group: 'apps', resource: 'deployments' },
        },
      }),
    );
    const out = JSON.parse(await kubectl().ok(...as('alice'), 'create', '--validate=false', '-f', file, '-o', 'json'));
    expect(out).toMatchObject({ kind: 'LocalSubjectAccessReview', metadata: { namespace: NS } });
    expect(out.status).toEqual({
      allowed: true,
      reason: `RBAC: allowed by RoleBinding "alice-admin/${NS}" of ClusterRole "admin" to User "alice"`,
    });
  });
});

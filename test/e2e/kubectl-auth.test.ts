// kubectl against a TLS server with tokens and a client certificate under RBAC: create role/rolebinding (the
// rbac.authorization.k8s.io typed client), auth can-i (SelfSubjectAccessReview, protobuf from kubectl 1.33) and --list,
// impersonation (--as, --as-group, --as-uid).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kubectl, kubectlRelease } from '../helpers/kubectl';
import { TestPki } from '../helpers/pki';
import { startTestServer, type TestServer } from '../helpers/test-server';

const pki = new TestPki();
const tokenFile = join(pki.dir, 'tokens.csv');
writeFileSync(
  tokenFile,
  ['admin-token,admin,uid-admin,system:masters', 'alice-token,alice,uid-a', 'bob-token,bob,uid-b'].join('\n'),
);
const carolCert = pki.client('carol', 'carol', ['devs']);
const NS = 'kauth';

let ts: TestServer;
let kubectl: Kubectl;
const as = (who: string): string[] => {
  const ca = [`--certificate-authority=${pki.ca.cert}`];
  if (who === 'carol') return [...ca, `--client-certificate=${carolCert.cert}`, `--client-key=${carolCert.key}`];
  return [...ca, `--token=${who}-token`];
};

beforeAll(async () => {
  ts = await startTestServer([
    `--tls-cert-file=${pki.serving.cert}`,
    `--tls-private-key-file=${pki.serving.key}`,
    `--client-ca-file=${pki.ca.cert}`,
    `--token-auth-file=${tokenFile}`,
    '--authorization-mode=RBAC',
  ]);
  kubectl = new Kubectl(ts.url);
  await kubectl.ok(...as('admin'), 'create', 'namespace', NS);
  await kubectl.ok(...as('admin'), 'create', 'deployment', 'web', '--image=nginx', '-n', NS);
}, 60_000);
afterAll(async () => {
  kubectl?.cleanup();
  await ts?.stop();
  pki.remove();
});

describe('kubectl with two users and a client certificate', () => {
  it('creates a Role and RoleBinding through the rbac.authorization.k8s.io typed client', async () => {
    expect(
      await kubectl.ok(
        ...as('admin'),
        'create',
        'role',
        'deploy-reader',
        '--verb=get,list,watch',
        '--resource=deployments',
        '-n',
        NS,
      ),
    ).toContain('role.rbac.authorization.k8s.io/deploy-reader created');
    expect(
      await kubectl.ok(
        ...as('admin'),
        'create',
        'rolebinding',
        'alice-reads',
        '--role=deploy-reader',
        '--user=alice',
        '--group=devs',
        '-n',
        NS,
      ),
    ).toContain('rolebinding.rbac.authorization.k8s.io/alice-reads created');
    const rb = JSON.parse(
      await kubectl.ok(...as('admin'), 'get', 'rolebinding', 'alice-reads', '-n', NS, '-o', 'json'),
    );
    expect(rb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'deploy-reader' });
  });

  it("lets alice read and refuses bob, with Kubernetes' message", async () => {
    expect(await kubectl.ok(...as('alice'), 'get', 'deployments', '-n', NS)).toContain('web');
    const bob = await kubectl.run([...as('bob'), 'get', 'deployments', '-n', NS]);
    expect(bob.code).toBe(1);
    expect(bob.stderr).toContain(
      `Error from server (Forbidden): deployments.apps is forbidden: User "bob" cannot list resource "deployments" in API group "apps" in the namespace "${NS}"`,
    );
    const wrong = await kubectl.run([
      '--certificate-authority',
      pki.ca.cert,
      '--token=nope',
      'get',
      'deployments',
      '-n',
      NS,
    ]);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('You must be logged in to the server (Unauthorized)');
  });

  it('authenticates the client certificate by its O group', async () => {
    expect(await kubectl.ok(...as('carol'), 'get', 'deployments', '-n', NS)).toContain('web');
  });

  it.each([['on PATH'], ['1.27'], ['1.33']])('answers auth can-i (kubectl %s)', async (release) => {
    const k = release === 'on PATH' ? kubectl : new Kubectl(ts.url, kubectlRelease(release));
    try {
      const yes = await k.run([...as('alice'), 'auth', 'can-i', 'list', 'deployments', '-n', NS]);
      expect({ code: yes.code, out: yes.stdout.trim() }).toEqual({ code: 0, out: 'yes' });
      const no = await k.run([...as('alice'), 'auth', 'can-i', 'create', 'deployments', '-n', NS]);
      expect({ code: no.code, out: no.stdout.trim() }).toEqual({ code: 1, out: 'no' });
      const admin = await k.run([...as('admin'), 'auth', 'can-i', '*', '*']);
      expect(admin.stdout.trim()).toBe('yes');
      const bobMetrics = await k.run([...as('bob'), 'auth', 'can-i', 'get', '/metrics']);
      expect(bobMetrics.stdout.trim()).toBe('no');
    } finally {
      if (k !== kubectl) k.cleanup();
    }
  });

  it('impersonates with --as, --as-group and --as-uid (system:masters may, bob may not)', async () => {
    expect(await kubectl.ok(...as('admin'), '--as=alice', '--as-uid=u-9', 'get', 'deployments', '-n', NS)).toContain(
      'web',
    );
    const asBob = await kubectl.run([...as('admin'), '--as=bob', 'get', 'deployments', '-n', NS]);
    expect(asBob.code).toBe(1);
    expect(asBob.stderr).toContain(
      `Error from server (Forbidden): deployments.apps is forbidden: User "bob" cannot list resource "deployments" in API group "apps" in the namespace "${NS}"`,
    );
    const bobAsAlice = await kubectl.run([...as('bob'), '--as=alice', 'get', 'deployments', '-n', NS]);
    expect(bobAsAlice.code).toBe(1);
    expect(bobAsAlice.stderr).toContain(
      'Error from server (Forbidden): users "alice" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
    );
    // alice-reads also binds the group devs: bob impersonated in devs may list, as the SelfSubjectAccessReview says.
    const canI = await kubectl.run([
      ...as('admin'),
      '--as=bob',
      '--as-group=devs',
      'auth',
      'can-i',
      'list',
      'deployments',
      '-n',
      NS,
    ]);
    expect({ code: canI.code, out: canI.stdout.trim() }).toEqual({ code: 0, out: 'yes' });
    expect(
      await kubectl.ok(...as('admin'), '--as=bob', '--as-group=devs', '--as-group=ops', 'get', 'deployments', '-n', NS),
    ).toContain('web');
  });

  it('lists the rules with auth can-i --list', async () => {
    const out = await kubectl.ok(...as('alice'), 'auth', 'can-i', '--list', '-n', NS);
    const lines = out.split('\n').map((l) => l.trim().split(/\s{2,}/));
    expect(lines[0]).toEqual(['Resources', 'Non-Resource URLs', 'Resource Names', 'Verbs']);
    expect(lines).toContainEqual(['deployments.apps', '[]', '[]', '[get list watch]']);
    expect(lines).toContainEqual(['selfsubjectaccessreviews.authorization.orch.io', '[]', '[]', '[create]']);
    expect(lines.find((l) => l[0] === '[/healthz]' || l[1] === '[/healthz]')).toBeDefined();
  });
});

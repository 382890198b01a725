// Impersonation (Impersonate-User, -Group, -Uid, -Extra-*) as Kubernetes 1.26's WithImpersonation: each part needs
// `impersonate` on it, the impersonated user is the one classified, authorized and served, and the audit event keeps
// the requestor in `user` and the other in `impersonatedUser`.
import { request as httpRequest } from 'node:http';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eventually, startTestServer, type TestServer } from '../helpers/test-server';
import { expectForbidden } from './authorization-fixture';

const dir = mkdtempSync(join(tmpdir(), 'orch-impersonation-'));
const tokenFile = join(dir, 'tokens.csv');
writeFileSync(
  tokenFile,
  ['admin-token,admin,uid-admin,system:masters', 'alice-token,alice,uid-a', 'bob-token,bob,uid-b'].join('\n'),
);
const auditPath = join(dir, 'audit.log');
const NS = 'imp';
const RBAC = '/apis/rbac.authorization.orch.io/v1';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const SSRR = '/apis/authorization.k8s.io/v1/selfsubjectrulesreviews';

/** A raw HTTP request, so a header can repeat on its own lines (fetch joins them into one). */
function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string | string[]>,
  body?: unknown,
): Promise<{ status: number; headers: Record<string, unknown>; text: string; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let parsed: unknown;
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body: parsed });
      });
    });
    req.on('error', reject);
    if (body !== undefined) {
      req.setHeader('Content-Type', 'application/json');
      req.end(JSON.stringify(body));
    } else req.end();
  });
}

function auditEvents(): Array<Record<string, any>> {
  return readFileSync(auditPath, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

describe('impersonation under RBAC', () => {
  let ts: TestServer;
  const call = (
    token: string,
    method: string,
    path: string,
    headers: Record<string, string | string[]> = {},
    body?: unknown,
  ) => raw(ts.url, method, path, { Authorization: `Bearer ${token}`, ...headers }, body);
  const create = async (path: string, body: unknown) => {
    const res = await call('admin-token', 'POST', path, {}, body);
    if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
  };

  beforeAll(async () => {
    ts = await startTestServer([
      `--token-auth-file=${tokenFile}`,
      '--authorization-mode=RBAC',
      `--audit-log-path=${auditPath}`,
    ]);
    await create('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
    await create(`${RBAC}/namespaces/${NS}/rolebindings`, {
      metadata: { name: 'alice-view' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'view' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'alice' }],
    });
    // bob may impersonate alice (by name), the group "devs", uid "u-1" and the extra scopes=read, nothing else.
    await create(`${RBAC}/clusterroles`, {
      metadata: { name: 'impersonate-alice' },
      rules: [
        { apiGroups: [''], resources: ['users'], resourceNames: ['alice'], verbs: ['impersonate'] },
        { apiGroups: [''], resources: ['groups'], resourceNames: ['devs'], verbs: ['impersonate'] },
        { apiGroups: ['authentication.k8s.io'], resources: ['uids'], resourceNames: ['u-1'], verbs: ['impersonate'] },
        {
          apiGroups: ['authentication.k8s.io'],
          resources: ['userextras/scopes'],
          resourceNames: ['read'],
          verbs: ['impersonate'],
        },
      ],
    });
    await create(`${RBAC}/clusterrolebindings`, {
      metadata: { name: 'bob-impersonates-alice' },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'impersonate-alice' },
      subjects: [{ kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'bob' }],
    });
    await eventually(
      async () => (await call('bob-token', 'GET', DEPLOYMENTS, { 'Impersonate-User': 'alice' })).status === 200,
      3000,
      'bob may impersonate alice',
    );
  }, 60_000);
  afterAll(async () => ts?.stop());

  it("refuses a user who may not impersonate with Kubernetes' 403", async () => {
    const res = await call('alice-token', 'GET', DEPLOYMENTS, { 'Impersonate-User': 'admin' });
    expectForbidden(
      res,
      'users "admin" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope',
      { name: 'admin', kind: 'users' },
    );
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('checks every part: user name, each group, uid, each extra value, service accounts in their namespace', async () => {
    const cases: Array<[Record<string, string | string[]>, string, Record<string, string>]> = [
      [
        { 'Impersonate-User': 'carol' },
        'users "carol" is forbidden: User "bob" cannot impersonate resource "users" in API group "" at the cluster scope',
        { name: 'carol', kind: 'users' },
      ],
      [
        { 'Impersonate-User': 'alice', 'Impersonate-Group': ['devs', 'system:masters'] },
        'groups "system:masters" is forbidden: User "bob" cannot impersonate resource "groups" in API group "" at the cluster scope',
        { name: 'system:masters', kind: 'groups' },
      ],
      [
        { 'Impersonate-User': 'alice', 'Impersonate-Uid': 'u-2' },
        'uids.authentication.k8s.io "u-2" is forbidden: User "bob" cannot impersonate resource "uids" in API group "authentication.k8s.io" at the cluster scope',
        { name: 'u-2', group: 'authentication.k8s.io', kind: 'uids' },
      ],
      [
        { 'Impersonate-User': 'alice', 'Impersonate-Extra-Scopes': ['read', 'write'] },
        'userextras.authentication.k8s.io "write" is forbidden: User "bob" cannot impersonate resource "userextras/scopes" in API group "authentication.k8s.io" at the cluster scope',
        { name: 'write', group: 'authentication.k8s.io', kind: 'userextras' },
      ],
      [
        { 'Impersonate-User': `system:serviceaccount:${NS}:robot` },
        `serviceaccounts "robot" is forbidden: User "bob" cannot impersonate resource "serviceaccounts" in API group "" in the namespace "${NS}"`,
        { name: 'robot', kind: 'serviceaccounts' },
      ],
    ];
    for (const [headers, message, details] of cases) {
      const res = await call('bob-token', 'GET', DEPLOYMENTS, headers);
      expectForbidden(res, message, details);
    }
  });

  it('authorizes the request as the impersonated user (allowed parts pass)', async () => {
    const ok = await call('bob-token', 'GET', DEPLOYMENTS, {
      'Impersonate-User': 'alice',
      'Impersonate-Group': 'devs',
      'Impersonate-Uid': 'u-1',
      'Impersonate-Extra-Scopes': 'read',
    });
    expect(ok.status).toBe(200);
    const denied = await call('admin-token', 'POST', DEPLOYMENTS, { 'Impersonate-User': 'alice' }, {});
    expectForbidden(
      denied,
      `deployments.apps is forbidden: User "alice" cannot create resource "deployments" in API group "apps" in the namespace "${NS}"`,
      { group: 'apps', kind: 'deployments' },
    );
    // bob himself may not list deployments.
    expect((await call('bob-token', 'GET', DEPLOYMENTS)).status).toBe(403);
  });

  it('answers groups, uid or extras without a user with a 400 Status (1.26: a plain-text 500)', async () => {
    const res = await call('admin-token', 'GET', '/api/v1/namespaces?limit=1', {
      'Impersonate-Group': ['devs', 'ops'],
      'Impersonate-Uid': 'u-1',
    });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({
      kind: 'Status',
      reason: 'BadRequest',
      message:
        'requested [{Group  devs    } {Group  ops    } {UID  u-1  authentication.k8s.io/v1  }] without impersonating a user',
    });
  });

  it("gives handlers the impersonated user (SelfSubjectRulesReview answers with alice's rules)", async () => {
    const res = await call(
      'admin-token',
      'POST',
      SSRR,
      { 'Impersonate-User': 'alice' },
      { apiVersion: 'authorization.k8s.io/v1', kind: 'SelfSubjectRulesReview', spec: { namespace: NS } },
    );
    expect(res.status).toBe(201);
    const rules = res.body.status.resourceRules as Array<{ verbs: string[]; resources?: string[] }>;
    expect(rules.some((r) => r.resources?.includes('deployments') && r.verbs.includes('list'))).toBe(true);
    expect(rules.some((r) => r.verbs.includes('*'))).toBe(false); // not admin's rules
  });

  it("records the requestor in the audit event's user and the impersonated user in impersonatedUser", async () => {
    const res = await call('admin-token', 'GET', `${DEPLOYMENTS}?audit=extra`, {
      'Impersonate-User': 'alice',
      'Impersonate-Group': 'devs',
      'Impersonate-Uid': 'u-1',
      'Impersonate-Extra-Example.org%2FScope': ['read', 'write'],
    });
    expect(res.status).toBe(200);
    await eventually(
      async () => auditEvents().some((e) => e.requestURI === `${DEPLOYMENTS}?audit=extra`),
      3000,
      'audit',
    );
    const event = auditEvents().find((e) => e.requestURI === `${DEPLOYMENTS}?audit=extra`);
    expect(event?.user).toEqual({
      username: 'admin',
      uid: 'uid-admin',
      groups: ['system:masters', 'system:authenticated'],
    });
    expect(event?.impersonatedUser).toEqual({
      username: 'alice',
      uid: 'u-1',
      groups: ['devs', 'system:authenticated'],
      extra: { 'example.org/scope': ['read', 'write'] },
    });
    const keys = Object.keys(event ?? {});
    expect(keys.slice(keys.indexOf('user'), keys.indexOf('user') + 3)).toEqual([
      'user',
      'impersonatedUser',
      'sourceIPs',
    ]);
  });

  it.each([
    [{ 'Impersonate-User': 'alice' }, ['system:authenticated']],
    [{ 'Impersonate-User': 'system:anonymous' }, ['system:unauthenticated']],
    [{ 'Impersonate-User': 'alice', 'Impersonate-Group': 'system:unauthenticated' }, ['system:unauthenticated']],
    [
      { 'Impersonate-User': `system:serviceaccount:${NS}:robot` },
      ['system:serviceaccounts', `system:serviceaccounts:${NS}`, 'system:authenticated'],
    ],
    [
      { 'Impersonate-User': `system:serviceaccount:${NS}:robot`, 'Impersonate-Group': 'devs' },
      ['devs', 'system:authenticated'],
    ],
    [{ 'Impersonate-User': 'system:serviceaccount:Bad:robot' }, ['system:authenticated']],
  ])('gives %j the groups %j', async (headers, groups) => {
    const uri = `/api/v1/namespaces?groups=${encodeURIComponent(JSON.stringify(headers))}`;
    await call('admin-token', 'GET', uri, headers);
    await eventually(async () => auditEvents().some((e) => e.requestURI === uri), 3000, 'audit');
    expect(auditEvents().find((e) => e.requestURI === uri)?.impersonatedUser.groups).toEqual(groups);
  });

  it('classifies the impersonated user with flow control (a system:masters group is exempt)', async () => {
    const exempt = await call('admin-token', 'GET', '/apis/flowcontrol.apiserver.orch.io/v1beta3/flowschemas/exempt');
    expect(exempt.status).toBe(200);
    const plain = await call('admin-token', 'GET', '/api/v1/namespaces', { 'Impersonate-User': 'alice' });
    expect(plain.headers['x-kubernetes-pf-flowschema-uid']).not.toBe(exempt.body.metadata.uid);
    const masters = await call('admin-token', 'GET', '/api/v1/namespaces', {
      'Impersonate-User': 'someone',
      'Impersonate-Group': 'system:masters',
    });
    expect(masters.status).toBe(200);
    expect(masters.headers['x-kubernetes-pf-flowschema-uid']).toBe(exempt.body.metadata.uid);
  });
});

describe('impersonation with --authorization-mode=AlwaysAllow', () => {
  let ts: TestServer;
  beforeAll(async () => {
    ts = await startTestServer([`--token-auth-file=${tokenFile}`]);
  }, 60_000);
  afterAll(async () => ts?.stop());

  it('lets anyone, anonymous included, impersonate anyone', async () => {
    const exempt = await raw(ts.url, 'GET', '/apis/flowcontrol.apiserver.orch.io/v1beta3/flowschemas/exempt', {});
    const res = await raw(ts.url, 'GET', '/api/v1/namespaces', {
      'Impersonate-User': 'someone',
      'Impersonate-Group': 'system:masters',
    });
    expect(res.status).toBe(200);
    expect(res.headers['x-kubernetes-pf-flowschema-uid']).toBe(exempt.body.metadata.uid);
    const bare = await raw(ts.url, 'GET', '/api/v1/namespaces', { 'Impersonate-Group': 'devs' });
    expect(bare.status).toBe(400);
  });
});

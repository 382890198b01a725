// The RBAC test server shared by the authorization tests: five token users (admin in system:masters, alice, bob,
// carol in devs, dave), namespaces authz and authz-other, two Deployments, and the Roles and bindings the tests rely on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestServer, type ApiResponse, type TestServer } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

const dir = mkdtempSync(join(tmpdir(), 'orch-authz-'));
export const tokenFile = join(dir, 'tokens.csv');
writeFileSync(
  tokenFile,
  [
    'admin-token,admin,uid-admin,system:masters',
    'alice-token,alice,uid-a',
    'bob-token,bob,uid-b',
    'carol-token,carol,uid-c,devs',
    'dave-token,dave,uid-d',
  ].join('\n'),
);

export const RBAC = '/apis/rbac.authorization.orch.io/v1';
export const NS = 'authz';
let ts: TestServer;
export const as = (token: string | undefined) => {
  const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
  return {
    get: (path: string, extra: Record<string, string> = {}) => ts.api.get(path, { ...headers, ...extra }),
    post: (path: string, body: unknown, extra: Record<string, string> = {}) =>
      ts.api.post(path, body, { ...headers, ...extra }),
    patch: (path: string, body: unknown, contentType: string) =>
      ts.api.request('PATCH', path, typeof body === 'string' ? body : JSON.stringify(body), {
        ...headers,
        'Content-Type': contentType,
      }),
    delete: (path: string) => ts.api.request('DELETE', path, undefined, headers),
  };
};
export const admin = as('admin-token');

export async function mustCreate(path: string, body: unknown): Promise<ApiResponse> {
  const res = await admin.post(path, body);
  if (res.status !== 201) throw new Error(`${path}: ${res.status} ${res.text}`);
  return res;
}

export const role = (name: string, rules: unknown[], kind = 'Role') => ({
  apiVersion: 'rbac.authorization.orch.io/v1',
  kind,
  metadata: { name },
  rules,
});
export const bindUser = (name: string, roleKind: string, roleName: string, users: string[], kind = 'RoleBinding') => ({
  apiVersion: 'rbac.authorization.orch.io/v1',
  kind,
  metadata: { name },
  roleRef: { apiGroup: 'rbac.authorization.orch.io', kind: roleKind, name: roleName },
  subjects: users.map((u) =>
    u.startsWith('group:')
      ? { kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: u.slice(6) }
      : { kind: 'User', apiGroup: 'rbac.authorization.orch.io', name: u },
  ),
});

export function expectForbidden(
  res: Pick<ApiResponse, 'status' | 'body'>,
  message: string,
  details: Record<string, string> | Record<string, never>,
): void {
  expect({ status: res.status, body: res.body }).toEqual({
    status: 403,
    body: {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message,
      reason: 'Forbidden',
      details,
      code: 403,
    },
  });
}

/** Starts the server with --authorization-mode=RBAC and creates the namespaces, Deployments, Roles and bindings. */
export async function startAuthzServer(): Promise<TestServer> {
  ts = await startTestServer([`--token-auth-file=${tokenFile}`, '--authorization-mode=RBAC']);
  await mustCreate('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } });
  await mustCreate('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: `${NS}-other` } });
  await mustCreate(`/apis/apps/v1/namespaces/${NS}/deployments`, aDeployment('web'));
  await mustCreate(`/apis/apps/v1/namespaces/${NS}/deployments`, aDeployment('api'));
  await mustCreate(
    `${RBAC}/namespaces/${NS}/roles`,
    role('deploy-reader', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list', 'watch'] }]),
  );
  await mustCreate(
    `${RBAC}/namespaces/${NS}/rolebindings`,
    bindUser('alice-reads', 'Role', 'deploy-reader', ['alice']),
  );
  await mustCreate(
    `${RBAC}/namespaces/${NS}/roles`,
    role('web-only', [
      { apiGroups: ['apps'], resources: ['deployments'], resourceNames: ['web'], verbs: ['get', 'list', 'watch'] },
      { apiGroups: ['apps'], resources: ['deployments/scale'], verbs: ['get'] },
    ]),
  );
  await mustCreate(`${RBAC}/namespaces/${NS}/rolebindings`, bindUser('devs-web', 'Role', 'web-only', ['group:devs']));
  await mustCreate(
    `${RBAC}/clusterroles`,
    role(`${NS}-patcher`, [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['patch'] }], 'ClusterRole'),
  );
  await mustCreate(
    `${RBAC}/namespaces/${NS}/rolebindings`,
    bindUser('dave-patches', 'ClusterRole', `${NS}-patcher`, ['dave']),
  );
  await mustCreate(
    `${RBAC}/namespaces/${NS}/rolebindings`,
    bindUser('bob-missing', 'ClusterRole', 'no-such-role', ['bob']),
  );
  return ts;
}

/** The running server (after useAuthzServer's beforeAll). */
export const server = (): TestServer => ts;

/** Starts the server before the file's tests and stops it after them. */
export function useAuthzServer(): void {
  beforeAll(startAuthzServer, 60_000);
  afterAll(async () => ts?.stop());
}

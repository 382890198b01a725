// RBAC policy: bootstrap roles and aggregation, a second replica seeing a role change within 1 s, and escalation
// prevention when users create roles and bindings.
import pino from 'pino';
import { eventually, ApiClient } from '../helpers/test-server';
import { parseCommandLine } from '../../lib/server/options/options';
import { ApiServer } from '../../lib/server/server';
import { aDeployment } from '../helpers/fixtures';
import {
  admin,
  as,
  bindUser,
  expectForbidden,
  mustCreate,
  role,
  server,
  useAuthzServer,
  tokenFile,
  NS,
  RBAC,
} from './authorization-fixture';

useAuthzServer();

describe('bootstrap policy', () => {
  it('creates the bootstrap roles and bindings with their label and annotation', async () => {
    for (const name of [
      'cluster-admin',
      'system:discovery',
      'system:basic-user',
      'system:public-info-viewer',
      'admin',
      'edit',
      'view',
    ]) {
      const res = await admin.get(`${RBAC}/clusterroles/${name}`);
      expect(res.status).toBe(200);
      expect(res.body.metadata.labels['kubernetes.io/bootstrapping']).toBe('rbac-defaults');
      expect(res.body.metadata.annotations['rbac.authorization.kubernetes.io/autoupdate']).toBe('true');
    }
    const crb = await admin.get(`${RBAC}/clusterrolebindings/cluster-admin`);
    expect(crb.body.subjects).toEqual([
      { kind: 'Group', apiGroup: 'rbac.authorization.orch.io', name: 'system:masters' },
    ]);
  });

  it('aggregates view into edit into admin, and picks up a new labelled ClusterRole', async () => {
    await eventually(
      async () => {
        const view = (await admin.get(`${RBAC}/clusterroles/view`)).body;
        const adminRole = (await admin.get(`${RBAC}/clusterroles/admin`)).body;
        return (
          JSON.stringify(view.rules ?? []).includes('deployments') &&
          JSON.stringify(adminRole.rules ?? []).includes('rolebindings') &&
          JSON.stringify(adminRole.rules ?? []).includes('"get"')
        );
      },
      5000,
      'aggregated rules',
    );
    await mustCreate(`${RBAC}/clusterroles`, {
      ...role('extra-view', [{ apiGroups: ['example.io'], resources: ['widgets'], verbs: ['get'] }], 'ClusterRole'),
      metadata: { name: 'extra-view', labels: { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' } },
    });
    await eventually(
      async () => JSON.stringify((await admin.get(`${RBAC}/clusterroles/admin`)).body.rules).includes('widgets'),
      5000,
      'widgets aggregated up to admin',
    );
  });

  it('gives view-bound users read access to deployments', async () => {
    await mustCreate(
      `${RBAC}/namespaces/${NS}-other/rolebindings`,
      bindUser('bob-views', 'ClusterRole', 'view', ['bob']),
    );
    await eventually(
      async () => (await as('bob-token').get(`/apis/apps/v1/namespaces/${NS}-other/deployments`)).status === 200,
      3000,
      'bob can list',
    );
    expect(
      (await as('bob-token').post(`/apis/apps/v1/namespaces/${NS}-other/deployments`, aDeployment('x'))).status,
    ).toBe(403);
  });
});

describe('a second replica', () => {
  it('sees a new binding within 1 s', async () => {
    const parsed = parseCommandLine([
      '--port=0',
      `--etcd-servers=${server().etcd.clientUrl}`,
      `--token-auth-file=${tokenFile}`,
      '--authorization-mode=RBAC',
    ]);
    if (parsed.help) throw new Error('help');
    const second = await ApiServer.start(parsed.options, pino({ level: 'silent' }));
    try {
      const api = new ApiClient(second.url);
      const path = `/apis/apps/v1/namespaces/${NS}-other/deployments`;
      const headers = { Authorization: 'Bearer carol-token' };
      expect((await api.get(path, headers)).status).toBe(403);
      await mustCreate(
        `${RBAC}/namespaces/${NS}-other/rolebindings`,
        bindUser('devs-view', 'ClusterRole', 'view', ['group:devs']),
      );
      const started = Date.now();
      await eventually(async () => (await api.get(path, headers)).status === 200, 5000, 'second replica allows');
      expect(Date.now() - started).toBeLessThan(1000);
      expect((await admin.delete(`${RBAC}/namespaces/${NS}-other/rolebindings/devs-view`)).status).toBe(200);
      const removed = Date.now();
      await eventually(async () => (await api.get(path, headers)).status === 403, 5000, 'second replica denies again');
      expect(Date.now() - removed).toBeLessThan(1000);
    } finally {
      await second.shutdown();
    }
  });
});

describe('escalation prevention', () => {
  const alice = as('alice-token');
  beforeAll(async () => {
    await mustCreate(
      `${RBAC}/namespaces/${NS}/roles`,
      role('rbac-editor', [
        { apiGroups: ['rbac.authorization.k8s.io'], resources: ['roles', 'rolebindings'], verbs: ['create', 'update'] },
        {
          apiGroups: ['rbac.authorization.k8s.io'],
          resources: ['clusterroles'],
          resourceNames: ['edit'],
          verbs: ['bind'],
        },
      ]),
    );
    await mustCreate(`${RBAC}/namespaces/${NS}/rolebindings`, bindUser('alice-rbac', 'Role', 'rbac-editor', ['alice']));
    await eventually(
      async () =>
        (
          await alice.post(
            `${RBAC}/namespaces/${NS}/roles?dryRun=All`,
            role('probe', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }]),
          )
        ).status === 201,
      3000,
      'alice may create roles',
    );
  });

  it('lets a user grant what it holds', async () => {
    expect(
      (
        await alice.post(
          `${RBAC}/namespaces/${NS}/roles`,
          role('subset', [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'list'] }]),
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await alice.post(
          `${RBAC}/namespaces/${NS}/rolebindings`,
          bindUser('bob-reads', 'Role', 'deploy-reader', ['bob']),
        )
      ).status,
    ).toBe(201);
  });

  it("refuses a role with permissions the user lacks, with Kubernetes' text", async () => {
    const res = await alice.post(
      `${RBAC}/namespaces/${NS}/roles`,
      role('too-much', [
        { apiGroups: ['apps'], resources: ['deployments'], verbs: ['get', 'delete', 'patch'] },
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get'] },
      ]),
    );
    expectForbidden(
      res,
      'roles.rbac.authorization.orch.io "too-much" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:[""], Resources:["namespaces"], Verbs:["get"]}\n{APIGroups:["apps"], Resources:["deployments"], Verbs:["delete" "patch"]}',
      { name: 'too-much', group: 'rbac.authorization.orch.io', kind: 'roles' },
    );
    expect((await admin.get(`${RBAC}/namespaces/${NS}/roles/too-much`)).status).toBe(404);
  });

  it('refuses an escalating update and binding, allows bind on a named ClusterRole', async () => {
    const current = (await admin.get(`${RBAC}/namespaces/${NS}/roles/subset`)).body;
    const widened = await server().api.put(
      `${RBAC}/namespaces/${NS}/roles/subset`,
      { ...current, rules: [{ apiGroups: ['*'], resources: ['*'], verbs: ['*'] }] },
      { Authorization: 'Bearer alice-token' },
    );
    expect(widened.status).toBe(403);
    const admins = await alice.post(
      `${RBAC}/namespaces/${NS}/rolebindings`,
      bindUser('alice-admin', 'ClusterRole', 'cluster-admin', ['alice']),
    );
    expectForbidden(
      admins,
      'rolebindings.rbac.authorization.orch.io "alice-admin" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n{APIGroups:["*"], Resources:["*"], Verbs:["*"]}\n{NonResourceURLs:["*"], Verbs:["*"]}',
      { name: 'alice-admin', group: 'rbac.authorization.orch.io', kind: 'rolebindings' },
    );
    expect(
      (await alice.post(`${RBAC}/namespaces/${NS}/rolebindings`, bindUser('bob-edits', 'ClusterRole', 'edit', ['bob'])))
        .status,
    ).toBe(201);
  });

  it('lets system:masters grant anything', async () => {
    expect(
      (
        await admin.post(
          `${RBAC}/namespaces/${NS}/rolebindings`,
          bindUser('bob-admin', 'ClusterRole', 'cluster-admin', ['bob']),
        )
      ).status,
    ).toBe(201);
  });
});

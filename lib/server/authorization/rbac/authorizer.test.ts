// RBAC decisions and the reasons kube-apiserver 1.26 gives for them (plugin/pkg/auth/authorizer/rbac: "RBAC: allowed
// by <binding>", the binding described by pkg/registry/rbac/validation's describers).
import type { ApiObject } from '../../../apimachinery/meta/types';
import type { Attributes } from '../attributes';
import { RbacAuthorizer } from './authorizer';
import { buildSnapshot } from './policy-cache';

const RBAC = 'rbac.authorization.k8s.io';
const role = (name: string, namespace?: string): ApiObject => ({
  apiVersion: `${RBAC}/v1`,
  kind: namespace ? 'Role' : 'ClusterRole',
  metadata: { name, ...(namespace ? { namespace } : {}) },
  rules: [{ verbs: ['get', 'list'], apiGroups: ['apps'], resources: ['deployments'] }],
});
const binding = (
  name: string,
  namespace: string | undefined,
  roleRef: { kind: string; name: string },
  subjects: Array<Record<string, string>>,
): ApiObject => ({
  apiVersion: `${RBAC}/v1`,
  kind: namespace ? 'RoleBinding' : 'ClusterRoleBinding',
  metadata: { name, ...(namespace ? { namespace } : {}) },
  roleRef: { apiGroup: RBAC, ...roleRef },
  subjects,
});
const ask = (user: string, groups: string[], namespace: string, verb = 'list'): Attributes => ({
  user: { name: user, uid: '', groups },
  verb,
  isResourceRequest: true,
  path: '',
  apiGroup: 'apps',
  apiVersion: 'v1',
  namespace,
  resource: 'deployments',
  subresource: '',
  name: '',
});

const snapshot = buildSnapshot(
  [['team/reader', role('reader', 'team')]],
  [['viewer', role('viewer')]],
  [
    binding('read', 'team', { kind: 'Role', name: 'reader' }, [{ kind: 'ServiceAccount', name: 'robot' }]),
    binding('mixed', 'team', { kind: 'ClusterRole', name: 'viewer' }, [
      { kind: 'Group', name: 'devs', apiGroup: RBAC },
      { kind: 'User', name: 'carol', apiGroup: RBAC },
    ]),
    binding('broken', 'other', { kind: 'Role', name: 'missing' }, [{ kind: 'User', name: 'dave', apiGroup: RBAC }]),
  ],
  [
    binding('view-all', undefined, { kind: 'ClusterRole', name: 'viewer' }, [
      { kind: 'User', name: 'bob', apiGroup: RBAC },
    ]),
  ],
);
const rbac = new RbacAuthorizer(() => snapshot);

describe('RbacAuthorizer', () => {
  it('names the ClusterRoleBinding that allows', () => {
    expect(rbac.authorize(ask('bob', [], 'team'))).toEqual({
      decision: 'allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "view-all" of ClusterRole "viewer" to User "bob"',
    });
  });

  it('names a RoleBinding as name/namespace and a service account subject with the binding namespace', () => {
    expect(rbac.authorize(ask('system:serviceaccount:team:robot', [], 'team')).reason).toBe(
      'RBAC: allowed by RoleBinding "read/team" of Role "reader" to ServiceAccount "robot/team"',
    );
  });

  it('describes the first subject of the binding that is the user (appliesTo)', () => {
    expect(rbac.authorize(ask('carol', ['devs'], 'team')).reason).toBe(
      'RBAC: allowed by RoleBinding "mixed/team" of ClusterRole "viewer" to Group "devs"',
    );
    expect(rbac.authorize(ask('carol', [], 'team')).reason).toBe(
      'RBAC: allowed by RoleBinding "mixed/team" of ClusterRole "viewer" to User "carol"',
    );
  });

  it('has no opinion when nothing allows, with the resolution errors as the reason', () => {
    expect(rbac.authorize(ask('carol', [], 'team', 'delete'))).toEqual({ decision: 'noOpinion', reason: '' });
    expect(rbac.authorize(ask('dave', [], 'other'))).toEqual({
      decision: 'noOpinion',
      reason: `RBAC: role.${RBAC.replace('k8s.io', 'orch.io')} "missing" not found`,
    });
  });
});

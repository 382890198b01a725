// The bootstrap RBAC policy kube-apiserver 1.26 ships (plugin/pkg/auth/authorizer/rbac/bootstrappolicy), for the
// kinds served here: the roles and bindings that matter, with the bootstrapping label and auto-update annotation.
import type { ApiObject } from '../../../apimachinery/meta/types';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, SYSTEM_PRIVILEGED_GROUP } from '../../../apimachinery/user';
import { GROUP_KIND, RBAC_GROUP, type PolicyRule } from '../../../apis/rbac/types';

export const BOOTSTRAPPING_LABEL = 'kubernetes.io/bootstrapping';
export const BOOTSTRAPPING_VALUE = 'rbac-defaults';
export const AUTO_UPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
const AGGREGATE_TO = (role: string): string => `rbac.authorization.k8s.io/aggregate-to-${role}`;

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];
const READ_WRITE = [...READ, ...WRITE];

const AUTHORIZATION_GROUP = 'authorization.orch.io';
const AUTHENTICATION_GROUP = 'authentication.orch.io';

interface BootstrapClusterRole {
  name: string;
  rules: PolicyRule[];
  /** Extra labels (aggregation targets). */
  labels?: Record<string, string>;
  /** Aggregated roles: their rules come from the ClusterRoles these labels select. */
  aggregateFrom?: string;
}

interface BootstrapBinding {
  name: string;
  role: string;
  groups: string[];
}

const rule = (verbs: string[], apiGroups: string[], resources: string[]): PolicyRule => ({
  apiGroups,
  resources,
  verbs,
});
const urls = (verbs: string[], nonResourceURLs: string[]): PolicyRule => ({ nonResourceURLs, verbs });

export const BOOTSTRAP_CLUSTER_ROLES: readonly BootstrapClusterRole[] = [
  { name: 'cluster-admin', rules: [rule(['*'], ['*'], ['*']), urls(['*'], ['*'])] },
  {
    name: 'system:discovery',
    rules: [
      urls(
        ['get'],
        [
          '/api',
          '/api/*',
          '/apis',
          '/apis/*',
          '/healthz',
          '/livez',
          '/openapi',
          '/openapi/*',
          '/readyz',
          '/version',
          '/version/',
        ],
      ),
    ],
  },
  {
    name: 'system:basic-user',
    rules: [rule(['create'], [AUTHORIZATION_GROUP], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'])],
  },
  {
    name: 'system:public-info-viewer',
    rules: [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])],
  },
  {
    name: 'system:monitoring',
    rules: [
      urls(
        ['get'],
        ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'],
      ),
    ],
  },
  {
    name: 'system:auth-delegator',
    rules: [
      rule(['create'], [AUTHENTICATION_GROUP], ['tokenreviews']),
      rule(['create'], [AUTHORIZATION_GROUP], ['subjectaccessreviews']),
    ],
  },
  { name: 'admin', rules: [], aggregateFrom: 'admin' },
  { name: 'edit', rules: [], labels: { [AGGREGATE_TO('admin')]: 'true' }, aggregateFrom: 'edit' },
  { name: 'view', rules: [], labels: { [AGGREGATE_TO('edit')]: 'true' }, aggregateFrom: 'view' },
  {
    name: 'system:aggregate-to-admin',
    labels: { [AGGREGATE_TO('admin')]: 'true' },
    rules: [
      rule(['create'], [AUTHORIZATION_GROUP], ['localsubjectaccessreviews']),
      rule(READ_WRITE, [RBAC_GROUP], ['roles', 'rolebindings']),
    ],
  },
  {
    name: 'system:aggregate-to-edit',
    labels: { [AGGREGATE_TO('edit')]: 'true' },
    rules: [
      rule(['impersonate'], [''], ['serviceaccounts']),
      rule(WRITE, [''], ['serviceaccounts']),
      rule(['create'], [''], ['serviceaccounts/token']),
      rule(WRITE, ['apps'], ['deployments', 'deployments/scale']),
      rule(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
    ],
  },
  {
    name: 'system:aggregate-to-view',
    labels: { [AGGREGATE_TO('view')]: 'true' },
    rules: [
      rule(READ, [''], ['serviceaccounts', 'namespaces/status']),
      rule(READ, [''], ['namespaces']),
      rule(READ, ['apps'], ['deployments', 'deployments/scale', 'deployments/status']),
      rule(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
    ],
  },
];

export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: readonly BootstrapBinding[] = [
  { name: 'cluster-admin', role: 'cluster-admin', groups: [SYSTEM_PRIVILEGED_GROUP] },
  { name: 'system:discovery', role: 'system:discovery', groups: [ALL_AUTHENTICATED] },
  { name: 'system:basic-user', role: 'system:basic-user', groups: [ALL_AUTHENTICATED] },
  {
    name: 'system:public-info-viewer',
    role: 'system:public-info-viewer',
    groups: [ALL_AUTHENTICATED, ALL_UNAUTHENTICATED],
  },
  { name: 'system:monitoring', role: 'system:monitoring', groups: ['system:monitoring'] },
];

const bootstrapMeta = (name: string, labels: Record<string, string> = {}) => ({
  name,
  labels: { [BOOTSTRAPPING_LABEL]: BOOTSTRAPPING_VALUE, ...labels },
  annotations: { [AUTO_UPDATE_ANNOTATION]: 'true' },
});

export function clusterRoleObject(role: BootstrapClusterRole): ApiObject {
  const obj: ApiObject = {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRole',
    metadata: bootstrapMeta(role.name, role.labels),
    rules: role.rules.map((r) => ({ ...r })),
  };
  if (role.aggregateFrom !== undefined)
    obj['aggregationRule'] = {
      clusterRoleSelectors: [{ matchLabels: { [AGGREGATE_TO(role.aggregateFrom)]: 'true' } }],
    };
  return obj;
}

export function clusterRoleBindingObject(binding: BootstrapBinding): ApiObject {
  return {
    apiVersion: `${RBAC_GROUP}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: bootstrapMeta(binding.name),
    roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: binding.role },
    subjects: binding.groups.map((name) => ({ kind: GROUP_KIND, apiGroup: RBAC_GROUP, name })),
  };
}

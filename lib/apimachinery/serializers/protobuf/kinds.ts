// apiVersion/kind on the wire → the catalog message of that kind (orch group names and their k8s.io aliases).
import { catalogMessage } from './catalog';

/** API group (orch name or Kubernetes alias) → the k8s.io/api proto package segment. */
const GROUP_PACKAGES: ReadonlyMap<string, string> = new Map([
  ['', 'core'],
  ['apps', 'apps'],
  ['autoscaling', 'autoscaling'],
  ['flowcontrol.apiserver.orch.io', 'flowcontrol'],
  ['flowcontrol.apiserver.k8s.io', 'flowcontrol'],
  ['rbac.authorization.orch.io', 'rbac'],
  ['rbac.authorization.k8s.io', 'rbac'],
  ['authorization.orch.io', 'authorization'],
  ['authorization.k8s.io', 'authorization'],
  ['authentication.orch.io', 'authentication'],
  ['authentication.k8s.io', 'authentication'],
  ['events.orch.io', 'events'],
  ['events.k8s.io', 'events'],
  ['admissionregistration.orch.io', 'admissionregistration'],
  ['admissionregistration.k8s.io', 'admissionregistration'],
]);

/** The root kinds whose bodies may arrive in protobuf. */
const ROOT_KINDS = new Set([
  'Namespace',
  'Deployment',
  'HorizontalPodAutoscaler',
  'Scale',
  'FlowSchema',
  'PriorityLevelConfiguration',
  'Role',
  'ClusterRole',
  'RoleBinding',
  'ClusterRoleBinding',
  'SelfSubjectAccessReview',
  'SubjectAccessReview',
  'LocalSubjectAccessReview',
  'SelfSubjectRulesReview',
  'TokenReview',
  'TokenRequest',
  'ServiceAccount',
  'Event',
  'ValidatingWebhookConfiguration',
  'MutatingWebhookConfiguration',
]);

/** Unversioned meta kinds (Status, discovery documents) carry apiVersion `v1` (or none) and live in meta/v1. */
const META_KINDS = new Set(['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList', 'WatchEvent']);
const META_GROUPS = new Set(['meta.orch.io', 'meta.k8s.io']);
const META_PACKAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/**
 * The message of any kind a response may carry: served kinds and their lists, Scale, Status, discovery
 * documents, PartialObjectMetadata; undefined when the catalog has none (Table, kind-less documents).
 */
export function responseMessageNameOf(apiVersion: string, kind: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  let name: string | undefined;
  if (group === '' && (version === 'v1' || version === '') && META_KINDS.has(kind)) name = `${META_PACKAGE}.${kind}`;
  else if (META_GROUPS.has(group) && version === 'v1') name = `${META_PACKAGE}.${kind}`;
  else {
    const pkg = GROUP_PACKAGES.get(group);
    if (pkg !== undefined && version !== '') name = `k8s.io.api.${pkg}.${version}.${kind}`;
  }
  return name !== undefined && catalogMessage(name) ? name : undefined;
}

/** `k8s.io.api.apps.v1.Deployment` for `apps/v1` + `Deployment`; undefined when the catalog has no such root kind. */
export function messageNameOf(apiVersion: string, kind: string): string | undefined {
  return ROOT_KINDS.has(kind) ? responseMessageNameOf(apiVersion, kind) : undefined;
}

/** `flowcontrol.apiserver.k8s.io/v1beta3` → `flowcontrol.apiserver.orch.io/v1beta3`; other apiVersions unchanged. */
export function orchApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return apiVersion;
  const group = apiVersion.slice(0, slash);
  return group.endsWith('.k8s.io')
    ? `${group.slice(0, -'.k8s.io'.length)}.orch.io${apiVersion.slice(slash)}`
    : apiVersion;
}

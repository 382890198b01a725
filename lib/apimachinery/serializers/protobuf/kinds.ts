// apiVersion/kind on the wire → the catalog message of that root kind (orch group names and their k8s.io aliases).
import { catalogMessage } from './catalog';

/** API group (orch name or Kubernetes alias) → the k8s.io/api proto package segment. */
const GROUP_PACKAGES: ReadonlyMap<string, string> = new Map([
  ['', 'core'],
  ['apps', 'apps'],
  ['autoscaling', 'autoscaling'],
  ['flowcontrol.apiserver.orch.io', 'flowcontrol'],
  ['flowcontrol.apiserver.k8s.io', 'flowcontrol'],
]);

/** The root kinds whose bodies may arrive in protobuf. */
const ROOT_KINDS = new Set(['Namespace', 'Deployment', 'HorizontalPodAutoscaler', 'Scale', 'FlowSchema', 'PriorityLevelConfiguration']);

/** `k8s.io.api.apps.v1.Deployment` for `apps/v1` + `Deployment`; undefined when the catalog has no such root kind. */
export function messageNameOf(apiVersion: string, kind: string): string | undefined {
  const slash = apiVersion.indexOf('/');
  const group = slash < 0 ? '' : apiVersion.slice(0, slash);
  const version = apiVersion.slice(slash + 1);
  const pkg = GROUP_PACKAGES.get(group);
  if (pkg === undefined || version === '' || !ROOT_KINDS.has(kind)) return undefined;
  const name = `k8s.io.api.${pkg}.${version}.${kind}`;
  return catalogMessage(name) ? name : undefined;
}

/** `flowcontrol.apiserver.k8s.io/v1beta3` → `flowcontrol.apiserver.orch.io/v1beta3`; other apiVersions unchanged. */
export function orchApiVersion(apiVersion: string): string {
  const slash = apiVersion.indexOf('/');
  if (slash < 0) return apiVersion;
  const group = apiVersion.slice(0, slash);
  return group.endsWith('.k8s.io') ? `${group.slice(0, -'.k8s.io'.length)}.orch.io${apiVersion.slice(slash)}` : apiVersion;
}

// OpenAPI definition names of catalog messages and the group-version-kinds each definition is served as.
import { apiVersionOf, messageNameFor } from '../../apimachinery/schema';
import { kubernetesGroupOf } from '../../apimachinery/schema/group-aliases';
import type { ResourceRegistry } from '../../registry/resource-registry';
import { routesOf, SCALE_KIND } from '../routes/route-table';

export interface Gvk {
  group: string;
  version: string;
  kind: string;
}

/** Catalog messages every group-version document refers to (Kubernetes' meta/v1 and autoscaling/v1 names). */
export const META = {
  status: 'k8s.io.apimachinery.pkg.apis.meta.v1.Status',
  deleteOptions: 'k8s.io.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  patch: 'k8s.io.apimachinery.pkg.apis.meta.v1.Patch',
  watchEvent: 'k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent',
  scale: 'k8s.io.api.autoscaling.v1.Scale',
} as const;

/**
 * The definition name Kubernetes' OpenAPI uses for a catalog message: the Go package path reversed at its
 * domain (`k8s.io.api.apps.v1.Deployment` → `io.k8s.api.apps.v1.Deployment`). These name Go packages, not
 * anything this server makes up, so they keep Kubernetes' spelling (the catalog's `openapiDefinition`).
 */
export function definitionName(messageFullName: string): string {
  return messageFullName.startsWith('k8s.io.') ? `io.k8s.${messageFullName.slice('k8s.io.'.length)}` : messageFullName;
}

function add(index: Map<string, Gvk[]>, message: string | undefined, gvk: Gvk): void {
  if (message === undefined) return;
  const list = index.get(message) ?? [];
  if (!list.some((g) => g.group === gvk.group && g.version === gvk.version && g.kind === gvk.kind)) list.push(gvk);
  index.set(message, list);
}

/** A group's orch name and, for groups Kubernetes names too, that name. */
function bothNames(group: string): string[] {
  const alias = kubernetesGroupOf(group);
  return alias === undefined ? [group] : [group, alias];
}

/**
 * Catalog message → the GVKs it is served as (`x-kubernetes-group-version-kind` on its definition): every served
 * kind and list kind (under the orch group and, for aliased groups, its Kubernetes name too), Scale, Status as `v1`, and DeleteOptions and WatchEvent in every served group-version, as
 * kube-apiserver registers those two in each group's scheme.
 */
export function servedKinds(registry: ResourceRegistry): Map<string, Gvk[]> {
  const index = new Map<string, Gvk[]>();
  for (const served of registry.allVersions()) {
    const { group, version, kind, listKind } = served.definition;
    for (const g of bothNames(group)) {
      add(index, messageNameFor(apiVersionOf({ group: g, version }), kind), { group: g, version, kind });
      add(index, messageNameFor(apiVersionOf({ group: g, version }), listKind), { group: g, version, kind: listKind });
    }
    if (routesOf(served).subresources.some((sub) => sub.serves === 'scale')) add(index, META.scale, SCALE_KIND);
  }
  for (const { group, version, kind } of registry.allCreateOnly()) {
    for (const g of bothNames(group))
      add(index, messageNameFor(apiVersionOf({ group: g, version }), kind), { group: g, version, kind });
  }
  add(index, META.status, { group: '', version: 'v1', kind: 'Status' });
  for (const { group, versions } of registry.groups()) {
    for (const version of versions) {
      add(index, META.deleteOptions, { group, version, kind: 'DeleteOptions' });
      add(index, META.watchEvent, { group, version, kind: 'WatchEvent' });
    }
  }
  return index;
}

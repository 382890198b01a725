// The routes of one served resource: its scope, the verbs on it and each subresource with its verbs, kind and store.
// Routing (resource-handler), discovery (APIResourceList) and OpenAPI (paths) all read this one table, as
// kube-apiserver's installer derives both the routes and discovery's verbs from the same actions.
import type { GenericStore } from '../../registry/generic/store';
import type { ServedResource } from '../../registry/resource-registry';

/** Kubernetes' request verbs, as discovery lists them. */
export type Verb = 'create' | 'delete' | 'deletecollection' | 'get' | 'list' | 'patch' | 'update' | 'watch';

/** What a subresource reads and writes: the object (through its own store), its Scale, or a POST-only answer. */
export type SubresourceServes = 'object' | 'scale' | 'post';

/** A subresource's kind when it is not the resource's own (Scale, TokenRequest). */
export interface SubresourceKind {
  group: string;
  version: string;
  kind: string;
}

export interface SubresourceRoutes {
  /** `status`, `scale`, `finalize`, `token`. */
  name: string;
  serves: SubresourceServes;
  /** In discovery's (alphabetical) order. */
  verbs: readonly Verb[];
  /** The store the subresource's handlers use. */
  store: GenericStore;
  /** Set where the subresource's kind differs from the resource's. */
  kind?: SubresourceKind;
  /** Whether the OpenAPI documents list its path (the server-installed POST-only subresources are not listed). */
  documented: boolean;
}

export interface ResourceRoutes {
  namespaced: boolean;
  /** The patch types PATCH consumes, in the installer's order. */
  patchTypes: readonly string[];
  /** Verbs on the resource itself, in discovery's (alphabetical) order. */
  verbs: readonly Verb[];
  /** In the order the OpenAPI documents list them (status, scale, PUT-only, then POST-only). */
  subresources: readonly SubresourceRoutes[];
}

export const SCALE_KIND: SubresourceKind = { group: 'autoscaling', version: 'v1', kind: 'Scale' };

/** The patch types the installer's PATCH routes consume for built-in kinds, in its order (server-side apply last). */
export const PATCH_TYPES: readonly string[] = [
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
];

const RESOURCE_VERBS: readonly Verb[] = [
  'create',
  'delete',
  'deletecollection',
  'get',
  'list',
  'patch',
  'update',
  'watch',
];
const OBJECT_SUBRESOURCE_VERBS: readonly Verb[] = ['get', 'patch', 'update'];

function buildRoutes(served: ServedResource): ResourceRoutes {
  const verbs = served.deleteCollection ? RESOURCE_VERBS : RESOURCE_VERBS.filter((v) => v !== 'deletecollection');
  const subresources: SubresourceRoutes[] = [];
  if (served.statusStore)
    subresources.push({
      name: 'status',
      serves: 'object',
      verbs: OBJECT_SUBRESOURCE_VERBS,
      store: served.statusStore,
      documented: true,
    });
  if (served.scale)
    subresources.push({
      name: 'scale',
      serves: 'scale',
      verbs: OBJECT_SUBRESOURCE_VERBS,
      store: served.store,
      kind: SCALE_KIND,
      documented: true,
    });
  for (const [name, store] of served.putSubresources)
    subresources.push({ name, serves: 'object', verbs: ['update'], store, documented: true });
  for (const [name, post] of served.postSubresources ?? []) {
    subresources.push({
      name,
      serves: 'post',
      verbs: ['create'],
      store: served.store,
      kind: { group: post.group, version: post.version, kind: post.kind },
      documented: false,
    });
  }
  return { namespaced: served.definition.strategy.namespaced, patchTypes: PATCH_TYPES, verbs, subresources };
}

interface Memo {
  routes: ResourceRoutes;
  /** The POST-only subresources the table was built with: the server installs them after the registry is built. */
  postSubresources: ServedResource['postSubresources'];
}

const memo = new WeakMap<ServedResource, Memo>();

/** The route table of a served resource, built once (again only if its POST-only subresources were installed since). */
export function routesOf(served: ServedResource): ResourceRoutes {
  const known = memo.get(served);
  if (known && known.postSubresources === served.postSubresources) return known.routes;
  const routes = buildRoutes(served);
  memo.set(served, { routes, postSubresources: served.postSubresources });
  return routes;
}

/** The subresource called `name`, if the resource serves it. */
export function subresourceOf(routes: ResourceRoutes, name: string): SubresourceRoutes | undefined {
  return routes.subresources.find((s) => s.name === name);
}

export function serves(routes: ResourceRoutes, verb: Verb): boolean {
  return routes.verbs.includes(verb);
}

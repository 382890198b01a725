// The served resources by group/version/resource: what the API handler routes to and discovery lists.
import type { GenericStore } from './generic/store';
import type { ResourceDefinition } from './rest/resource';
import { apiVersionOfDefinition } from './rest/resource';
import type { SelectorSupport } from './rest/selector-support';
import type { ScaleAdapter } from './rest/scale';
import type { Cacher } from '../storage/cacher/cacher';
import { canonicalGroup, kubernetesGroupOf } from '../apimachinery/schema/group-aliases';

export interface ServedResource {
  definition: ResourceDefinition;
  store: GenericStore;
  /** The `status` subresource, when the resource has one. */
  statusStore?: GenericStore;
  /** Extra subresources updated with PUT only (namespaces' `finalize`). */
  putSubresources: Map<string, GenericStore>;
  /** Subresources that take POST only and answer without storing (serviceaccounts' `token`); installed by the server. */
  postSubresources?: Map<string, PostSubresource>;
  selectors: SelectorSupport;
  /** The `scale` subresource, when the resource has one (deployments). */
  scale?: ScaleAdapter;
  /** Delete answers with the deleted object instead of a Status (namespaces). */
  returnDeletedObject: boolean;
  /** DELETE on the collection is served (not for namespaces: Kubernetes' namespace REST has no DeleteCollection). */
  deleteCollection: boolean;
  /** The resource's watch cache (absent with --watch-cache=false). */
  cacher?: Cacher;
  /** The hub version: every served version converts to and from it, the strategies work on it (one store and cache for all). */
  storageVersion: string;
  /** The hub's group when another group serves this storage (events.orch.io/v1 Event stored as core v1 Event). */
  storageGroup?: string;
  /** The version written to etcd: the hub, except where Kubernetes 1.26 kept an older one (its storageVersionHash). */
  encodingVersion: string;
  /** Set when this version is deprecated: the Warning, gauge and audit annotations of requests to it. */
  deprecation?: Deprecation;
}

/** A deprecated version (pkg/endpoints/deprecation): the release it was deprecated in, removed in, its replacement. */
export interface Deprecation {
  deprecatedIn: string;
  removedIn?: string;
  replacement?: { group: string; version: string; kind: string };
}

/** A POST-only subresource: its handler and the kind it takes (discovery lists it with that group/version/kind). */
export interface PostSubresource {
  handler: (r: import('../endpoints/handlers/api-request').ApiRequest) => Promise<void>;
  group: string;
  version: string;
  kind: string;
}

export interface GroupVersions {
  group: string;
  versions: string[];
}

/** kube-apiserver 1.26's order of the groups served here in /apis (core first); unknown groups last, as registered. */
const GROUP_ORDER = [
  '',
  'apps',
  'events.orch.io',
  'authentication.orch.io',
  'authorization.orch.io',
  'autoscaling',
  'rbac.authorization.orch.io',
  'admissionregistration.orch.io',
  'flowcontrol.apiserver.orch.io',
];

function groupRank(group: string): number {
  const i = GROUP_ORDER.indexOf(group);
  return i < 0 ? GROUP_ORDER.length : i;
}

export class ResourceRegistry {
  readonly #byPath = new Map<string, ServedResource>();
  readonly #groups: GroupVersions[] = [];
  readonly #kinds = new Set<string>();
  /** Resources at their Kubernetes group name (`rbac.authorization.k8s.io`): routable, never in discovery. */
  readonly #aliases = new Map<string, ServedResource>();
  readonly #aliasGroupVersions = new Set<string>();
  /** Kinds that only take a create and store nothing (the access and token reviews): listed, never routed here. */
  readonly #createOnly: ResourceDefinition[] = [];

  add(served: ServedResource): void {
    const { group, version, resource, kind } = served.definition;
    this.#byPath.set(`${group}/${version}/${resource}`, served);
    this.#kinds.add(`${apiVersionOfDefinition(served.definition)}/${kind}`);
    this.#addGroupVersion(group, version);
  }

  /** Lists a create-only kind in discovery and OpenAPI; the server routes its POSTs elsewhere (endpoints/reviews). */
  addCreateOnly(definition: ResourceDefinition): void {
    this.#createOnly.push(definition);
    this.#addGroupVersion(definition.group, definition.version);
  }

  #addGroupVersion(group: string, version: string): void {
    let entry = this.#groups.find((g) => g.group === group);
    if (!entry) {
      entry = { group, versions: [] };
      this.#groups.push(entry);
    }
    if (!entry.versions.includes(version)) entry.versions.push(version);
  }

  /** Serves `served` (same store) under another group name too, without listing it in discovery. */
  addAlias(group: string, served: ServedResource): void {
    const definition = { ...served.definition, group };
    const { version, resource, kind } = definition;
    this.#aliases.set(`${group}/${version}/${resource}`, { ...served, definition });
    this.#aliasGroupVersions.add(`${group}/${version}`);
    this.#kinds.add(`${group}/${version}/${kind}`);
  }

  lookup(group: string, version: string, resource: string): ServedResource | undefined {
    const key = `${group}/${version}/${resource}`;
    // A Kubernetes group name of a served group (`events.k8s.io`) without a registered alias reaches the orch group.
    return (
      this.#byPath.get(key) ??
      this.#aliases.get(key) ??
      this.#byPath.get(`${canonicalGroup(group)}/${version}/${resource}`)
    );
  }

  servesGroupVersion(group: string, version: string): boolean {
    const canonical = canonicalGroup(group);
    return (
      this.#groups.some((g) => g.group === canonical && g.versions.includes(version)) ||
      this.#aliasGroupVersions.has(`${group}/${version}`)
    );
  }

  /**
   * Groups in kube-apiserver's discovery order (its group priorities), versions in preference order. A group that
   * Kubernetes names otherwise (`rbac.authorization.orch.io`) is listed right after that name
   * (`rbac.authorization.k8s.io`, same versions and resources): clients that map a manifest's `apiVersion` through
   * discovery (`kubectl apply -f`, Helm) find it, and kubectl, which resolves a bare resource name (`kubectl describe
   * clusterrole`) to the first group serving it, picks the name its describers and printers know, as against
   * Kubernetes.
   */
  groups(): readonly GroupVersions[] {
    return [...this.#groups]
      .sort((a, b) => groupRank(a.group) - groupRank(b.group))
      .flatMap((served) => {
        const k8s = kubernetesGroupOf(served.group);
        return k8s === undefined ? [served] : [{ group: k8s, versions: served.versions }, served];
      });
  }

  /** The resources of a group-version; at a Kubernetes group name, the served group's under that name. */
  resourcesOf(group: string, version: string): ServedResource[] {
    const canonical = canonicalGroup(group);
    const served = [...this.#byPath.values()].filter(
      (s) => s.definition.group === canonical && s.definition.version === version,
    );
    if (canonical === group) return served;
    return served.map(
      (s) =>
        this.#aliases.get(`${group}/${version}/${s.definition.resource}`) ?? {
          ...s,
          definition: { ...s.definition, group },
        },
    );
  }

  /** The create-only kinds of a group-version (see addCreateOnly). */
  createOnlyOf(group: string, version: string): ResourceDefinition[] {
    const canonical = canonicalGroup(group);
    return this.#createOnly
      .filter((d) => d.group === canonical && d.version === version)
      .map((d) => (canonical === group ? d : { ...d, group }));
  }

  /** Every create-only kind. */
  allCreateOnly(): readonly ResourceDefinition[] {
    return this.#createOnly;
  }

  /** One entry per stored resource (its storage version), for controllers and per-resource metrics. */
  all(): ServedResource[] {
    return this.allVersions().filter((s) => {
      const group = s.storageGroup ?? s.definition.group;
      const isHub = group === s.definition.group && s.definition.version === s.storageVersion;
      return isHub || !this.#byPath.has(`${group}/${s.storageVersion}/${s.definition.resource}`);
    });
  }

  /** Every served group/version/resource. */
  allVersions(): ServedResource[] {
    return [...this.#byPath.values()];
  }

  /** Every watch cache, one per resource (a resource served in several versions shares one). */
  cachers(): Cacher[] {
    return [...new Set(this.allVersions().flatMap((s) => (s.cacher ? [s.cacher] : [])))];
  }

  isKnownKind(apiVersion: string, kind: string): boolean {
    return this.#kinds.has(`${apiVersion}/${kind}`);
  }
}

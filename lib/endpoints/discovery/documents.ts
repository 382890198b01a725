// Discovery documents: /api, /api/v1, /apis, /apis/{group}, /apis/{group}/{version}, from the resource registry.
import type { ResourceRegistry, ServedResource } from '../../registry/resource-registry';
import type { ResourceDefinition } from '../../registry/rest/resource';
import { storageVersionHash } from './storage-version-hash';
import { apiVersionOf } from '../../apimachinery/schema/group-version';
import { routesOf } from '../routes/route-table';

export interface ServerAddress {
  clientCIDR: string;
  serverAddress: string;
}

function apiResources(served: ServedResource): Record<string, unknown>[] {
  const def = served.definition;
  const routes = routesOf(served);
  const namespaced = routes.namespaced;
  const main: Record<string, unknown> = {
    name: def.resource,
    singularName: '',
    namespaced,
    kind: def.kind,
    verbs: routes.verbs,
  };
  if (def.shortNames.length > 0) main['shortNames'] = def.shortNames;
  if (def.categories.length > 0) main['categories'] = def.categories;
  main['storageVersionHash'] = storageVersionHash(def.group, served.encodingVersion, def.kind);
  const entries: Record<string, unknown>[] = [main];
  for (const sub of routes.subresources) {
    const kind = sub.kind
      ? { group: sub.kind.group, version: sub.kind.version, kind: sub.kind.kind }
      : { kind: def.kind };
    entries.push({ name: `${def.resource}/${sub.name}`, singularName: '', namespaced, ...kind, verbs: sub.verbs });
  }
  return entries;
}

/** A create-only kind (a review): verb `create`, no storage, so no storageVersionHash. */
function createOnlyResource(def: ResourceDefinition): Record<string, unknown> {
  return {
    name: def.resource,
    singularName: '',
    namespaced: def.strategy.namespaced,
    kind: def.kind,
    verbs: ['create'],
  };
}

export function apiResourceList(registry: ResourceRegistry, group: string, version: string): Record<string, unknown> {
  const resources = [
    ...registry.resourcesOf(group, version).flatMap(apiResources),
    ...registry.createOnlyOf(group, version).map(createOnlyResource),
  ].sort((a, b) => String(a['name']).localeCompare(String(b['name'])));
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: apiVersionOf({ group, version }), resources };
}

export function apiVersions(address: ServerAddress): Record<string, unknown> {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [address] };
}

export function apiGroup(registry: ResourceRegistry, group: string): Record<string, unknown> | undefined {
  const entry = registry.groups().find((g) => g.group === group);
  if (!entry || group === '') return undefined;
  const versions = entry.versions.map((version) => ({ groupVersion: apiVersionOf({ group, version }), version }));
  return { kind: 'APIGroup', apiVersion: 'v1', name: group, versions, preferredVersion: versions[0] };
}

export function apiGroupList(registry: ResourceRegistry): Record<string, unknown> {
  const groups = registry
    .groups()
    .filter((g) => g.group !== '')
    .map((g) => {
      const doc = apiGroup(registry, g.group) ?? {};
      const { kind: _kind, apiVersion: _apiVersion, ...rest } = doc;
      return rest;
    });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups };
}

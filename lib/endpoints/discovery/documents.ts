// Discovery documents: /api, /api/v1, /apis, /apis/{group}, /apis/{group}/{version}, from the resource registry.
import type { ResourceRegistry, ServedResource } from '../../registry/resource-registry';
import { storageVersionHash } from './storage-version-hash';
import { apiVersionOf } from '../../apimachinery/schema/group-version';

const MAIN_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];
const STATUS_VERBS = ['get', 'patch', 'update'];

export interface ServerAddress {
  clientCIDR: string;
  serverAddress: string;
}

function apiResources(served: ServedResource): Record<string, unknown>[] {
  const def = served.definition;
  const namespaced = def.strategy.namespaced;
  const verbs = served.deleteCollection ? MAIN_VERBS : MAIN_VERBS.filter((v) => v !== 'deletecollection');
  const main: Record<string, unknown> = { name: def.resource, singularName: '', namespaced, kind: def.kind, verbs };
  if (def.shortNames.length > 0) main['shortNames'] = def.shortNames;
  if (def.categories.length > 0) main['categories'] = def.categories;
  main['storageVersionHash'] = storageVersionHash(def.group, served.encodingVersion, def.kind);
  const entries: Record<string, unknown>[] = [main];
  if (served.scale) entries.push({ name: `${def.resource}/scale`, singularName: '', namespaced, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: STATUS_VERBS });
  if (served.statusStore) entries.push({ name: `${def.resource}/status`, singularName: '', namespaced, kind: def.kind, verbs: STATUS_VERBS });
  for (const [sub, post] of served.postSubresources ?? []) entries.push({ name: `${def.resource}/${sub}`, singularName: '', namespaced, group: post.group, version: post.version, kind: post.kind, verbs: ['create'] });
  for (const sub of served.putSubresources.keys()) entries.push({ name: `${def.resource}/${sub}`, singularName: '', namespaced, kind: def.kind, verbs: ['update'] });
  return entries;
}

export function apiResourceList(registry: ResourceRegistry, group: string, version: string): Record<string, unknown> {
  const resources = registry
    .resourcesOf(group, version)
    .flatMap(apiResources)
    .sort((a, b) => String(a['name']).localeCompare(String(b['name'])));
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

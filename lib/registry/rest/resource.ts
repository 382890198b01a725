// ResourceDefinition: the facts installer, discovery and the store share about one served resource.
import type { GroupResource, GroupKind } from '../../apimachinery/errors';
import { apiVersionOf } from '../../apimachinery/schema/group-version';
import type { Strategy } from './strategy';

export interface ResourceDefinition {
  group: string;
  version: string;
  /** Plural name used in URLs. */
  resource: string;
  kind: string;
  listKind: string;
  shortNames: string[];
  categories: string[];
  strategy: Strategy;
  /** Present when the resource has a `status` subresource. */
  statusStrategy?: Strategy;
}

export const groupResource = (def: ResourceDefinition): GroupResource => ({ group: def.group, resource: def.resource });
export const groupKind = (def: ResourceDefinition): GroupKind => ({ group: def.group, kind: def.kind });
export const apiVersionOfDefinition = (def: ResourceDefinition): string => apiVersionOf(def);

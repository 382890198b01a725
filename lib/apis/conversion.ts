// Version conversion: every served version of a kind converts to and from the hub (its resource's storage version).
import type { ApiObject } from '../apimachinery/meta/types';
import { goShape } from '../apimachinery/serializers/go-shape';

export type Convert = (obj: ApiObject) => ApiObject;

/** The versions of one kind: the hub and, per other version, its converters to and from the hub. */
export interface KindConversions {
  hub: string;
  versions: Readonly<Record<string, { toHub: Convert; fromHub: Convert }>>;
}

function versionOf(apiVersion: string): string {
  return apiVersion.slice(apiVersion.indexOf('/') + 1);
}

function labelled(obj: ApiObject, apiVersion: string, kind: string): ApiObject {
  return obj.apiVersion === apiVersion && obj.kind === kind ? obj : { ...obj, apiVersion, kind };
}

/**
 * `obj` in `targetVersion` of group/kind, through the hub. An object already in the target form is returned
 * as is (so stored bytes stay reusable); one without apiVersion is taken to be in the hub version; a version
 * without converters (an identical shape) is relabelled only.
 */
export function convertObject(conversions: KindConversions | undefined, obj: ApiObject, group: string, kind: string, targetVersion: string): ApiObject {
  const target = group === '' ? targetVersion : `${group}/${targetVersion}`;
  const source = typeof obj.apiVersion === 'string' && obj.apiVersion !== '' ? versionOf(obj.apiVersion) : (conversions?.hub ?? targetVersion);
  if (!conversions || source === targetVersion) return labelled(obj, target, kind);
  const toHub = conversions.versions[source]?.toHub;
  const hub = source === conversions.hub || !toHub ? obj : toHub(obj);
  const fromHub = conversions.versions[targetVersion]?.fromHub;
  const out = targetVersion === conversions.hub || !fromHub ? hub : fromHub(hub);
  // A converted object is written as Kubernetes writes the target version's Go type.
  return goShape(labelled(out, target, kind));
}

// Version conversion: every served version of a kind converts to and from the hub (its resource's storage version).
import type { ApiObject } from '../apimachinery/meta/types';
import { goShape } from '../apimachinery/serializers/go-shape';

export type Convert = (obj: ApiObject) => ApiObject;

/** The versions of one kind: the hub and, per other version, its converters to and from the hub. */
export interface KindConversions {
  hub: string;
  /**
   * `toHubUndefaulted`: the conversion without the hub version's defaults, where `toHub` applies them (what a read
   * in the hub version shows); field tracking compares and prunes with it, as structured-merge-diff's converter does.
   */
  versions: Readonly<Record<string, { toHub: Convert; fromHub: Convert; toHubUndefaulted?: Convert }>>;
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
export function convertObject(conversions: KindConversions | undefined, obj: ApiObject, group: string, kind: string, targetVersion: string, undefaulted = false): ApiObject {
  const target = group === '' ? targetVersion : `${group}/${targetVersion}`;
  const source = typeof obj.apiVersion === 'string' && obj.apiVersion !== '' ? versionOf(obj.apiVersion) : (conversions?.hub ?? targetVersion);
  if (!conversions || source === targetVersion) return labelled(obj, target, kind);
  const converters = conversions.versions[source];
  const toHub = undefaulted ? (converters?.toHubUndefaulted ?? converters?.toHub) : converters?.toHub;
  const hub = source === conversions.hub || !toHub ? obj : toHub(obj);
  const fromHub = conversions.versions[targetVersion]?.fromHub;
  const out = targetVersion === conversions.hub || !fromHub ? hub : fromHub(hub);
  // A converted object is written as Kubernetes writes the target version's Go type.
  return goShape(labelled(out, target, kind));
}

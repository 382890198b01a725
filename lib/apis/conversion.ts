// Version conversion: every served version of a kind converts to and from the hub (its resource's storage version).
import { canonicalApiVersion } from '../apimachinery/schema/group-aliases';
import { apiVersionOf } from '../apimachinery/schema/group-version';
import type { ApiObject } from '../apimachinery/meta/types';
import { goShape } from '../apimachinery/serializers/go-shape';

export type Convert = (obj: ApiObject) => ApiObject;

/**
 * The versions of one kind: the hub and, per other version, its converters to and from the hub. A kind served
 * by several groups from one storage (core v1 and events.orch.io/v1 Event) names the hub's group in `hubGroup`
 * and keys `versions` by whole apiVersions; otherwise keys are versions of the kind's own group.
 */
export interface KindConversions {
  hub: string;
  hubGroup?: string;
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

/** The key of an apiVersion in `conversions`: the whole apiVersion across groups, else the version. */
/** A Kubernetes group name (`events.k8s.io/v1`) converts as its orch group. */
function keyOf(conversions: KindConversions, apiVersion: string): string {
  return conversions.hubGroup === undefined ? versionOf(apiVersion) : canonicalApiVersion(apiVersion);
}

/**
 * `obj` in `targetVersion` of group/kind, through the hub. An object already in the target form is returned
 * as is (so stored bytes stay reusable); one without apiVersion is taken to be in the hub version; a version
 * without converters (an identical shape) is relabelled only.
 */
export function convertObject(
  conversions: KindConversions | undefined,
  obj: ApiObject,
  group: string,
  kind: string,
  targetVersion: string,
  undefaulted = false,
): ApiObject {
  const target = apiVersionOf({ group, version: targetVersion });
  if (!conversions) return labelled(obj, target, kind);
  const hubKey =
    conversions.hubGroup === undefined
      ? conversions.hub
      : apiVersionOf({ group: conversions.hubGroup, version: conversions.hub });
  const source =
    typeof obj.apiVersion === 'string' && obj.apiVersion !== '' ? keyOf(conversions, obj.apiVersion) : hubKey;
  const targetKey = keyOf(conversions, target);
  if (source === targetKey) return labelled(obj, target, kind);
  const converters = conversions.versions[source];
  const toHub = undefaulted ? (converters?.toHubUndefaulted ?? converters?.toHub) : converters?.toHub;
  const hub = source === hubKey || !toHub ? obj : toHub(obj);
  const fromHub = conversions.versions[targetKey]?.fromHub;
  const out = targetKey === hubKey || !fromHub ? hub : fromHub(hub);
  // A converted object is written as Kubernetes writes the target version's Go type.
  return goShape(labelled(out, target, kind));
}

/** The group of a kind's hub: its `hubGroup` when served across groups, else `group`. */
export function hubGroupOf(conversions: KindConversions | undefined, group: string): string {
  return conversions?.hubGroup ?? group;
}

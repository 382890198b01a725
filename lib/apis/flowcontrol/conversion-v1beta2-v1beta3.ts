// flowcontrol v1beta2 ↔ v1beta3: the only field difference is PriorityLevelConfiguration's concurrency shares name.
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { KindConversions } from '../conversion';

/** A copy of `obj` with spec.limited[from] renamed to spec.limited[to] (same value, same position). */
function renameShares(obj: ApiObject, from: string, to: string): ApiObject {
  const spec = obj.spec;
  if (!isPlainObject(spec) || !isPlainObject(spec.limited) || !(from in spec.limited)) return obj;
  const limited = Object.fromEntries(Object.entries(spec.limited).map(([k, v]) => [k === from ? to : k, v]));
  return { ...obj, spec: { ...spec, limited } };
}

export const v1beta2PriorityLevelToV1beta3 = (obj: ApiObject): ApiObject =>
  renameShares(obj, 'assuredConcurrencyShares', 'nominalConcurrencyShares');
export const v1beta3PriorityLevelToV1beta2 = (obj: ApiObject): ApiObject =>
  renameShares(obj, 'nominalConcurrencyShares', 'assuredConcurrencyShares');

/** PriorityLevelConfiguration, stored as v1beta3. */
export const PRIORITY_LEVEL_CONVERSIONS: KindConversions = {
  hub: 'v1beta3',
  versions: { v1beta2: { toHub: v1beta2PriorityLevelToV1beta3, fromHub: v1beta3PriorityLevelToV1beta2 } },
};

/** FlowSchema has the same fields in both versions. */
export const FLOW_SCHEMA_CONVERSIONS: KindConversions = { hub: 'v1beta3', versions: {} };

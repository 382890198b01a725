// Every multi-version kind's conversions, by group and kind; the hub of each is its resource's storage version.
import { canonicalGroup } from '../apimachinery/schema/group-aliases';
import type { KindConversions } from './conversion';
import { FLOW_SCHEMA_CONVERSIONS, PRIORITY_LEVEL_CONVERSIONS } from './flowcontrol/conversion-v1beta2-v1beta3';
import { HORIZONTAL_POD_AUTOSCALER_CONVERSIONS } from './autoscaling/conversion-v1-v2';
import { EVENT_CONVERSIONS } from './events/v1/conversion';

const BY_GROUP_KIND: ReadonlyMap<string, KindConversions> = new Map([
  ['flowcontrol.apiserver.orch.io/FlowSchema', FLOW_SCHEMA_CONVERSIONS],
  ['flowcontrol.apiserver.orch.io/PriorityLevelConfiguration', PRIORITY_LEVEL_CONVERSIONS],
  ['autoscaling/HorizontalPodAutoscaler', HORIZONTAL_POD_AUTOSCALER_CONVERSIONS],
  ['/Event', EVENT_CONVERSIONS],
  ['events.orch.io/Event', EVENT_CONVERSIONS],
]);

/** The conversions of group/kind, or undefined for a kind served in one version only. */
export function conversionsOf(group: string, kind: string): KindConversions | undefined {
  return BY_GROUP_KIND.get(`${canonicalGroup(group)}/${kind}`);
}

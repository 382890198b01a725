// events.orch.io/v1 Event ↔ core v1 Event (the stored form), field for field as pkg/apis/events/v1/conversion.go
// maps them: regarding ↔ involvedObject, note ↔ message, deprecated* ↔ the core timestamps, count and source,
// reportingController ↔ reportingComponent; the other fields share names.
import type { ApiObject } from '../../../apimachinery/meta/types';
import type { KindConversions } from '../../conversion';

/** events/v1 name → core v1 name of the renamed fields. */
const RENAMED: ReadonlyArray<readonly [string, string]> = [
  ['regarding', 'involvedObject'],
  ['note', 'message'],
  ['deprecatedSource', 'source'],
  ['deprecatedFirstTimestamp', 'firstTimestamp'],
  ['deprecatedLastTimestamp', 'lastTimestamp'],
  ['deprecatedCount', 'count'],
  ['reportingController', 'reportingComponent'],
];

const TO_CORE = new Map(RENAMED);
const TO_EVENTS = new Map(RENAMED.map(([a, b]) => [b, a]));

function renamed(obj: ApiObject, names: ReadonlyMap<string, string>): ApiObject {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [names.get(k) ?? k, v])) as ApiObject;
}

/** Zero values core v1's Go type writes for fields without omitempty (struct fields, times, two strings). */
function coreShaped(obj: ApiObject): ApiObject {
  return {
    involvedObject: {},
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
    ...obj,
  };
}

/** events/v1 writes eventTime, regarding and the deprecated times always, its two reporting strings only when set. */
function eventsShaped(obj: ApiObject): ApiObject {
  const out: ApiObject = {
    eventTime: null,
    regarding: {},
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
    ...obj,
  };
  for (const key of ['reportingController', 'reportingInstance']) if (out[key] === '') delete out[key];
  return out;
}

export const coreEventToEventsV1 = (obj: ApiObject): ApiObject => eventsShaped(renamed(obj, TO_EVENTS));
export const eventsV1EventToCore = (obj: ApiObject): ApiObject => coreShaped(renamed(obj, TO_CORE));

/** A stored Event in the shape core v1's Go type writes. */
export const shapeCoreEvent = coreShaped;

/** Event, stored as core v1 and served as events.orch.io/v1 too. */
export const EVENT_CONVERSIONS: KindConversions = {
  hub: 'v1',
  hubGroup: '',
  versions: { 'events.orch.io/v1': { toHub: eventsV1EventToCore, fromHub: coreEventToEventsV1 } },
};

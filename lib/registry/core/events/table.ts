// Event printer columns as kube-apiserver 1.26 prints them (pkg/printers/internalversion printEvent, wide cells).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { objectAt, stringAt, numberAt } from '../../../apimachinery/validation/untrusted-json';
import { formatAge } from '../../rest/age';
import type { TableConvertor } from '../../rest/table';
import { nameColumn, stringColumn } from '../../rest/table';

// Descriptions: the SwaggerDoc texts of k8s.io/api v0.26 core/v1 Event.
const FIELD_PATH_DOC =
  'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2]. For example, if the object reference is to a container within a pod, this would take on a value like: "spec.containers{name}" (where "name" refers to the name of the container that triggered the event) or if no container name is specified "spec.containers[2]" (container with index 2 in this pod). This syntax is chosen only to have some well-defined way of referencing a part of an object.';

const time = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `component, instance`, `component`, or empty (formatEventSource). */
function source(event: ApiObject): string {
  const src = objectAt(event, 'source');
  const component = stringAt(src, 'component') || stringAt(event, 'reportingComponent');
  const instance = stringAt(src, 'host') || stringAt(event, 'reportingInstance');
  if (component === '') return '';
  return instance === '' ? component : `${component}, ${instance}`;
}

export const eventTable: TableConvertor = {
  columns: [
    stringColumn('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
    stringColumn('Type', 'Type of this event (Normal, Warning), new types could be added in the future'),
    stringColumn(
      'Reason',
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    stringColumn('Object', 'The object that this event is about.'),
    stringColumn('Subobject', FIELD_PATH_DOC, 1),
    stringColumn('Source', 'The component reporting this event. Should be a short machine understandable string.', 1),
    stringColumn('Message', 'A human-readable description of the status of this operation.'),
    stringColumn(
      'First Seen',
      'The time at which the event was first recorded. (Time of server receipt is in TypeMeta.)',
      1,
    ),
    stringColumn('Count', 'The number of times this event has occurred.', 1),
    { ...nameColumn, priority: 1 },
  ],
  cells(event: ApiObject, now: Date): unknown[] {
    const first = time(event['firstTimestamp'])
      ? formatAge(time(event['firstTimestamp']), now)
      : formatAge(time(event['eventTime']), now);
    let last = time(event['lastTimestamp']) ? formatAge(time(event['lastTimestamp']), now) : first;
    let count = numberAt(event, 'count');
    const series = objectAt(event, 'series');
    if (series !== undefined) {
      last = formatAge(time(series['lastObservedTime']), now);
      count = numberAt(series, 'count');
    } else if (count === 0) {
      count = 1;
    }
    const involved = objectAt(event, 'involvedObject');
    const kind = stringAt(involved, 'kind').toLowerCase();
    const name = stringAt(involved, 'name');
    const target = name === '' ? kind : `${kind}/${name}`;
    return [
      last,
      stringAt(event, 'type'),
      stringAt(event, 'reason'),
      target,
      stringAt(involved, 'fieldPath'),
      source(event),
      stringAt(event, 'message'),
      first,
      count,
      event.metadata.name ?? '',
    ];
  },
};

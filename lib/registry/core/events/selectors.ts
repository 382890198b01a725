// Event field selectors: core v1's (EventToSelectableFields) and events.orch.io/v1's, whose labels Kubernetes
// converts to the core ones (regarding.* → involvedObject.*, reportingController → the reporting component).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { objectAt, stringAt } from '../../../apimachinery/validation/untrusted-json';
import type { SelectorSupport } from '../../rest/selector-support';

const REFERENCE_FIELDS = ['kind', 'namespace', 'name', 'uid', 'apiVersion', 'resourceVersion', 'fieldPath'] as const;

function referenceFields(prefix: string, event: ApiObject): Record<string, string> {
  const ref = objectAt(event, 'involvedObject');
  return Object.fromEntries(REFERENCE_FIELDS.map((f) => [`${prefix}.${f}`, stringAt(ref, f)]));
}

/** The reporting component: source.component, else reportingComponent (what newer releases select on). */
function component(event: ApiObject): string {
  return stringAt(objectAt(event, 'source'), 'component') || stringAt(event, 'reportingComponent');
}

function metadataFields(event: ApiObject): Record<string, string> {
  return { 'metadata.name': event.metadata.name ?? '', 'metadata.namespace': event.metadata.namespace ?? '' };
}

export const CORE_EVENT_SELECTORS: SelectorSupport = {
  fields: [
    'metadata.name',
    'metadata.namespace',
    ...REFERENCE_FIELDS.map((f) => `involvedObject.${f}`),
    'reason',
    'reportingComponent',
    'source',
    'type',
  ],
  fieldSet: (event) => ({
    ...metadataFields(event),
    ...referenceFields('involvedObject', event),
    reason: stringAt(event, 'reason'),
    reportingComponent: stringAt(event, 'reportingComponent'),
    source: component(event),
    type: stringAt(event, 'type'),
  }),
};

export const EVENTS_V1_SELECTORS: SelectorSupport = {
  fields: [
    'metadata.name',
    'metadata.namespace',
    ...REFERENCE_FIELDS.map((f) => `regarding.${f}`),
    'reason',
    'reportingController',
    'reportingInstance',
    'type',
  ],
  fieldSet: (event) => ({
    ...metadataFields(event),
    ...referenceFields('regarding', event),
    reason: stringAt(event, 'reason'),
    reportingController: component(event),
    reportingInstance: stringAt(event, 'reportingInstance'),
    type: stringAt(event, 'type'),
  }),
};

// Event validation (pkg/apis/core/validation/events.go): legacy rules for every write, strict ones for writes
// through events.orch.io/v1. Both run on the stored (core v1) form, so error paths name core fields.
import type { FieldError } from '../../apimachinery/field/errors';
import { goLiteral, invalidValue, required } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isDNS1123Subdomain, isQualifiedName } from '../../apimachinery/validation/names';
import { numberAt, objectAt, stringAt } from '../../apimachinery/validation/untrusted-json';
import { semanticEqual } from '../../apimachinery/validation/semantic-equal';

const REPORTING_INSTANCE_LENGTH_LIMIT = 128;
const ACTION_LENGTH_LIMIT = 128;
const REASON_LENGTH_LIMIT = 128;
const NOTE_LENGTH_LIMIT = 1024;
const DEFAULT_NAMESPACE = 'default';
const SYSTEM_NAMESPACE = 'kube-system';

const path = (...names: string[]): FieldPath => FieldPath.root(names[0] ?? '', ...names.slice(1));

/** A Go time field is "zero" when absent, null or empty. */
function isZeroTime(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === '0001-01-01T00:00:00Z';
}

function tooLongText(limit: number): string {
  return `can have at most ${limit} characters`;
}

/** legacyValidateEvent: the rules every event write passes, whichever API it came through. */
export function validateEventLegacy(event: ApiObject): FieldError[] {
  const errs: FieldError[] = [];
  const namespace = event.metadata.namespace ?? '';
  const involved = objectAt(event, 'involvedObject');
  const involvedNamespace = stringAt(involved, 'namespace');
  const mismatch = (): FieldError =>
    invalidValue(path('involvedObject', 'namespace'), involvedNamespace, 'does not match event.namespace');
  if (isZeroTime(event['eventTime'])) {
    if (
      involvedNamespace === '' ? namespace !== '' && namespace !== DEFAULT_NAMESPACE : namespace !== involvedNamespace
    )
      errs.push(mismatch());
  } else {
    if (involvedNamespace === '' && namespace !== DEFAULT_NAMESPACE && namespace !== SYSTEM_NAMESPACE)
      errs.push(mismatch());
    const controller = stringAt(event, 'reportingComponent');
    if (controller === '') errs.push(required(path('reportingController')));
    for (const msg of isQualifiedName(controller))
      errs.push(invalidValue(path('reportingController'), controller, msg));
    const instance = stringAt(event, 'reportingInstance');
    if (instance === '') errs.push(required(path('reportingInstance')));
    if (instance.length > REPORTING_INSTANCE_LENGTH_LIMIT)
      errs.push(invalidValue(path('reportingInstance'), '', tooLongText(REPORTING_INSTANCE_LENGTH_LIMIT)));
    const action = stringAt(event, 'action');
    if (action === '') errs.push(required(path('action')));
    if (action.length > ACTION_LENGTH_LIMIT)
      errs.push(invalidValue(path('action'), '', tooLongText(ACTION_LENGTH_LIMIT)));
    const reason = stringAt(event, 'reason');
    if (reason === '') errs.push(required(path('reason')));
    if (reason.length > REASON_LENGTH_LIMIT)
      errs.push(invalidValue(path('reason'), '', tooLongText(REASON_LENGTH_LIMIT)));
    if (stringAt(event, 'message').length > NOTE_LENGTH_LIMIT)
      errs.push(invalidValue(path('message'), '', tooLongText(NOTE_LENGTH_LIMIT)));
  }
  for (const msg of isDNS1123Subdomain(namespace)) errs.push(invalidValue(path('namespace'), namespace, msg));
  return errs;
}

function validateSeries(event: ApiObject): FieldError[] {
  const series = event['series'];
  if (series === undefined || series === null) return [];
  const errs: FieldError[] = [];
  if (numberAt(series, 'count') < 2) errs.push(invalidValue(path('series.count'), '', 'should be at least 2'));
  if (isZeroTime(objectAt(event, 'series')?.['lastObservedTime'])) errs.push(required(path('series.lastObservedTime')));
  return errs;
}

/** ValidateEventCreate for events.orch.io/v1 (object metadata is validated by the store). */
export function validateEventV1Create(event: ApiObject): FieldError[] {
  const errs = [...validateEventLegacy(event), ...validateSeries(event)];
  if (isZeroTime(event['eventTime'])) errs.push(required(path('eventTime')));
  const type = stringAt(event, 'type');
  if (type !== 'Normal' && type !== 'Warning') errs.push(invalidValue(path('type'), '', `has invalid value: ${type}`));
  if (!isZeroTime(event['firstTimestamp'])) errs.push(invalidValue(path('firstTimestamp'), '', 'needs to be unset'));
  if (!isZeroTime(event['lastTimestamp'])) errs.push(invalidValue(path('lastTimestamp'), '', 'needs to be unset'));
  if (numberAt(event, 'count') !== 0) errs.push(invalidValue(path('count'), '', 'needs to be unset'));
  const source = objectAt(event, 'source');
  if (stringAt(source, 'component') !== '' || stringAt(source, 'host') !== '')
    errs.push(invalidValue(path('source'), '', 'needs to be unset'));
  return errs;
}

/** The core field (and JSON name) each immutable check of ValidateEventUpdate covers. */
const IMMUTABLE_FIELDS = [
  'involvedObject',
  'reason',
  'message',
  'source',
  'firstTimestamp',
  'lastTimestamp',
  'count',
  'reason',
  'type',
  'eventTime',
  'action',
  'related',
] as const;

/** An immutable-field value as the error prints it (strings quoted, anything else as compact JSON). */
function shown(value: unknown): string | number | ReturnType<typeof goLiteral> {
  if (typeof value === 'string' || typeof value === 'number') return value;
  return goLiteral(value === undefined ? 'null' : JSON.stringify(value));
}

/** ValidateEventUpdate for events.orch.io/v1: legacy rules, the series when changed, and immutable fields. */
export function validateEventV1Update(event: ApiObject, old: ApiObject): FieldError[] {
  const errs = validateEventLegacy(event);
  if (!semanticEqual(event['series'] ?? null, old['series'] ?? null)) errs.push(...validateSeries(event));
  // Go's zero values ("" and 0) equal an absent field.
  const zero = (v: unknown): unknown => (v === '' || v === 0 ? null : v);
  const immutable = (field: string, json: string): void => {
    if (!semanticEqual(zero(event[json]), zero(old[json])))
      errs.push(invalidValue(path(field), shown(event[json]), 'field is immutable'));
  };
  for (const field of IMMUTABLE_FIELDS) immutable(field, field);
  immutable('reportingController', 'reportingComponent');
  immutable('reportingInstance', 'reportingInstance');
  return errs;
}

// Query parameters of list/watch/deletecollection → validated ListParams (400 and 422 as Kubernetes answers).
import { optionalQueryBool } from '../query-bool';
import { badRequest, invalid } from '../../apimachinery/errors';
import type { FieldError } from '../../apimachinery/field/errors';
import { forbiddenField, notSupported } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import { parseFieldSelector } from '../../apimachinery/fields/selector';
import { parseLabelSelector } from '../../apimachinery/labels/selector';
import type { ListParams } from '../../registry/generic/list';
import {
  DEFAULT_SELECTOR_SUPPORT,
  metadataFieldSet,
  type FieldSet,
  type SelectorSupport,
} from '../../registry/rest/selector-support';
import { invalidResourceVersion } from '../../apimachinery/meta/resource-version';

export const META_GROUP = 'meta.orch.io';

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt-style parse of an integer query parameter; 400 with Go's text when malformed. */
export function parseIntegerParam(value: string | null): number | undefined {
  if (value === null) return undefined;
  // Go's strconv.ParseInt(value, 10, 64), as the query conversion calls it: an empty value is a syntax error too.
  if (!/^[+-]?\d+$/.test(value)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  const n = BigInt(value);
  if (n < INT64_MIN || n > INT64_MAX)
    throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`);
  return Number(value);
}

/** A resourceVersion query value; undefined when unset, 0 for "0"; 400 when not a number. */
export function parseResourceVersion(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  const invalid = invalidResourceVersion(value);
  if (invalid !== undefined) throw invalid;
  return Number(value);
}

/** `sendInitialEvents` as Go's *bool query conversion reads it: unset, or false only for "0"/"false". */
export function parseSendInitialEvents(query: URLSearchParams): boolean | undefined {
  return optionalQueryBool(query, 'sendInitialEvents');
}

/**
 * Kubernetes' ValidateListOptions: every broken rule is reported, in upstream order. `watchList` (feature gate
 * WatchList) selects the 1.27+ rules, where a watch may carry sendInitialEvents with resourceVersionMatch;
 * without it the 1.26 rules apply and sendInitialEvents is ignored, as a 1.26 server ignores unknown parameters.
 */
function validateListOptions(query: URLSearchParams, watch: boolean, watchList: boolean): FieldError[] {
  const match = query.get('resourceVersionMatch') ?? '';
  const path = FieldPath.root('resourceVersionMatch');
  const errs: FieldError[] = [];
  const sendInitialEvents = watchList ? parseSendInitialEvents(query) : undefined;
  if (watch && watchList) {
    if (sendInitialEvents !== undefined && match !== 'NotOlderThan')
      errs.push(forbiddenField(path, 'sendInitialEvents requires setting resourceVersionMatch to NotOlderThan'));
    if (match === '') return errs;
    if (sendInitialEvents === undefined)
      errs.push(
        forbiddenField(path, 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'),
      );
    if (match !== 'NotOlderThan') errs.push(notSupported(path, match, ['NotOlderThan']));
    if ((query.get('continue') ?? '') !== '')
      errs.push(forbiddenField(path, 'resourceVersionMatch is forbidden when continue is provided'));
    return errs;
  }
  if (match !== '') {
    if (watch) errs.push(forbiddenField(path, 'resourceVersionMatch is forbidden for watch'));
    const rv = query.get('resourceVersion') ?? '';
    if (rv === '')
      errs.push(forbiddenField(path, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
    if ((query.get('continue') ?? '') !== '')
      errs.push(forbiddenField(path, 'resourceVersionMatch is forbidden when continue is provided'));
    if (match !== 'Exact' && match !== 'NotOlderThan')
      errs.push(notSupported(path, match, ['Exact', 'NotOlderThan', '']));
    if (match === 'Exact' && rv === '0')
      errs.push(forbiddenField(path, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  }
  if (sendInitialEvents !== undefined)
    errs.push(forbiddenField(FieldPath.root('sendInitialEvents'), 'sendInitialEvents is forbidden for list'));
  return errs;
}

export { DEFAULT_SELECTOR_SUPPORT, metadataFieldSet, type FieldSet, type SelectorSupport };

/**
 * Builds ListParams; `listChunking` false makes `limit` ignored (feature gate APIListChunking); `watchList`
 * (feature gate WatchList, on unless set false) accepts sendInitialEvents on watches.
 */
export function parseListParams(
  query: URLSearchParams,
  options: { watch: boolean; listChunking: boolean; selectors: SelectorSupport; watchList?: boolean },
): ListParams {
  const labelSelector = parseLabelSelector(query.get('labelSelector') ?? '');
  const fieldSelector = parseFieldSelector(query.get('fieldSelector') ?? '', options.selectors.fields);
  const limit = parseIntegerParam(query.get('limit')) ?? 0;
  parseIntegerParam(query.get('timeoutSeconds'));
  // Options are validated (422) before storage parses the resourceVersion (400), as in kube-apiserver.
  const watchList = options.watchList !== false;
  const errs = validateListOptions(query, options.watch, watchList);
  if (errs.length > 0) throw invalid({ group: META_GROUP, kind: 'ListOptions' }, '', errs);
  const resourceVersion = parseResourceVersion(query.get('resourceVersion'));
  const continueToken = options.listChunking ? (query.get('continue') ?? '') : '';

  const hasSelector = !labelSelector.isEmpty() || !fieldSelector.isEmpty();
  const params: ListParams = {
    hasSelector,
    limit: options.listChunking && limit > 0 ? limit : 0,
    continueToken,
    resourceVersionMatch: (query.get('resourceVersionMatch') ?? '') as ListParams['resourceVersionMatch'],
  };
  if (resourceVersion !== undefined) params.resourceVersion = resourceVersion;
  const sendInitialEvents = options.watch && watchList ? parseSendInitialEvents(query) : undefined;
  if (sendInitialEvents !== undefined) params.sendInitialEvents = sendInitialEvents;
  if (hasSelector) {
    const fieldSet = options.selectors.fieldSet;
    params.predicate = (obj) => labelSelector.matches(obj.metadata.labels) && fieldSelector.matches(fieldSet(obj));
  }
  return params;
}

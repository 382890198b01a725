// Query parameters of list/watch/deletecollection → validated ListParams (400 and 422 as Kubernetes answers).
import { badRequest, invalid } from '../../apimachinery/errors';
import type { FieldError } from '../../apimachinery/field/errors';
import { forbiddenField, notSupported } from '../../apimachinery/field/errors';
import { FieldPath } from '../../apimachinery/field/path';
import type { ApiObject } from '../../apimachinery/meta/types';
import { parseFieldSelector } from '../../apimachinery/fields/selector';
import { parseLabelSelector } from '../../apimachinery/labels/selector';
import type { ListParams } from '../../registry/generic/list';

export const META_GROUP = 'meta.orch.io';
const CONTINUE_WITH_RV_TEXT = 'specifying resource version is not allowed when using continue';

/** strconv.ParseInt-style parse of an integer query parameter; 400 with Go's text when malformed. */
export function parseIntegerParam(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^[+-]?\d+$/.test(value)) throw badRequest(`strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  return Number(value);
}

/** A resourceVersion query value; undefined when unset, 0 for "0"; 400 when not a number. */
export function parseResourceVersion(value: string | null): number | undefined {
  if (value === null || value === '') return undefined;
  if (!/^\d+$/.test(value)) {
    throw badRequest(`invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(value)}: strconv.ParseUint: parsing ${JSON.stringify(value)}: invalid syntax`);
  }
  return Number(value);
}

function validateResourceVersionMatch(query: URLSearchParams, watch: boolean): FieldError[] {
  const match = query.get('resourceVersionMatch') ?? '';
  if (match === '') return [];
  const path = FieldPath.root('resourceVersionMatch');
  if (watch) return [forbiddenField(path, 'resourceVersionMatch is forbidden for watch')];
  const errs: FieldError[] = [];
  const rv = query.get('resourceVersion') ?? '';
  if (rv === '') errs.push(forbiddenField(path, 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
  if ((query.get('continue') ?? '') !== '') errs.push(forbiddenField(path, 'resourceVersionMatch is forbidden when continue is provided'));
  if (match !== 'Exact' && match !== 'NotOlderThan') errs.push(notSupported(path, match, ['Exact', 'NotOlderThan', '']));
  if (match === 'Exact' && rv === '0') errs.push(forbiddenField(path, 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
  return errs;
}

/** The fields a field selector can address, for one object. */
export type FieldSet = (obj: ApiObject) => Record<string, string>;

export const metadataFieldSet: FieldSet = (obj) => ({ 'metadata.name': obj.metadata.name ?? '', 'metadata.namespace': obj.metadata.namespace ?? '' });

export interface SelectorSupport {
  fields: readonly string[];
  fieldSet: FieldSet;
}

export const DEFAULT_SELECTOR_SUPPORT: SelectorSupport = { fields: ['metadata.name', 'metadata.namespace'], fieldSet: metadataFieldSet };

/** Builds ListParams; `listChunking` false makes `limit` ignored (feature gate APIListChunking). */
export function parseListParams(query: URLSearchParams, options: { watch: boolean; listChunking: boolean; selectors: SelectorSupport }): ListParams {
  const labelSelector = parseLabelSelector(query.get('labelSelector') ?? '');
  const fieldSelector = parseFieldSelector(query.get('fieldSelector') ?? '', options.selectors.fields);
  const limit = parseIntegerParam(query.get('limit')) ?? 0;
  parseIntegerParam(query.get('timeoutSeconds'));
  const rvText = query.get('resourceVersion') ?? '';
  const resourceVersion = parseResourceVersion(rvText);
  const errs = validateResourceVersionMatch(query, options.watch);
  if (errs.length > 0) throw invalid({ group: META_GROUP, kind: 'ListOptions' }, '', errs);
  const continueToken = options.listChunking ? query.get('continue') ?? '' : '';
  if (continueToken !== '' && rvText !== '' && rvText !== '0') throw badRequest(CONTINUE_WITH_RV_TEXT);

  const hasSelector = !labelSelector.isEmpty() || !fieldSelector.isEmpty();
  const params: ListParams = {
    hasSelector,
    limit: options.listChunking && limit > 0 ? limit : 0,
    continueToken,
    resourceVersionMatch: (query.get('resourceVersionMatch') ?? '') as ListParams['resourceVersionMatch'],
  };
  if (resourceVersion !== undefined) params.resourceVersion = resourceVersion;
  if (hasSelector) {
    const fieldSet = options.selectors.fieldSet;
    params.predicate = (obj) => labelSelector.matches(obj.metadata.labels) && fieldSelector.matches(fieldSet(obj));
  }
  return params;
}

// Which webhooks a write calls (k8s.io/apiserver/pkg/admission/plugin/webhook: rules, namespace and object
// selectors, matchPolicy Equivalent over the other served versions of the same stored resource).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';
import { canonicalGroup } from '../../../apimachinery/schema/group-aliases';
import { labelSelectorAsSelector, readLabelSelector } from '../../../apis/apps/label-selector';
import { FieldPath } from '../../../apimachinery/field/path';
import type { AdmissionOperation } from '../../../registry/generic/admission';

/** A group/version/resource/subresource a webhook may be called for, and the object's scope. */
export interface RequestTarget {
  group: string;
  version: string;
  resource: string;
  subresource: string;
  operation: AdmissionOperation;
  /** The request's namespace (the namespace's own name for namespace objects). */
  namespace: string;
}

const SELECTOR_PATH = FieldPath.root('selector');

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function includesOrWildcard(values: string[], value: string, canonical: (v: string) => string = (v) => v): boolean {
  return values.some((v) => v === '*' || canonical(v) === value);
}

function resourceMatches(resources: string[], resource: string, subresource: string): boolean {
  return resources.some((entry) => {
    const slash = entry.indexOf('/');
    const res = slash < 0 ? entry : entry.slice(0, slash);
    const sub = slash < 0 ? '' : entry.slice(slash + 1);
    return (res === '*' || res === resource) && (sub === '*' || sub === subresource);
  });
}

function scopeMatches(scope: unknown, target: RequestTarget): boolean {
  const isNamespaceObject = target.group === '' && target.resource === 'namespaces';
  if (scope === 'Namespaced') return !isNamespaceObject && target.namespace !== '';
  if (scope === 'Cluster') return isNamespaceObject || target.namespace === '';
  return true;
}

/** A rule of the webhook matches the target (rules.Matcher). */
export function rulesMatch(hook: Record<string, unknown>, target: RequestTarget): boolean {
  const rules = Array.isArray(hook['rules']) ? hook['rules'].filter(isPlainObject) : [];
  return rules.some(
    (rule) =>
      includesOrWildcard(strings(rule['operations']), target.operation) &&
      includesOrWildcard(strings(rule['apiGroups']), target.group, canonicalGroup) &&
      includesOrWildcard(strings(rule['apiVersions']), target.version) &&
      resourceMatches(strings(rule['resources']), target.resource, target.subresource) &&
      scopeMatches(rule['scope'], target),
  );
}

/** A label selector field of the webhook matches the labels (absent or empty matches everything; invalid nothing). */
export function selectorMatches(value: unknown, labels: Readonly<Record<string, string>> | undefined): boolean {
  const selector = readLabelSelector([], SELECTOR_PATH, value);
  if (selector === undefined) return true;
  if (typeof selector === 'symbol') return false;
  return labelSelectorAsSelector(selector)?.matches(labels ?? {}) ?? false;
}

const labelsOf = (obj: ApiObject | undefined): Record<string, string> | undefined =>
  obj?.metadata.labels as Record<string, string> | undefined;

/** objectSelector: the new or the old object matches. */
export function objectSelectorMatches(
  hook: Record<string, unknown>,
  object: ApiObject | undefined,
  oldObject: ApiObject | undefined,
): boolean {
  const value = hook['objectSelector'];
  if (!isPlainObject(value) || Object.keys(value).length === 0) return true;
  return (
    (object !== undefined && selectorMatches(value, labelsOf(object))) ||
    (oldObject !== undefined && selectorMatches(value, labelsOf(oldObject)))
  );
}

/** Whether a webhook has a non-empty namespaceSelector (a namespace lookup is needed). */
export function hasNamespaceSelector(hook: Record<string, unknown>): boolean {
  const value = hook['namespaceSelector'];
  return isPlainObject(value) && Object.keys(value).length > 0;
}

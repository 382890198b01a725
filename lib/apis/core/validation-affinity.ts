// PodSpec affinity (node, pod, pod anti-affinity) and topologySpreadConstraints with pkg/apis/core/validation's 1.26 rules and texts.
import type { FieldError } from '../../apimachinery/field/errors';
import { duplicate, forbiddenField, invalidValue, notSupported, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../apimachinery/validation/names';
import type { JsonObject } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  readInt32,
  readObject,
  readObjectList,
  readString,
  readStringList,
  stringAt,
} from '../../apimachinery/validation/untrusted-json';
import { readLabelSelector, validateLabelSelector } from '../apps/label-selector';

const WEIGHT_RANGE = 'must be in the range 1-100';
const NOT_POSITIVE = 'must be greater than zero';
/** sets.List() order (sorted). */
const SCHEDULE_ACTIONS = ['DoNotSchedule', 'ScheduleAnyway'];
const NODE_INCLUSION_POLICIES = ['Honor', 'Ignore'];

/** ValidateLabelName */
function validateLabelName(errs: FieldError[], key: string, path: FieldPath): void {
  for (const msg of isQualifiedName(key)) errs.push(invalidValue(path, key, msg));
}

/** Reads key, operator and values of a NodeSelectorRequirement; undefined when a member is wrongly typed. */
function readRequirement(
  errs: FieldError[],
  req: JsonObject,
  path: FieldPath,
): { key: string; operator: string; values: string[] } | undefined {
  const key = readString(errs, path.child('key'), req.key);
  const operator = readString(errs, path.child('operator'), req.operator);
  const values = readStringList(errs, path.child('values'), req.values);
  if (key === WRONG_TYPE || operator === WRONG_TYPE || values === WRONG_TYPE) return undefined;
  return { key: key ?? '', operator: operator ?? '', values: values ?? [] };
}

/** ValidateNodeSelectorRequirement (1.26: values are not checked as label values). */
function validateNodeSelectorRequirement(errs: FieldError[], req: JsonObject, path: FieldPath): void {
  const r = readRequirement(errs, req, path);
  if (r === undefined) return;
  if (r.operator === 'In' || r.operator === 'NotIn') {
    if (r.values.length === 0)
      errs.push(required(path.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
  } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
    if (r.values.length > 0)
      errs.push(
        forbiddenField(path.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
      );
  } else if (r.operator === 'Gt' || r.operator === 'Lt') {
    if (r.values.length !== 1)
      errs.push(required(path.child('values'), "must be specified single value when `operator` is 'Lt' or 'Gt'"));
  } else {
    errs.push(invalidValue(path.child('operator'), r.operator, 'not a valid selector operator'));
  }
  validateLabelName(errs, r.key, path.child('key'));
}

/** ValidateNodeFieldSelectorRequirement: only `metadata.name`, with In or NotIn and one node name. */
function validateNodeFieldSelectorRequirement(errs: FieldError[], req: JsonObject, path: FieldPath): void {
  const r = readRequirement(errs, req, path);
  if (r === undefined) return;
  if (r.operator === 'In' || r.operator === 'NotIn') {
    if (r.values.length !== 1)
      errs.push(
        required(
          path.child('values'),
          "must be only one value when `operator` is 'In' or 'NotIn' for node field selector",
        ),
      );
  } else {
    errs.push(invalidValue(path.child('operator'), r.operator, 'not a valid selector operator'));
  }
  if (r.key !== 'metadata.name') errs.push(invalidValue(path.child('key'), r.key, 'not a valid field selector key'));
  else
    r.values.forEach((v, i) =>
      isDNS1123Subdomain(v).forEach((msg) => errs.push(invalidValue(path.child('values').index(i), v, msg))),
    );
}

/** ValidateNodeSelectorTerm */
function validateNodeSelectorTerm(errs: FieldError[], value: unknown, path: FieldPath): void {
  const term = readObject(errs, path, value);
  if (term === undefined || term === WRONG_TYPE) return;
  forEachObject(errs, term.matchExpressions, path.child('matchExpressions'), (req, p) =>
    validateNodeSelectorRequirement(errs, req, p),
  );
  forEachObject(errs, term.matchFields, path.child('matchFields'), (req, p) =>
    validateNodeFieldSelectorRequirement(errs, req, p),
  );
}

/** Calls `check` with each object member of a list (absent, null and wrongly typed members are skipped, type errors reported). */
function forEachObject(
  errs: FieldError[],
  value: unknown,
  path: FieldPath,
  check: (item: JsonObject, p: FieldPath, i: number) => void,
): number {
  const list = readObjectList(errs, path, value);
  if (!Array.isArray(list)) return 0;
  list.forEach((item, i) => {
    if (item !== WRONG_TYPE) check(item ?? {}, path.index(i), i);
  });
  return list.length;
}

function validateWeight(errs: FieldError[], value: unknown, path: FieldPath): void {
  const weight = readInt32(errs, path, value);
  if (weight === WRONG_TYPE) return;
  if ((weight ?? 0) <= 0 || (weight ?? 0) > 100) errs.push(invalidValue(path, weight ?? 0, WEIGHT_RANGE));
}

/** validateNodeAffinity: ValidateNodeSelector for the required terms, ValidatePreferredSchedulingTerms. */
function validateNodeAffinity(errs: FieldError[], na: JsonObject, path: FieldPath): void {
  const requiredPath = path.child('requiredDuringSchedulingIgnoredDuringExecution');
  const selector = readObject(errs, requiredPath, na.requiredDuringSchedulingIgnoredDuringExecution);
  if (selector !== undefined && selector !== WRONG_TYPE) {
    const termsPath = requiredPath.child('nodeSelectorTerms');
    const count = forEachObject(errs, selector.nodeSelectorTerms, termsPath, (term, p) =>
      validateNodeSelectorTerm(errs, term, p),
    );
    if (count === 0 && readObjectList([], termsPath, selector.nodeSelectorTerms) !== WRONG_TYPE) {
      errs.push(required(termsPath, 'must have at least one node selector term'));
    }
  }
  forEachObject(
    errs,
    na.preferredDuringSchedulingIgnoredDuringExecution,
    path.child('preferredDuringSchedulingIgnoredDuringExecution'),
    (term, p) => {
      validateWeight(errs, term.weight, p.child('weight'));
      validateNodeSelectorTerm(errs, term.preference ?? {}, p.child('preference'));
    },
  );
}

/** validatePodAffinityTerm: selectors, namespaces (reported at `namespace`, as upstream), topologyKey. */
function validatePodAffinityTerm(errs: FieldError[], term: JsonObject, path: FieldPath): void {
  for (const key of ['labelSelector', 'namespaceSelector']) {
    const selector = readLabelSelector(errs, path.child(key), term[key]);
    if (selector !== undefined && selector !== WRONG_TYPE)
      errs.push(...validateLabelSelector(selector, path.child(key)));
  }
  const namespaces = readStringList(errs, path.child('namespaces'), term.namespaces);
  if (Array.isArray(namespaces))
    for (const ns of namespaces)
      for (const msg of isDNS1123Label(ns)) errs.push(invalidValue(path.child('namespace'), ns, msg));
  const topologyKey = readString(errs, path.child('topologyKey'), term.topologyKey);
  if (topologyKey === WRONG_TYPE) return;
  if (!topologyKey) errs.push(required(path.child('topologyKey'), 'can not be empty'));
  validateLabelName(errs, topologyKey ?? '', path.child('topologyKey'));
}

/** validatePodAffinity / validatePodAntiAffinity (identical rules). */
function validatePodAffinity(errs: FieldError[], pa: JsonObject, path: FieldPath): void {
  forEachObject(
    errs,
    pa.requiredDuringSchedulingIgnoredDuringExecution,
    path.child('requiredDuringSchedulingIgnoredDuringExecution'),
    (term, p) => validatePodAffinityTerm(errs, term, p),
  );
  forEachObject(
    errs,
    pa.preferredDuringSchedulingIgnoredDuringExecution,
    path.child('preferredDuringSchedulingIgnoredDuringExecution'),
    (term, p) => {
      validateWeight(errs, term.weight, p.child('weight'));
      const inner = readObject(errs, p.child('podAffinityTerm'), term.podAffinityTerm);
      if (inner !== WRONG_TYPE) validatePodAffinityTerm(errs, inner ?? {}, p.child('podAffinityTerm'));
    },
  );
}

/** validateAffinity */
export function validateAffinity(errs: FieldError[], value: unknown, path: FieldPath): void {
  const affinity = readObject(errs, path, value);
  if (affinity === undefined || affinity === WRONG_TYPE) return;
  const node = readObject(errs, path.child('nodeAffinity'), affinity.nodeAffinity);
  if (node !== undefined && node !== WRONG_TYPE) validateNodeAffinity(errs, node, path.child('nodeAffinity'));
  for (const key of ['podAffinity', 'podAntiAffinity']) {
    const pa = readObject(errs, path.child(key), affinity[key]);
    if (pa !== undefined && pa !== WRONG_TYPE) validatePodAffinity(errs, pa, path.child(key));
  }
}

/** The selector's keys (matchLabels and matchExpressions), for the matchLabelKeys rule. */
function selectorKeys(errs: FieldError[], value: unknown, path: FieldPath): Set<string> {
  const selector = readLabelSelector(errs, path, value);
  if (selector === undefined || selector === WRONG_TYPE) return new Set();
  return new Set([...Object.keys(selector.matchLabels ?? {}), ...(selector.matchExpressions ?? []).map((r) => r.key)]);
}

/** One TopologySpreadConstraint's maxSkew, topologyKey and whenUnsatisfiable. */
function validateConstraintBasics(errs: FieldError[], c: JsonObject, path: FieldPath): void {
  const maxSkew = readInt32(errs, path.child('maxSkew'), c.maxSkew);
  if (maxSkew !== WRONG_TYPE && (maxSkew ?? 0) <= 0)
    errs.push(invalidValue(path.child('maxSkew'), maxSkew ?? 0, NOT_POSITIVE));
  const topologyKey = readString(errs, path.child('topologyKey'), c.topologyKey);
  if (topologyKey !== WRONG_TYPE && !topologyKey) errs.push(required(path.child('topologyKey'), 'can not be empty'));
  const action = readString(errs, path.child('whenUnsatisfiable'), c.whenUnsatisfiable);
  if (action !== WRONG_TYPE && !SCHEDULE_ACTIONS.includes(action ?? ''))
    errs.push(notSupported(path.child('whenUnsatisfiable'), action ?? '', SCHEDULE_ACTIONS));
}

/** The rules after the duplicate check: minDomains, node inclusion policies, matchLabelKeys. */
function validateConstraintOptions(errs: FieldError[], c: JsonObject, action: string, path: FieldPath): void {
  const minDomains = readInt32(errs, path.child('minDomains'), c.minDomains);
  if (typeof minDomains === 'number') {
    if (minDomains <= 0) errs.push(invalidValue(path.child('minDomains'), minDomains, NOT_POSITIVE));
    if (action !== 'DoNotSchedule')
      errs.push(
        invalidValue(
          path.child('minDomains'),
          minDomains,
          `can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ${action}`,
        ),
      );
  }
  for (const key of ['nodeAffinityPolicy', 'nodeTaintsPolicy']) {
    const policy = readString(errs, path.child(key), c[key]);
    if (typeof policy === 'string' && !NODE_INCLUSION_POLICIES.includes(policy))
      errs.push(notSupported(path.child(key), policy, NODE_INCLUSION_POLICIES));
  }
  const keys = selectorKeys(errs, c.labelSelector, path.child('labelSelector'));
  const matchLabelKeys = readStringList(errs, path.child('matchLabelKeys'), c.matchLabelKeys);
  if (!Array.isArray(matchLabelKeys)) return;
  matchLabelKeys.forEach((key, i) => {
    validateLabelName(errs, key, path.child('matchLabelKeys').index(i));
    if (keys.has(key))
      errs.push(
        invalidValue(path.child('matchLabelKeys').index(i), key, 'exists in both matchLabelKeys and labelSelector'),
      );
  });
}

/**
 * validateTopologySpreadConstraints (1.26). minDomains and matchLabelKeys are checked as with their
 * feature gates on; the label selector itself is only type-checked, as in 1.26.
 */
export function validateTopologySpreadConstraints(errs: FieldError[], value: unknown, path: FieldPath): void {
  const list = readObjectList(errs, path, value);
  if (!Array.isArray(list)) return;
  const pairs = list.map((c) =>
    c === WRONG_TYPE ? undefined : { key: stringAt(c, 'topologyKey'), action: stringAt(c, 'whenUnsatisfiable') },
  );
  list.forEach((c, i) => {
    const pair = pairs[i];
    if (c === WRONG_TYPE || pair === undefined) return;
    const p = path.index(i);
    validateConstraintBasics(errs, c ?? {}, p);
    // A constraint is one {topologyKey, whenUnsatisfiable} pair; each one repeated later on is reported.
    if (pairs.slice(i + 1).some((o) => o?.key === pair.key && o.action === pair.action)) {
      errs.push(duplicate(p.child('{topologyKey, whenUnsatisfiable}'), `{${pair.key}, ${pair.action}}`));
    }
    validateConstraintOptions(errs, c ?? {}, pair.action, p);
  });
}

// metav1.LabelSelector in workload specs: reading, ValidateLabelSelector, LabelSelectorAsSelector, matching and text.
import type { FieldError, PrintableValue } from '../../apimachinery/field/errors';
import { forbiddenField, goLiteral, goQuote, invalidValue, required } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { compareGoStrings } from '../../apimachinery/labels/parser';
import { validateLabels } from '../../apimachinery/validation/object-meta';
import { isQualifiedName, isValidLabelValue } from '../../apimachinery/validation/names';
import type { Read } from '../../apimachinery/validation/untrusted-json';
import {
  WRONG_TYPE,
  goStringSliceText,
  readObject,
  readObjectList,
  readString,
  readStringList,
  readStringMap,
} from '../../apimachinery/validation/untrusted-json';
import { goStringMapText } from '../core/go-values';

export interface LabelSelectorRequirement {
  key: string;
  operator: string;
  /** undefined is Go's nil slice */
  values: string[] | undefined;
}

/** A decoded metav1.LabelSelector; `undefined` members are Go's nil map / nil slice. */
export interface LabelSelector {
  matchLabels: Record<string, string> | undefined;
  matchExpressions: LabelSelectorRequirement[] | undefined;
}

/** Decodes a selector field; type errors are reported and the whole selector is then WRONG_TYPE. */
export function readLabelSelector(errs: FieldError[], path: FieldPath, value: unknown): Read<LabelSelector> {
  const obj = readObject(errs, path, value);
  if (obj === undefined || obj === WRONG_TYPE) return obj;
  const matchLabels = readStringMap(errs, path.child('matchLabels'), obj.matchLabels);
  const expressionsPath = path.child('matchExpressions');
  const members = readObjectList(errs, expressionsPath, obj.matchExpressions);
  let bad = matchLabels === WRONG_TYPE || members === WRONG_TYPE;
  let matchExpressions: LabelSelectorRequirement[] | undefined;
  if (Array.isArray(members)) {
    matchExpressions = [];
    members.forEach((member, i) => {
      if (member === WRONG_TYPE) return void (bad = true);
      const p = expressionsPath.index(i);
      const key = readString(errs, p.child('key'), member?.key);
      const operator = readString(errs, p.child('operator'), member?.operator);
      const values = readStringList(errs, p.child('values'), member?.values);
      if (key === WRONG_TYPE || operator === WRONG_TYPE || values === WRONG_TYPE) return void (bad = true);
      matchExpressions?.push({ key: key ?? '', operator: operator ?? '', values });
    });
  }
  if (bad || matchLabels === WRONG_TYPE) return WRONG_TYPE;
  return { matchLabels, matchExpressions };
}

function isEmptySelector(s: LabelSelector): boolean {
  return Object.keys(s.matchLabels ?? {}).length + (s.matchExpressions ?? []).length === 0;
}

/** Go's `%#v` of a metav1.LabelSelector (its String() has a pointer receiver, so the struct is dumped). */
export function labelSelectorLiteral(s: LabelSelector): PrintableValue {
  const expressions =
    s.matchExpressions === undefined
      ? '[]v1.LabelSelectorRequirement(nil)'
      : `[]v1.LabelSelectorRequirement{${s.matchExpressions
          .map(
            (r) =>
              `v1.LabelSelectorRequirement{Key:${goQuote(r.key)}, Operator:${goQuote(r.operator)}, Values:${goStringSliceText(r.values)}}`,
          )
          .join(', ')}}`;
  return goLiteral(`v1.LabelSelector{MatchLabels:${goStringMapText(s.matchLabels)}, MatchExpressions:${expressions}}`);
}

/**
 * ValidateLabelSelector (1.26: values are checked only by LabelSelectorAsSelector) plus, when `emptyDetail`
 * is given, the non-empty rule of workloads.
 */
export function validateLabelSelector(s: LabelSelector, path: FieldPath, emptyDetail?: string): FieldError[] {
  const errs: FieldError[] = validateLabels(s.matchLabels, path.child('matchLabels'));
  (s.matchExpressions ?? []).forEach((r, i) => {
    const p = path.child('matchExpressions').index(i);
    const valueCount = (r.values ?? []).length;
    if (r.operator === 'In' || r.operator === 'NotIn') {
      if (valueCount === 0)
        errs.push(required(p.child('values'), "must be specified when `operator` is 'In' or 'NotIn'"));
    } else if (r.operator === 'Exists' || r.operator === 'DoesNotExist') {
      if (valueCount > 0)
        errs.push(
          forbiddenField(p.child('values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"),
        );
    } else {
      errs.push(invalidValue(p.child('operator'), r.operator, 'not a valid selector operator'));
    }
    for (const msg of isQualifiedName(r.key)) errs.push(invalidValue(p.child('key'), r.key, msg));
  });
  if (emptyDetail !== undefined && isEmptySelector(s))
    errs.push(invalidValue(path, labelSelectorLiteral(s), emptyDetail));
  return errs;
}

type SelectionOperator = '=' | 'in' | 'notin' | 'exists' | '!';

interface Requirement {
  key: string;
  operator: SelectionOperator;
  /** sorted, without duplicates */
  values: string[];
}

/** labels.Selector: what a converted LabelSelector can do. */
export interface Selector {
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** labels.Everything(): no requirements. labels.Nothing() is not empty but matches nothing. */
  isEmpty(): boolean;
  /** requirements sorted by key: `k=v`, `k in (a,b)`, `k notin (a,b)`, `k`, `!k` */
  toString(): string;
}

const NOTHING: Selector = { matches: () => false, isEmpty: () => false, toString: () => '' };

const OPERATORS = new Map<string, SelectionOperator>([
  ['In', 'in'],
  ['NotIn', 'notin'],
  ['Exists', 'exists'],
  ['DoesNotExist', '!'],
]);

function matchesRequirement(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = labels[r.key];
  switch (r.operator) {
    case '=':
    case 'in':
      return has && value !== undefined && r.values.includes(value);
    case 'notin':
      return !has || value === undefined || !r.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
  }
}

function requirementText(r: Requirement): string {
  switch (r.operator) {
    case 'exists':
      return r.key;
    case '!':
      return `!${r.key}`;
    case '=':
      return `${r.key}=${r.values.join(',')}`;
    case 'in':
    case 'notin':
      return `${r.key} ${r.operator} (${r.values.join(',')})`;
  }
}

/** labels.NewRequirement's checks: key syntax, value count for the operator, value syntax. */
function newRequirement(key: string, operator: SelectionOperator, values: readonly string[]): Requirement | undefined {
  if (isQualifiedName(key).length > 0) return undefined;
  const countOk =
    operator === '='
      ? values.length === 1
      : operator === 'in' || operator === 'notin'
        ? values.length > 0
        : values.length === 0;
  if (!countOk || values.some((v) => isValidLabelValue(v).length > 0)) return undefined;
  return { key, operator, values: [...new Set(values)].sort(compareGoStrings) };
}

/**
 * metav1.LabelSelectorAsSelector: undefined (nil) selects nothing, an empty selector everything.
 * Returns undefined when a requirement cannot be built (workload validation then reports
 * `invalid label selector`, the printer `<invalid>`).
 */
export function labelSelectorAsSelector(s: LabelSelector | undefined): Selector | undefined {
  if (s === undefined) return NOTHING;
  const requirements: Requirement[] = [];
  for (const [key, value] of Object.entries(s.matchLabels ?? {})) {
    const r = newRequirement(key, '=', [value]);
    if (r === undefined) return undefined;
    requirements.push(r);
  }
  for (const expr of s.matchExpressions ?? []) {
    const operator = OPERATORS.get(expr.operator);
    const r = operator === undefined ? undefined : newRequirement(expr.key, operator, expr.values ?? []);
    if (r === undefined) return undefined;
    requirements.push(r);
  }
  requirements.sort((a, b) => compareGoStrings(a.key, b.key));
  return {
    matches: (labels) => requirements.every((r) => matchesRequirement(r, labels ?? {})),
    isEmpty: () => requirements.length === 0,
    toString: () => requirements.map(requirementText).join(','),
  };
}

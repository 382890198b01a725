// Label selectors (`labelSelector` query): parseLabelSelector, matching and canonical text as Kubernetes 1.26.
import { badRequest } from '../errors';
import { LabelSelectorSyntaxError, parseGoInt64, parseRequirements, type Requirement } from './parser';

export type { Operator, Requirement } from './parser';

export interface LabelSelector {
  /** true when the object's labels satisfy every requirement */
  matches(labels: Readonly<Record<string, string>> | undefined): boolean;
  /** true when there are no requirements (matches everything) */
  isEmpty(): boolean;
  /** canonical text, requirements sorted by key, like Kubernetes' String() */
  toString(): string;
}

function requirementMatches(r: Requirement, labels: Readonly<Record<string, string>>): boolean {
  const has = Object.hasOwn(labels, r.key);
  const value = has ? labels[r.key] : undefined;
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return value !== undefined && r.values.includes(value);
    case 'notin':
    case '!=':
      return value === undefined || !r.values.includes(value);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (value === undefined || r.values.length !== 1) return false;
      const actual = parseGoInt64(value);
      const bound = parseGoInt64(r.values[0] ?? '');
      if (actual === undefined || bound === undefined) return false;
      return r.operator === 'gt' ? actual > bound : actual < bound;
    }
  }
}

const OPERATOR_TEXT: Record<Exclude<Requirement['operator'], 'exists' | '!'>, string> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
};

function requirementText(r: Requirement): string {
  if (r.operator === 'exists') return r.key;
  if (r.operator === '!') return `!${r.key}`;
  // Values are already sorted (the parser sorts them, as Kubernetes' String() would).
  const values = r.values.join(',');
  const set = r.operator === 'in' || r.operator === 'notin';
  return `${r.key}${OPERATOR_TEXT[r.operator]}${set ? `(${values})` : values}`;
}

class RequirementsSelector implements LabelSelector {
  constructor(readonly requirements: readonly Requirement[]) {}

  matches(labels: Readonly<Record<string, string>> | undefined): boolean {
    const set = labels ?? {};
    return this.requirements.every((r) => requirementMatches(r, set));
  }

  isEmpty(): boolean {
    return this.requirements.length === 0;
  }

  toString(): string {
    return this.requirements.map(requirementText).join(',');
  }
}

/** Parses Kubernetes label selector syntax; '' matches everything. Throws a 400 StatusError with the upstream text. */
export function parseLabelSelector(text: string): LabelSelector {
  try {
    return new RequirementsSelector(parseRequirements(text));
  } catch (err) {
    if (err instanceof LabelSelectorSyntaxError) throw badRequest(err.message);
    throw err;
  }
}

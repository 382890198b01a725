// Label selector parser: text → sorted requirements, with k8s.io/apimachinery 1.26's error texts.
import { aggregateFieldErrors, fieldErrorText, invalidValue, type FieldError } from '../field/errors';
import { rootPath } from '../field/path';
import { isQualifiedName, isValidLabelValue } from '../validation/names';
import { scan, type ScannedItem, type Token } from './lexer';

/** Kubernetes' selection.Operator values. */
export type Operator = 'exists' | '!' | '=' | '==' | '!=' | 'in' | 'notin' | 'gt' | 'lt';

export interface Requirement {
  readonly key: string;
  readonly operator: Operator;
  /** Sorted, without duplicates; empty for `exists` and `!`. */
  readonly values: readonly string[];
}

/** A parse failure; `message` is the exact Kubernetes text. */
export class LabelSelectorSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LabelSelectorSyntaxError';
  }
}

/** Go's string order (UTF-8 bytes, i.e. code points), which differs from UTF-16 order above U+D7FF. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

function utf8Rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000; // astral code points sort last
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** Go's strconv.ParseInt(s, 10, 64): optional sign, decimal digits, int64 range. */
export function parseGoInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v < -(2n ** 63n) || v > 2n ** 63n - 1n ? undefined : v;
}

/** In the values context the keywords `in`/`notin` are plain identifiers (`a in (in)`). */
type Context = 'keyAndOperator' | 'values';

const BINARY_OPERATORS = 'in, notin, =, ==, !=, gt, lt';

const OPERATOR_BY_TOKEN: Partial<Record<Token, Operator>> = {
  in: 'in',
  notin: 'notin',
  '=': '=',
  '==': '==',
  '!=': '!=',
  '>': 'gt',
  '<': 'lt',
};

const fail = (message: string): LabelSelectorSyntaxError => new LabelSelectorSyntaxError(message);

class Parser {
  private position = 0;

  constructor(private readonly items: readonly ScannedItem[]) {}

  private item(index: number): ScannedItem {
    return this.items[Math.min(index, this.items.length - 1)] ?? { token: 'end', literal: '' };
  }

  private inContext(item: ScannedItem, context: Context): ScannedItem {
    if (context === 'values' && (item.token === 'in' || item.token === 'notin'))
      return { token: 'identifier', literal: item.literal };
    return item;
  }

  private lookahead(context: Context): ScannedItem {
    return this.inContext(this.item(this.position), context);
  }

  private consume(context: Context): ScannedItem {
    return this.inContext(this.item(this.position++), context);
  }

  parse(): Requirement[] {
    const requirements: Requirement[] = [];
    for (;;) {
      const { token, literal } = this.lookahead('values');
      if (token === 'end') return requirements;
      if (token !== 'identifier' && token !== '!')
        throw fail(`found '${literal}', expected: !, identifier, or 'end of string'`);
      try {
        requirements.push(this.parseRequirement());
      } catch (err) {
        if (err instanceof LabelSelectorSyntaxError) throw fail(`unable to parse requirement: ${err.message}`);
        throw err;
      }
      const after = this.consume('values');
      if (after.token === 'end') return requirements;
      if (after.token !== ',') throw fail(`found '${after.literal}', expected: ',' or 'end of string'`);
      const next = this.lookahead('values');
      if (next.token !== 'identifier' && next.token !== '!')
        throw fail(`found '${next.literal}', expected: identifier after ','`);
    }
  }

  private parseRequirement(): Requirement {
    const [key, inferred] = this.parseKeyAndInferOperator();
    if (inferred !== undefined) return newRequirement(key, inferred, []);
    const operator = this.parseOperator();
    const values = operator === 'in' || operator === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, operator, [...values].sort(compareGoStrings));
  }

  /** The key, with `!` (DoesNotExist) or `exists` when no binary operator follows. */
  private parseKeyAndInferOperator(): [string, Operator | undefined] {
    let operator: Operator | undefined;
    let item = this.consume('values');
    if (item.token === '!') {
      operator = '!';
      item = this.consume('values');
    }
    if (item.token !== 'identifier') throw fail(`found '${item.literal}', expected: identifier`);
    const keyErrors = isQualifiedName(item.literal);
    // Upstream validates the key here with a nil field path, which prints as `<nil>`.
    if (keyErrors.length > 0)
      throw fail(fieldErrorText(invalidValue(rootPath('<nil>'), item.literal, keyErrors.join('; '))));
    const next = this.lookahead('values').token;
    if ((next === 'end' || next === ',') && operator === undefined) operator = 'exists';
    return [item.literal, operator];
  }

  private parseOperator(): Operator {
    const { token, literal } = this.consume('keyAndOperator');
    const operator = OPERATOR_BY_TOKEN[token];
    if (operator === undefined) throw fail(`found '${literal}', expected: ${BINARY_OPERATORS}`);
    return operator;
  }

  /** `( v1, v2, … )`; `()` is the set {""}. */
  private parseValues(): Set<string> {
    const open = this.consume('values');
    if (open.token !== '(') throw fail(`found '${open.literal}' expected: '('`);
    const { token, literal } = this.lookahead('values');
    if (token === ')') {
      this.consume('values');
      return new Set(['']);
    }
    if (token !== 'identifier' && token !== ',') throw fail(`found '${literal}', expected: ',', ')' or identifier`);
    const values = this.parseIdentifiersList();
    // Unreachable in practice (the list only ends before ')'); the literal is the list's first token, as upstream.
    if (this.consume('values').token !== ')') throw fail(`found '${literal}', expected: ')'`);
    return values;
  }

  /** Comma-separated, possibly empty identifiers, up to (not including) ')'. */
  private parseIdentifiersList(): Set<string> {
    const values = new Set<string>();
    for (;;) {
      const { token, literal } = this.consume('values');
      if (token === 'identifier') {
        values.add(literal);
        const next = this.lookahead('values');
        if (next.token === ',') continue;
        if (next.token === ')') return values;
        throw fail(`found '${next.literal}', expected: ',' or ')'`);
      }
      if (token !== ',') throw fail(`found '${literal}', expected: ',', or identifier`);
      if (values.size === 0) values.add(''); // "(,"
      const next = this.lookahead('values').token;
      if (next === ')') {
        values.add(''); // ",)"
        return values;
      }
      if (next === ',') {
        this.consume('values');
        values.add(''); // ",,"
      }
    }
  }

  private parseExactValue(): Set<string> {
    const next = this.lookahead('values').token;
    if (next === 'end' || next === ',') return new Set(['']);
    const { token, literal } = this.consume('values');
    if (token !== 'identifier') throw fail(`found '${literal}', expected: identifier`);
    return new Set([literal]);
  }
}

/**
 * NewRequirement's checks that the parser can reach: key syntax, integer values for gt/lt, label-value
 * syntax. (The value-count checks cannot fail for parsed input.)
 */
function newRequirement(key: string, operator: Operator, values: string[]): Requirement {
  const errors: FieldError[] = [];
  const keyErrors = isQualifiedName(key);
  if (keyErrors.length > 0) errors.push(invalidValue(rootPath('key'), key, keyErrors.join('; ')));
  const valuesPath = rootPath('values');
  if (operator === 'gt' || operator === 'lt') {
    values.forEach((v, i) => {
      if (parseGoInt64(v) === undefined)
        errors.push(invalidValue(valuesPath.index(i), v, "for 'Gt', 'Lt' operators, the value must be an integer"));
    });
  }
  values.forEach((v, i) => {
    const valueErrors = isValidLabelValue(v);
    if (valueErrors.length > 0) errors.push(invalidValue(valuesPath.index(i).key(key), v, valueErrors.join('; ')));
  });
  if (errors.length > 0) throw fail(aggregateFieldErrors(errors));
  return { key, operator, values };
}

/** Requirements of `text`, stably sorted by key; throws LabelSelectorSyntaxError. */
export function parseRequirements(text: string): Requirement[] {
  const requirements = new Parser(scan(text)).parse();
  return requirements.sort((a, b) => compareGoStrings(a.key, b.key));
}

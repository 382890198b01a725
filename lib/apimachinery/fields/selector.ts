// Field selectors (`fieldSelector` query): parseFieldSelector, matching, escaping and texts as Kubernetes 1.26.
import { badRequest } from '../errors';
import { goQuote } from '../field/errors';
import { compareGoStrings } from '../labels/parser';

export interface FieldSelector {
  matches(fields: Readonly<Record<string, string>>): boolean;
  isEmpty(): boolean;
  /** if the selector pins `field` with = or ==, that value (used to turn metadata.name=x into a single-key read) */
  requiresExactMatch(field: string): string | undefined;
  toString(): string;
}

export const DEFAULT_SELECTABLE_FIELDS: readonly string[] = ['metadata.name', 'metadata.namespace'];

interface Term {
  readonly field: string;
  readonly value: string;
  /** `!=` (else `=`/`==`, which are the same) */
  readonly negated: boolean;
}

/** Escapes `\`, `,` and `=` in a value (Kubernetes' fields.EscapeValue). */
export function escapeFieldValue(value: string): string {
  return value.replace(/[\\,=]/g, (ch) => `\\${ch}`);
}

/** Undoes escapeFieldValue; an unknown escape or a bare `,`/`=` is a 400 with the upstream text. */
export function unescapeFieldValue(value: string): string {
  if (!/[\\,=]/.test(value)) return value;
  let out = '';
  let inSlash = false;
  for (const ch of value) {
    if (inSlash) {
      if (ch !== '\\' && ch !== ',' && ch !== '=')
        throw badRequest(`invalid field selector: invalid escape sequence: \\${ch}`);
      out += ch;
      inSlash = false;
    } else if (ch === '\\') {
      inSlash = true;
    } else if (ch === ',' || ch === '=') {
      // Go prints the rune with %v, i.e. its code point number.
      throw badRequest(`invalid field selector: unescaped character in value: ${ch.codePointAt(0) ?? 0}`);
    } else {
      out += ch;
    }
  }
  if (inSlash) throw badRequest('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Splits on commas not preceded by an escaping backslash. */
function splitTerms(text: string): string[] {
  if (text === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inSlash) inSlash = false;
    else if (ch === '\\') inSlash = true;
    else if (ch === ',') {
      terms.push(text.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(text.slice(start));
  return terms;
}

const TERM_OPERATORS = ['!=', '==', '='] as const;

/** Splits at the first operator occurrence (escapes are not considered here, as upstream). */
function splitTerm(term: string): [string, (typeof TERM_OPERATORS)[number], string] | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of TERM_OPERATORS) {
      if (term.startsWith(op, i)) return [term.slice(0, i), op, term.slice(i + op.length)];
    }
  }
  return undefined;
}

/** Kubernetes' error for a field the kind cannot select on. */
function unknownFieldMessage(field: string, supported: readonly string[]): string {
  const isDefault =
    supported.length === DEFAULT_SELECTABLE_FIELDS.length &&
    DEFAULT_SELECTABLE_FIELDS.every((f) => supported.includes(f));
  // The generic conversion lists its two fields; kinds with their own field list (e.g. Namespace) say this instead.
  if (!isDefault) return `field label not supported: ${field}`;
  return `${goQuote(field)} is not a known field selector: only ${DEFAULT_SELECTABLE_FIELDS.map(goQuote).join(', ')}`;
}

class TermsSelector implements FieldSelector {
  constructor(private readonly terms: readonly Term[]) {}

  matches(fields: Readonly<Record<string, string>>): boolean {
    return this.terms.every((t) => {
      const actual = Object.hasOwn(fields, t.field) ? (fields[t.field] ?? '') : '';
      return t.negated ? actual !== t.value : actual === t.value;
    });
  }

  isEmpty(): boolean {
    return this.terms.length === 0;
  }

  requiresExactMatch(field: string): string | undefined {
    return this.terms.find((t) => !t.negated && t.field === field)?.value;
  }

  toString(): string {
    return this.terms.map((t) => `${t.field}${t.negated ? '!=' : '='}${escapeFieldValue(t.value)}`).join(',');
  }
}

/**
 * Parses `field=value,field!=value,…` (terms sorted by text, as upstream). `supportedFields` defaults to
 * metadata.name and metadata.namespace; an unknown field is a 400. Throws StatusError (400) with upstream texts.
 */
export function parseFieldSelector(
  text: string,
  supportedFields: readonly string[] = DEFAULT_SELECTABLE_FIELDS,
): FieldSelector {
  const terms: Term[] = [];
  for (const part of splitTerms(text).sort(compareGoStrings)) {
    if (part === '') continue;
    const split = splitTerm(part);
    if (split === undefined) throw badRequest(`invalid selector: '${text}'; can't understand '${part}'`);
    const [field, op, rawValue] = split;
    const value = unescapeFieldValue(rawValue);
    // Deliberate difference: apimachinery turns a term with neither field nor value (`=`, `==`, `!=`) into
    // "everything", so `DELETE …?fieldSelector==` would delete the whole collection; here it is an unknown
    // (empty) field like any other, refused with 400 before anything is read or deleted.
    terms.push({ field, value, negated: op === '!=' });
  }
  for (const term of terms) {
    if (!supportedFields.includes(term.field)) throw badRequest(unknownFieldMessage(term.field, supportedFields));
  }
  return new TermsSelector(terms);
}

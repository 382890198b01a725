// The fast paths of field tracking give what the plain algorithms give: compare reading goShaped on the fly and walking
// one-sided subtrees alone, a create's managedFields, and set operations that share unchanged children.
import type { ApiObject } from '../meta/types';
import type { SchemaNode } from '../schema/node';
import { compare, type CompareOptions } from './compare';
import { corpus, Random, SCOPES, vary, withOddMetadata } from './fast-path.fixture';
import { updateManagedFields, type FieldManagerScope } from './field-manager';
import { FieldSet } from './field-set';
import { goShaped } from './normalize';
import { STRIPPED_FIELDS } from './reset-fields';
import { toFieldSet } from './to-field-set';

interface Pair {
  name: string;
  scope: FieldManagerScope;
  lhs: unknown;
  rhs: unknown;
}

const VARIATIONS = 500;

/** Each object against itself and against nothing, then random pairs (a variation and a variation of it). */
function pairs(): Pair[] {
  const bases = corpus();
  const random = new Random(20261122);
  const out: Pair[] = [];
  const add = (name: string, base: ApiObject, lhs: unknown, rhs: unknown): void => {
    for (const scope of SCOPES[base.kind ?? ''] ?? [])
      out.push({ name: `${name} (${scope.kind}${scope.subresource ? `/${scope.subresource}` : ''})`, scope, lhs, rhs });
  };
  bases.forEach((base, i) => {
    add(`corpus ${i} unchanged`, base, base, structuredClone(base));
    add(`corpus ${i} from nothing`, base, emptyObject(base), base);
    add(`corpus ${i} to nothing`, base, base, emptyObject(base));
  });
  for (let i = 0; i < VARIATIONS; i++) {
    const base = random.pick(bases);
    const varied = withMetadata(vary(base, random));
    const lhs = random.next() < 0.3 ? withOddMetadata(varied, random) : varied;
    const rhs =
      random.next() < 0.3 ? withOddMetadata(withMetadata(vary(lhs, random)), random) : withMetadata(vary(lhs, random));
    add(`variation ${i}`, base, lhs, rhs);
    add(`variation ${i} created`, base, emptyObject(base), rhs);
  }
  return out;
}

/** Decoded bodies always have metadata (the decoder makes it an object). */
function withMetadata(v: unknown): ApiObject {
  const obj = v as ApiObject;
  const meta: unknown = obj.metadata;
  return meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? obj : { ...obj, metadata: {} };
}

const emptyObject = (base: ApiObject): ApiObject => ({ apiVersion: base.apiVersion, kind: base.kind, metadata: {} });

/** What a run gives, as text: the three sets' FieldsV1, or the error. */
function outcome(run: () => Record<string, FieldSet>): string {
  try {
    return JSON.stringify(Object.fromEntries(Object.entries(run()).map(([k, set]) => [k, set.toFields()])));
  } catch (err) {
    return `throws ${err instanceof Error ? `${err.constructor.name}: ${err.message}` : String(err)}`;
  }
}

/** Names of the pairs where `fast` and `plain` disagree (first few), with how many outcomes were errors. */
function disagreements(
  cases: Pair[],
  fast: (p: Pair) => string,
  plain: (p: Pair) => string,
): { mismatches: string[]; errors: number } {
  const mismatches: string[] = [];
  let errors = 0;
  for (const p of cases) {
    const expected = plain(p);
    if (expected.startsWith('throws')) errors++;
    if (fast(p) !== expected) mismatches.push(p.name);
  }
  return { mismatches: mismatches.slice(0, 5), errors };
}

const compared = (p: Pair, lhs: unknown, rhs: unknown, options: CompareOptions): string =>
  outcome(() => ({ ...compare(lhs, rhs, p.scope.schema, options) }));
const shaped = (v: unknown, schema: SchemaNode | undefined): unknown => goShaped(v, schema);

describe('compare fast paths', () => {
  const cases = pairs();

  it('covers every kind, creates, removals and errors', () => {
    expect(cases.length).toBeGreaterThan(1000);
    expect(new Set(cases.map((p) => p.scope.kind)).size).toBe(Object.keys(SCOPES).length);
  });

  it('reading goShaped on the fly, with or without one-sided walks, equals the two-sided walk of goShaped copies', () => {
    const plain = (p: Pair): string =>
      compared(p, shaped(p.lhs, p.scope.schema), shaped(p.rhs, p.scope.schema), { oneSided: false });
    const fast = disagreements(cases, (p) => compared(p, p.lhs, p.rhs, { goShape: true }), plain);
    const twoSided = disagreements(cases, (p) => compared(p, p.lhs, p.rhs, { goShape: true, oneSided: false }), plain);
    expect(fast.mismatches).toEqual([]);
    expect(twoSided.mismatches).toEqual([]);
    expect(fast.errors).toBeGreaterThan(0); // malformed list items are part of the corpus
  });

  it('on values compared as they are (apply: shaped live, merged configuration), one-sided walks change nothing', () => {
    const run =
      (oneSided: boolean) =>
      (p: Pair): string =>
        compared(p, shaped(p.lhs, p.scope.schema), p.rhs, { oneSided });
    expect(disagreements(cases, run(true), run(false)).mismatches).toEqual([]);
  });
});

describe('a create', () => {
  const created = pairs().filter((p) => p.name.endsWith('from nothing') || p.name.includes('created'));

  /** The general path: compare(emptyObject, next) as the Go round trip shows them, what changed less reset and stripped fields. */
  function generalFields(p: Pair): unknown {
    try {
      const c = compare(shaped(p.lhs, p.scope.schema), shaped(p.rhs, p.scope.schema), p.scope.schema, {
        oneSided: false,
      });
      const set = c.modified.union(c.added).recursiveDifference(p.scope.ignored).difference(STRIPPED_FIELDS);
      return set.isEmpty() ? undefined : set.toFields();
    } catch {
      return undefined; // any failure leaves the object untracked
    }
  }

  it('records exactly the general path’s fields, for every object and variation', () => {
    const mismatches = created.filter((p) => {
      const obj = structuredClone(p.rhs) as ApiObject;
      delete obj.metadata.managedFields; // nobody owns anything yet
      updateManagedFields(undefined, obj, 'creator', p.scope);
      const entries = obj.metadata.managedFields as Array<{ fieldsV1?: unknown }> | undefined;
      return JSON.stringify(entries?.[0]?.fieldsV1) !== JSON.stringify(generalFields(p));
    });
    expect(created.length).toBeGreaterThan(500);
    expect(mismatches.map((p) => p.name).slice(0, 5)).toEqual([]);
  });
});

describe('set operations sharing unchanged children', () => {
  const random = new Random(7);
  const sets = corpus().flatMap((o) => {
    const schema = SCOPES[o.kind ?? '']?.[0]?.schema;
    return [0, 1, 2].flatMap(() => {
      try {
        return [toFieldSet(vary(o, random), schema)];
      } catch {
        return [];
      }
    });
  });
  const pathsOf = (set: FieldSet): string[] =>
    set.paths().map((path) => path.map((pe) => pe.serialized).join('\u0000'));
  const prefixes = (path: string): string[] =>
    path.split('\u0000').map((_, i, all) => all.slice(0, i + 1).join('\u0000'));
  const sorted = (paths: Iterable<string>): string[] => [...paths].sort();

  it.each([
    ['union', (a: FieldSet, b: FieldSet) => a.union(b), (a: Set<string>, b: Set<string>) => [...a, ...b]],
    [
      'intersection',
      (a: FieldSet, b: FieldSet) => a.intersection(b),
      (a: Set<string>, b: Set<string>) => [...a].filter((p) => b.has(p)),
    ],
    [
      'difference',
      (a: FieldSet, b: FieldSet) => a.difference(b),
      (a: Set<string>, b: Set<string>) => [...a].filter((p) => !b.has(p)),
    ],
    [
      'recursiveDifference',
      (a: FieldSet, b: FieldSet) => a.recursiveDifference(b),
      (a: Set<string>, b: Set<string>) => [...a].filter((p) => !prefixes(p).some((q) => b.has(q))),
    ],
  ])(
    '%s holds the member paths of the path-set operation, leaves its inputs as they were and encodes like a set built afresh',
    (_name, op, reference) => {
      expect(sets.length).toBeGreaterThan(50);
      for (let i = 0; i < 300; i++) {
        const a = random.pick(sets);
        const b = random.next() < 0.2 ? a : random.pick(sets);
        const before = [JSON.stringify(a.toFields()), JSON.stringify(b.toFields())];
        const result = op(a, b);
        const expected = sorted(new Set(reference(new Set(pathsOf(a)), new Set(pathsOf(b)))));
        expect(sorted(pathsOf(result))).toEqual(expected);
        expect([JSON.stringify(a.toFields()), JSON.stringify(b.toFields())]).toEqual(before);
        expect(JSON.stringify(result.toFields())).toBe(JSON.stringify(FieldSet.of(...result.paths()).toFields()));
      }
    },
  );
});

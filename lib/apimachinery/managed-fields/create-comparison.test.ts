// A create's comparison kept by shape is compare()'s own result for every object that reads the same: objects that
// differ only in values the walk does not read share it; anything else is compared afresh.
import type { ApiObject } from '../meta/types';
import { compare, type Comparison } from './compare';
import { trackedComparison } from './create-comparison';
import { corpus, Random, SCOPES, vary, withOddMetadata } from './fast-path.fixture';

const VARIATIONS = 400;

const emptyOf = (apiVersion: string, kind: string): ApiObject => ({ apiVersion, kind, metadata: {} });

const paths = (c: Comparison): string =>
  JSON.stringify({ added: c.added.paths(), removed: c.removed.paths(), modified: c.modified.paths() });

const isPlain = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * An object the walk reads as it reads `value`: the same keys in the same order, lists unchanged, top-level values
 * unchanged, every other string and number different.
 */
function sibling(value: unknown, top = true): unknown {
  if (Array.isArray(value)) return structuredClone(value);
  if (isPlain(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value))
      setOwn(out, key, top && (child === null || typeof child !== 'object') ? child : sibling(child, false));
    return out;
  }
  if (typeof value === 'string') return `${value}-sibling`;
  if (typeof value === 'number') return value + 7;
  return value;
}

function hasPrototypeName(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasPrototypeName);
  if (!isPlain(value)) return false;
  return Object.entries(value).some(([key, child]) => key in Object.prototype || hasPrototypeName(child));
}

interface Case {
  name: string;
  object: ApiObject;
}

function cases(): Case[] {
  const bases = corpus();
  const random = new Random(20261128);
  const out: Case[] = bases.map((object, i) => ({ name: `corpus ${i}`, object }));
  for (let i = 0; i < VARIATIONS; i++) {
    const varied = vary(random.pick(bases), random) as ApiObject;
    const object = isPlain(varied.metadata) ? varied : { ...varied, metadata: {} };
    out.push({ name: `variation ${i}`, object: random.next() < 0.3 ? withOddMetadata(object, random) : object });
  }
  return out;
}

describe('trackedComparison (a create compared from the empty object)', () => {
  const all = cases();

  it('is compare()’s result for every object, the first of its shape or not, and a sibling shares a kept one', () => {
    let shared = 0;
    for (const { name, object } of all) {
      for (const scope of SCOPES[object.kind ?? ''] ?? SCOPES['Deployment'] ?? []) {
        const empty = emptyOf(scope.apiVersion, scope.kind);
        let expected: string;
        try {
          expected = paths(compare(empty, object, scope.schema, { goShape: true }));
        } catch (err) {
          expect(() => trackedComparison(empty, object, scope.schema, true)).toThrow((err as Error).message);
          continue;
        }
        const first = trackedComparison(empty, object, scope.schema, true);
        expect({ name, got: paths(first) }).toEqual({ name, got: expected });
        const other = sibling(object) as ApiObject;
        const second = trackedComparison(empty, other, scope.schema, true);
        expect({ name, sibling: paths(second) }).toEqual({
          name,
          sibling: paths(compare(empty, other, scope.schema, { goShape: true })),
        });
        // Kept unless a key names something of Object.prototype (`constructor`, `__proto__` …): then compared afresh.
        expect({ name, shared: second === first }).toEqual({ name, shared: !hasPrototypeName(object) });
        if (second === first) shared++;
      }
    }
    expect(shared).toBeGreaterThan(all.length / 3);
  });

  it('tells apart what the walk reads: list items, keys, kinds, top-level values, holes and undefined', () => {
    const [scope] = SCOPES['Deployment'] ?? [];
    if (scope === undefined) throw new Error('no Deployment scope');
    const empty = emptyOf(scope.apiVersion, scope.kind);
    const base = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'a', labels: { app: 'a' } },
      spec: {
        replicas: 1,
        template: { spec: { containers: [{ name: 'web', image: 'x', ports: [{ containerPort: 80 }] }] } },
      },
    };
    const variants: unknown[] = [
      base,
      { ...base, apiVersion: 'apps/v2' },
      { ...base, kind: 'Other' },
      { ...base, metadata: { name: 'a', labels: { app: 'a', tier: 'b' } } },
      { ...base, metadata: { labels: { app: 'a' }, name: 'a' } },
      { ...base, metadata: { name: 'a', labels: {} } },
      { ...base, metadata: { name: 'a', labels: null } },
      { ...base, metadata: { name: 'a', labels: { app: undefined } } },
      { ...base, spec: { ...base.spec, replicas: '1' } },
      { ...base, spec: { ...base.spec, replicas: null } },
      { ...base, spec: { ...base.spec, paused: true } },
      { ...base, spec: { ...base.spec, paused: false } },
      {
        ...base,
        spec: {
          ...base.spec,
          template: { spec: { containers: [{ name: 'api', image: 'x', ports: [{ containerPort: 80 }] }] } },
        },
      },
      {
        ...base,
        spec: {
          ...base.spec,
          template: { spec: { containers: [{ name: 'web', image: 'x', ports: [{ containerPort: 81 }] }] } },
        },
      },
      {
        ...base,
        spec: {
          ...base.spec,
          template: {
            spec: {
              containers: [
                { name: 'web', image: 'x' },
                { name: 'web', image: 'y' },
              ],
            },
          },
        },
      },
      // eslint-disable-next-line no-sparse-arrays
      { ...base, spec: { ...base.spec, template: { spec: { containers: [, { name: 'web' }] } } } },
      { ...base, spec: { ...base.spec, template: { spec: { containers: [null, { name: 'web' }] } } } },
    ];
    const seen = new Set<string>();
    const expectedOf = (obj: unknown): string => paths(compare(empty, obj, scope.schema, { goShape: true }));
    for (const variant of variants) {
      // The base's comparison is kept first, so a variant read as the base would get it.
      expect(paths(trackedComparison(empty, base, scope.schema, true))).toBe(expectedOf(base));
      let expected: string;
      try {
        expected = expectedOf(variant);
      } catch (err) {
        expect(() => trackedComparison(empty, variant, scope.schema, true)).toThrow((err as Error).message);
        continue;
      }
      expect(paths(trackedComparison(empty, variant, scope.schema, true))).toBe(expected);
      seen.add(expected);
    }
    expect(seen.size).toBeGreaterThan(8);
  });

  it('keeps no shape too large to hold (many keys, long strings in lists), and compares those correctly', () => {
    const [scope] = SCOPES['Deployment'] ?? [];
    if (scope === undefined) throw new Error('no Deployment scope');
    const empty = emptyOf(scope.apiVersion, scope.kind);
    const labels = Object.fromEntries(Array.from({ length: 1_500 }, (_, i) => [`l${i}`, 'v']));
    const manyKeys = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a', labels } };
    const container = { name: 'web', image: 'x', args: ['a'.repeat(5_000), 'b'.repeat(5_000)] };
    const longStrings = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'a' },
      spec: { template: { spec: { containers: [container] } } },
    };
    for (const object of [manyKeys, longStrings]) {
      const first = trackedComparison(empty, object, scope.schema, true);
      const again = trackedComparison(empty, structuredClone(object), scope.schema, true);
      expect(again).not.toBe(first);
      expect(paths(again)).toBe(paths(compare(empty, object, scope.schema, { goShape: true })));
    }
  });

  it('leaves other comparisons (an update, an apply of changes) to compare()', () => {
    const [scope] = SCOPES['Deployment'] ?? [];
    if (scope === undefined) throw new Error('no Deployment scope');
    const live = { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'a' }, spec: { replicas: 1 } };
    const next = { ...live, spec: { replicas: 2 } };
    const got = trackedComparison(live, next, scope.schema, true);
    expect(paths(got)).toBe(paths(compare(live, next, scope.schema, { goShape: true })));
    expect(trackedComparison(live, structuredClone(next), scope.schema, true)).not.toBe(got);
  });
});

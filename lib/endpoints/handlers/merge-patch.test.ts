// JSON merge patch: RFC 7386 appendix A, plus where evanphx/json-patch v4.12.0 (kube-apiserver 1.26) prunes nulls.
import { mergePatch } from './merge-patch';

describe('mergePatch', () => {
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{ a: [1, 2] }, { a: { a: 'b', c: null } }, { a: { a: 'b' } }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    [{ a: 'b' }, ['c'], ['c']],
  ])('%j + %j → %j', (target, patch, expected) => {
    expect(mergePatch(target, patch)).toEqual(expected);
  });

  it('prunes nulls inside list elements that land where there was nothing (evanphx pruneNulls)', () => {
    expect(mergePatch({}, { a: [{ b: null, c: 1 }, null] })).toEqual({ a: [{ c: 1 }, null] });
  });

  it('keeps nulls inside a list that replaces a live object (evanphx returns the patch as is)', () => {
    expect(mergePatch({ a: { x: 1 } }, { a: [{ b: null }] })).toEqual({ a: [{ b: null }] });
  });

  it('keeps "__proto__" an ordinary key and does not modify its inputs', () => {
    const target = { a: 1 };
    const patch = JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>;
    const result = mergePatch(target, patch) as Record<string, unknown>;
    expect(Object.keys(result)).toEqual(['a', '__proto__']);
    expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    expect(target).toEqual({ a: 1 });
  });
});

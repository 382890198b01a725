// A slot's value stays with its object and out of everything that reads the object's keys.
import { ObjectSlot } from './object-slot';

describe('ObjectSlot', () => {
  it('keeps a value per object, invisible to JSON, key lists, spreads and clones', () => {
    const slot = new ObjectSlot<{ n: number } | null>('test');
    const obj: Record<string, unknown> = { a: 1 };
    expect(slot.has(obj)).toBe(false);
    expect(slot.get(obj)).toBeUndefined();
    slot.set(obj, null);
    expect(slot.has(obj)).toBe(true);
    expect(slot.get(obj)).toBeNull();
    slot.set(obj, { n: 2 });
    expect(slot.get(obj)).toEqual({ n: 2 });
    expect(JSON.stringify(obj)).toBe('{"a":1}');
    expect(Object.keys(obj)).toEqual(['a']);
    expect(Object.getOwnPropertySymbols(obj).every((s) => !Object.getOwnPropertyDescriptor(obj, s)?.enumerable)).toBe(
      true,
    );
    expect(slot.get({ ...obj })).toBeUndefined();
    expect(slot.get(structuredClone(obj))).toBeUndefined();
    expect(new ObjectSlot<number>('other').get(obj)).toBeUndefined();
  });

  it('keeps nothing on a frozen object', () => {
    const slot = new ObjectSlot<number>('test');
    const frozen = Object.freeze({ a: 1 });
    slot.set(frozen, 1);
    expect(slot.get(frozen)).toBeUndefined();
  });
});

// How the compare walk reads values (as they are, or as goShaped would copy them, without copying) and records changes.
import { jsonEqual } from './go-json';
import type { SchemaNode } from '../schema/node';
import type { FieldSet } from './field-set';
import { goShaped, implicitFields, type ImplicitField } from './normalize';
import type { PathElement } from './path-element';
import { listItemElement, type Shape } from './shape';

export type { ImplicitField } from './normalize';

export interface Comparison {
  added: FieldSet;
  removed: FieldSet;
  modified: FieldSet;
}

export type Change = keyof Comparison;
export type ListShape = Extract<Shape, { kind: 'list' }>;

export interface Reading {
  /** Values are read as goShaped(value) would be: implicit fields appear, an own `__proto__` key does not. */
  readonly goShape: boolean;
  /** Subtrees present on one side only are walked on that side alone (the same changes, fewer reads). */
  readonly oneSided: boolean;
}

const READINGS: readonly Reading[] = [false, true].flatMap((goShape) =>
  [false, true].map((oneSided) => ({ goShape, oneSided })),
);

/** The (shared) Reading of these flags. */
export const readingOf = (goShape: boolean, oneSided: boolean): Reading =>
  READINGS[(goShape ? 2 : 0) + (oneSided ? 1 : 0)] as Reading;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

const hasOwn = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

/** goShaped's copies turn an own `__proto__` key into a prototype: such objects are compared as those copies. */
export const hasOwnProto = (v: unknown): boolean => isObject(v) && hasOwn(v, '__proto__');

/** The `{}` a missing object reads as; unknown names read from Object.prototype, as in any plain object. */
export const ABSENT_STRUCT: Record<string, unknown> = Object.freeze({});

const NONE: readonly ImplicitField[] = [];

/** The implicit fields an object at `node` reads with. */
export const implicitOf = (node: SchemaNode | undefined, r: Reading): readonly ImplicitField[] =>
  r.goShape && node !== undefined ? implicitFields(node) : NONE;

/**
 * One position of the walk. Its node in each result set is made on the first change recorded below it, so
 * unchanged subtrees leave nothing and no path is ever rebuilt from the root.
 */
export class Position {
  // One field per result set (not an object of them): a walk makes a Position per struct, map and list it enters.
  #added: FieldSet | undefined;
  #removed: FieldSet | undefined;
  #modified: FieldSet | undefined;

  constructor(
    readonly parent: Position | undefined,
    readonly pe: PathElement | undefined,
    roots?: Comparison,
  ) {
    this.#added = roots?.added;
    this.#removed = roots?.removed;
    this.#modified = roots?.modified;
  }

  mark(change: Change, pe: PathElement): void {
    this.#set(change).addMember(pe);
  }

  #set(change: Change): FieldSet {
    const known = change === 'added' ? this.#added : change === 'removed' ? this.#removed : this.#modified;
    if (known !== undefined) return known;
    const set = (this.parent as Position).#set(change).descend(this.pe as PathElement);
    if (change === 'added') this.#added = set;
    else if (change === 'removed') this.#removed = set;
    else this.#modified = set;
    return set;
  }
}

/** isEmptyish of the value as read: an object with implicit fields is not empty. */
export function isEmptyish(v: unknown, node: SchemaNode | undefined, r: Reading): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (!isObject(v)) return false;
  for (const key in v) if (hasOwn(v, key)) return false;
  return implicitOf(node, r).length === 0;
}

/** Equality of the values as read (only structured values can differ from what goShaped makes of them). */
export function equalAsRead(lhs: unknown, rhs: unknown, node: SchemaNode | undefined, r: Reading): boolean {
  if (!r.goShape || ((lhs === null || typeof lhs !== 'object') && (rhs === null || typeof rhs !== 'object')))
    return jsonEqual(lhs, rhs);
  return jsonEqual(goShaped(lhs, node), goShaped(rhs, node));
}

/** What `o` holds under `key` as read: as is, or as goShaped's plain copy (own, else implicit, else Object.prototype's). */
export function valueAt(
  o: Record<string, unknown>,
  implicit: readonly ImplicitField[],
  key: string,
  r: Reading,
): unknown {
  if (!r.goShape || hasOwn(o, key)) return o[key];
  for (const f of implicit) if (f.name === key) return f.value === 'struct' ? ABSENT_STRUCT : null;
  return ABSENT_STRUCT[key];
}

/** The keys of `o` as read: own keys, then the implicit fields it lacks (goShaped's copy lists them so). */
export function keysOf(o: Record<string, unknown>, implicit: readonly ImplicitField[]): string[] {
  const keys = Object.keys(o);
  for (const f of implicit) if (!hasOwn(o, f.name)) keys.push(f.name);
  return keys;
}

/** Whether keysOf(o, implicit) lists `key`. */
export const hasKey = (o: Record<string, unknown>, implicit: readonly ImplicitField[], key: string): boolean =>
  hasOwn(o, key) || implicit.some((f) => f.name === key);

/** The item listItemElement must see: keys and set values as read in goShaped's copy. */
function keyedItem(item: unknown, shape: ListShape, r: Reading): unknown {
  if (!r.goShape || item === null || typeof item !== 'object') return item;
  if (shape.relationship === 'set' || !isObject(item) || hasOwnProto(item)) return goShaped(item, shape.items);
  const implicit = shape.items === undefined ? NONE : implicitFields(shape.items);
  const keyIsImplicit = (k: string): boolean => !(k in item) && implicit.some((f) => f.name === k);
  return implicit.length > 0 && shape.keys.some(keyIsImplicit) ? goShaped(item, shape.items) : item;
}

export interface ItemGroup {
  readonly pe: PathElement;
  readonly values: unknown[];
}

/** The items of a list by serialized path element (several when keys repeat); throws SchemaMismatch on a bad item. */
export function indexItems(list: unknown[], shape: ListShape, r: Reading): Map<string, ItemGroup> {
  const out = new Map<string, ItemGroup>();
  for (let i = 0; i < list.length; i++) {
    if (!(i in list)) continue; // a hole, which forEach skipped
    const item = list[i];
    const pe = listItemElement(shape, i, keyedItem(item, shape, r));
    const entry = out.get(pe.serialized);
    if (entry) entry.values.push(item);
    else out.set(pe.serialized, { pe, values: [item] });
  }
  return out;
}

/** Lists of repeated items are compared whole, as read. */
export function itemsEqual(lv: unknown[], rv: unknown[], shape: ListShape, r: Reading): boolean {
  const read = (vs: unknown[]): unknown[] => (r.goShape ? vs.map((v) => goShaped(v, shape.items)) : vs);
  return jsonEqual(read(lv), read(rv));
}

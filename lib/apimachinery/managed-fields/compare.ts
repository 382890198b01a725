// What changed between two versions of an object (TypedValue.Compare): added, removed and modified field paths.
import type { SchemaNode } from '../schema/node';
import { FieldSet } from './field-set';
import { goShaped } from './normalize';
import { field, type PathElement } from './path-element';
import { childNode, shapeOf, type Shape } from './shape';
import {
  ABSENT_STRUCT,
  equalAsRead,
  hasOwnProto,
  implicitOf,
  indexItems,
  isEmptyish,
  hasKey,
  isObject,
  itemsEqual,
  keysOf,
  Position,
  readingOf,
  valueAt,
  type Comparison,
  type ImplicitField,
  type ListShape,
  type Reading,
} from './compare-reading';

export type { Comparison } from './compare-reading';

export interface CompareOptions {
  /** Compare goShaped(lhs) with goShaped(rhs), reading the implicit fields on the way instead of copying the objects. */
  goShape?: boolean;
  /** Walk subtrees present on one side only on that side alone (default); off, every position takes the two-sided walk. */
  oneSided?: boolean;
}

export function compare(
  lhs: unknown,
  rhs: unknown,
  node: SchemaNode | undefined,
  options: CompareOptions = {},
): Comparison {
  const c: Comparison = { added: new FieldSet(), removed: new FieldSet(), modified: new FieldSet() };
  walk(
    lhs,
    rhs,
    node,
    new Position(undefined, undefined, c),
    undefined,
    readingOf(options.goShape ?? false, options.oneSided ?? true),
  );
  return c;
}

type OneSide = 'added' | 'removed';

const AS_IS = (r: Reading): Reading => readingOf(false, r.oneSided);

function leaf(
  lhs: unknown,
  rhs: unknown,
  node: SchemaNode | undefined,
  at: Position,
  pe: PathElement | undefined,
  r: Reading,
): void {
  if (pe === undefined) return;
  if (lhs === undefined && rhs === undefined) return;
  if (lhs === undefined) at.mark('added', pe);
  else if (rhs === undefined) at.mark('removed', pe);
  else if (!equalAsRead(lhs, rhs, node, r)) at.mark('modified', pe);
}

/** `pe` undefined is the root. */
function walk(
  lhs: unknown,
  rhs: unknown,
  node: SchemaNode | undefined,
  at: Position,
  pe: PathElement | undefined,
  r: Reading,
): void {
  if (lhs === undefined && rhs === undefined) return;
  if (r.oneSided && pe !== undefined && (lhs === undefined || rhs === undefined)) {
    walkOneSide(lhs === undefined ? rhs : lhs, node, at, pe, lhs === undefined ? 'added' : 'removed', r);
    return;
  }
  const wasLeaf = visit(lhs, rhs, node, at, pe, r);
  if (!wasLeaf && pe !== undefined) {
    if (lhs === undefined) at.mark('added', pe);
    else if (rhs === undefined) at.mark('removed', pe);
  }
}

const hasOwnKey = (o: object, key: string): boolean => Object.prototype.hasOwnProperty.call(o, key);

const isGranular = (shape: Shape): boolean => (shape.kind === 'struct' || shape.kind === 'map') && !shape.atomic;

/** Returns true when this position was handled as a leaf (no added/removed marker for the node itself). */
function visit(
  lhs: unknown,
  rhs: unknown,
  node: SchemaNode | undefined,
  at: Position,
  pe: PathElement | undefined,
  r: Reading,
): boolean {
  const shape = shapeOf(node);
  if (r.goShape && (shape.kind === 'struct' || shape.kind === 'map') && (hasOwnProto(lhs) || hasOwnProto(rhs))) {
    return visit(goShaped(lhs, node), goShaped(rhs, node), node, at, pe, AS_IS(r));
  }
  const bothEmpty = isEmptyish(lhs, node, r) && isEmptyish(rhs, node, r);
  const isList = Array.isArray(lhs) || Array.isArray(rhs);
  if (shape.kind === 'list' || (shape.kind === 'deduced' && isList)) {
    if (
      shape.kind === 'deduced' ||
      shape.relationship === 'atomic' ||
      bothEmpty ||
      !Array.isArray(lhs ?? []) ||
      !Array.isArray(rhs ?? [])
    ) {
      leaf(lhs, rhs, node, at, pe, r);
      return true;
    }
    compareLists(
      lhs as unknown[] | undefined,
      rhs as unknown[] | undefined,
      shape,
      pe === undefined ? at : new Position(at, pe),
      r,
    );
    return false;
  }
  const isMap = isObject(lhs) || isObject(rhs);
  if (shape.kind === 'struct' || shape.kind === 'map' || (shape.kind === 'deduced' && isMap)) {
    const atomic = shape.kind !== 'deduced' && shape.atomic;
    if (
      atomic ||
      bothEmpty ||
      (lhs !== undefined && lhs !== null && !isObject(lhs)) ||
      (rhs !== undefined && rhs !== null && !isObject(rhs))
    ) {
      leaf(lhs, rhs, node, at, pe, r);
      return true;
    }
    compareFields(lhs, rhs, shape, node, pe === undefined ? at : new Position(at, pe), r);
    return false;
  }
  leaf(lhs, rhs, node, at, pe, r);
  return true;
}

function walkField(lhs: unknown, rhs: unknown, shape: Shape, key: string, here: Position, r: Reading): void {
  const child = shape.kind === 'deduced' ? undefined : childNode(shape, key);
  if (shape.kind === 'struct' && child === undefined) return;
  walk(lhs, rhs, child, here, field(key), r);
}

/** Every key of either object as read (a missing object is `{}`), left keys first. */
function compareFields(
  lhs: unknown,
  rhs: unknown,
  shape: Shape,
  node: SchemaNode | undefined,
  here: Position,
  r: Reading,
): void {
  const reads = r.goShape && shape.kind !== 'deduced' ? r : AS_IS(r);
  const l = isObject(lhs) ? lhs : ABSENT_STRUCT;
  const rr = isObject(rhs) ? rhs : ABSENT_STRUCT;
  const lImplicit = implicitOf(isObject(lhs) ? node : undefined, reads);
  const rImplicit = implicitOf(isObject(rhs) ? node : undefined, reads);
  const visitKey = (key: string): void =>
    walkField(valueAt(l, lImplicit, key, reads), valueAt(rr, rImplicit, key, reads), shape, key, here, r);
  for (const key of keysOf(l, lImplicit)) visitKey(key);
  for (const key of keysOf(rr, rImplicit)) if (!hasKey(l, lImplicit, key)) visitKey(key);
}

function compareLists(
  lhs: unknown[] | undefined,
  rhs: unknown[] | undefined,
  shape: ListShape,
  here: Position,
  r: Reading,
): void {
  const l = indexItems(lhs ?? [], shape, r);
  const rr = indexItems(rhs ?? [], shape, r);
  const item = (key: string, pe: PathElement): void => {
    const lv = l.get(key)?.values ?? [];
    const rv = rr.get(key)?.values ?? [];
    if (lv.length <= 1 && rv.length <= 1) walk(lv[0], rv[0], shape.items, here, pe, r);
    else if (lv.length >= 2 && rv.length >= 2) {
      if (!itemsEqual(lv, rv, shape, r)) here.mark('modified', pe);
    } else if (lv.length >= 2) {
      if (rv.length > 0) walk(undefined, rv[0], shape.items, here, pe, r);
      here.mark('removed', pe);
    } else {
      if (lv.length > 0) walk(lv[0], undefined, shape.items, here, pe, r);
      here.mark('added', pe);
    }
  };
  for (const [key, { pe }] of l) item(key, pe);
  for (const [key, { pe }] of rr) if (!l.has(key)) item(key, pe);
}

/**
 * walk() where only `value` is present (`added`: on the right, `removed`: on the left): the position itself is
 * marked, then its fields or items, each against the other side's `{}` or nothing.
 */
function walkOneSide(
  value: unknown,
  node: SchemaNode | undefined,
  at: Position,
  pe: PathElement,
  change: OneSide,
  r: Reading,
): void {
  const shape = shapeOf(node);
  if (r.goShape && (shape.kind === 'struct' || shape.kind === 'map') && hasOwnProto(value)) {
    walkOneSide(goShaped(value, node), node, at, pe, change, AS_IS(r));
    return;
  }
  at.mark(change, pe);
  // Empty values and atomic ones are leaves: the mark is all.
  if (shape.kind === 'list') {
    if (shape.relationship !== 'atomic' && Array.isArray(value) && value.length > 0)
      oneSideItems(value, shape, new Position(at, pe), change, r);
  } else if ((isGranular(shape) || shape.kind === 'deduced') && isObject(value)) {
    oneSideFields(value, shape, implicitOf(node, r), new Position(at, pe), change, r);
  }
}

/** Own keys, then the implicit fields `value` lacks; the missing side reads as `{}` (Object.prototype's names are there). */
function oneSideFields(
  value: Record<string, unknown>,
  shape: Shape,
  implicit: readonly ImplicitField[],
  here: Position,
  change: OneSide,
  r: Reading,
): void {
  // for-in reads the object's enum cache (no array of keys); own keys only, in Object.keys' order.
  for (const key in value) if (hasOwnKey(value, key)) oneSideField(key, value[key], shape, here, change, r);
  for (const f of implicit)
    if (!Object.prototype.hasOwnProperty.call(value, f.name))
      oneSideField(f.name, f.value === 'struct' ? ABSENT_STRUCT : null, shape, here, change, r);
}

/** One field of a one-sided object: against the other side's `{}` when that names it, else on its own. */
function oneSideField(key: string, v: unknown, shape: Shape, here: Position, change: OneSide, r: Reading): void {
  const child = shape.kind === 'deduced' ? undefined : childNode(shape, key);
  if (shape.kind === 'struct' && child === undefined) return;
  const other = ABSENT_STRUCT[key];
  if (other !== undefined)
    walk(change === 'added' ? other : v, change === 'added' ? v : other, child, here, field(key), r);
  else if (v !== undefined) walkOneSide(v, child, here, field(key), change, r);
}

function oneSideItems(list: unknown[], shape: ListShape, here: Position, change: OneSide, r: Reading): void {
  for (const { pe, values } of indexItems(list, shape, r).values()) {
    if (values.length >= 2) here.mark(change, pe);
    else if (values[0] !== undefined) walkOneSide(values[0], shape.items, here, pe, change, r);
  }
}

// What changed between two versions of an object (TypedValue.Compare): added, removed and modified field paths.
import { jsonEqual as isDeepStrictEqual } from './go-json';
import type { SchemaNode } from '../schema/node';
import { FieldSet } from './field-set';
import { field, serializePathElement, type Path, type PathElement } from './path-element';
import { childNode, listItemElement, shapeOf, type Shape } from './shape';

export interface Comparison {
  added: FieldSet;
  removed: FieldSet;
  modified: FieldSet;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const isEmptyish = (v: unknown): boolean => v === undefined || v === null || (Array.isArray(v) && v.length === 0) || (isObject(v) && Object.keys(v).length === 0);

export function compare(lhs: unknown, rhs: unknown, node: SchemaNode | undefined): Comparison {
  const c: Comparison = { added: new FieldSet(), removed: new FieldSet(), modified: new FieldSet() };
  walk(lhs, rhs, node, [], c);
  return c;
}

function leaf(lhs: unknown, rhs: unknown, path: Path, c: Comparison): void {
  if (path.length === 0) return;
  if (lhs === undefined && rhs === undefined) return;
  if (lhs === undefined) c.added.insert(path);
  else if (rhs === undefined) c.removed.insert(path);
  else if (!isDeepStrictEqual(lhs, rhs)) c.modified.insert(path);
}

/** Returns true when this position was handled as a leaf (no added/removed marker for the node itself). */
function visit(lhs: unknown, rhs: unknown, shape: Shape, path: Path, c: Comparison): boolean {
  const bothEmpty = isEmptyish(lhs) && isEmptyish(rhs);
  const isList = Array.isArray(lhs) || Array.isArray(rhs);
  if (shape.kind === 'list' || (shape.kind === 'deduced' && isList)) {
    if (shape.kind === 'deduced' || shape.relationship === 'atomic' || bothEmpty || !Array.isArray(lhs ?? []) || !Array.isArray(rhs ?? [])) {
      leaf(lhs, rhs, path, c);
      return true;
    }
    compareLists(lhs as unknown[] | undefined, rhs as unknown[] | undefined, shape, path, c);
    return false;
  }
  const isMap = isObject(lhs) || isObject(rhs);
  if (shape.kind === 'struct' || shape.kind === 'map' || (shape.kind === 'deduced' && isMap)) {
    const atomic = shape.kind !== 'deduced' && shape.atomic;
    if (atomic || bothEmpty || (lhs !== undefined && lhs !== null && !isObject(lhs)) || (rhs !== undefined && rhs !== null && !isObject(rhs))) {
      leaf(lhs, rhs, path, c);
      return true;
    }
    const l = isObject(lhs) ? lhs : {};
    const r = isObject(rhs) ? rhs : {};
    for (const key of new Set([...Object.keys(l), ...Object.keys(r)])) {
      const child = shape.kind === 'deduced' ? undefined : childNode(shape, key);
      if (shape.kind === 'struct' && child === undefined) continue;
      walk(l[key], r[key], child, [...path, field(key)], c);
    }
    return false;
  }
  leaf(lhs, rhs, path, c);
  return true;
}

function walk(lhs: unknown, rhs: unknown, node: SchemaNode | undefined, path: Path, c: Comparison): void {
  if (lhs === undefined && rhs === undefined) return;
  const wasLeaf = visit(lhs, rhs, shapeOf(node), path, c);
  if (!wasLeaf && path.length > 0) {
    if (lhs === undefined) c.added.insert(path);
    else if (rhs === undefined) c.removed.insert(path);
  }
}

function index(list: unknown[], shape: Extract<Shape, { kind: 'list' }>): Map<string, { pe: PathElement; values: unknown[] }> {
  const out = new Map<string, { pe: PathElement; values: unknown[] }>();
  list.forEach((item, i) => {
    const pe = listItemElement(shape, i, item);
    const key = serializePathElement(pe);
    const entry = out.get(key);
    if (entry) entry.values.push(item);
    else out.set(key, { pe, values: [item] });
  });
  return out;
}

function compareLists(lhs: unknown[] | undefined, rhs: unknown[] | undefined, shape: Extract<Shape, { kind: 'list' }>, path: Path, c: Comparison): void {
  const l = index(lhs ?? [], shape);
  const r = index(rhs ?? [], shape);
  for (const key of new Set([...l.keys(), ...r.keys()])) {
    const le = l.get(key);
    const re = r.get(key);
    const pe = (le ?? re)?.pe as PathElement;
    const lv = le?.values ?? [];
    const rv = re?.values ?? [];
    const itemPath = [...path, pe];
    if (lv.length <= 1 && rv.length <= 1) walk(lv[0], rv[0], shape.items, itemPath, c);
    else if (lv.length >= 2 && rv.length >= 2) {
      if (!isDeepStrictEqual(lv, rv)) c.modified.insert(itemPath);
    } else if (lv.length >= 2) {
      if (rv.length > 0) walk(undefined, rv[0], shape.items, itemPath, c);
      c.removed.insert(itemPath);
    } else {
      if (lv.length > 0) walk(lv[0], undefined, shape.items, itemPath, c);
      c.added.insert(itemPath);
    }
  }
}

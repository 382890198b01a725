// Merging an applied configuration into the live object (TypedValue.Merge): the configuration's values win.
import type { SchemaNode } from '../schema/node';
import { serializePathElement } from './path-element';
import { childNode, listItemElement, shapeOf, type Shape } from './shape';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function mergeValues(lhs: unknown, rhs: unknown, node: SchemaNode | undefined): unknown {
  if (rhs === undefined) return lhs;
  if (lhs === undefined) return rhs;
  const shape = shapeOf(node);
  if (shape.kind === 'list' && shape.relationship !== 'atomic' && Array.isArray(lhs) && Array.isArray(rhs))
    return mergeLists(lhs, rhs, shape);
  const granular = (shape.kind === 'struct' || shape.kind === 'map') && !shape.atomic;
  if ((granular || shape.kind === 'deduced') && isObject(lhs) && (isObject(rhs) || rhs === null)) {
    if (rhs === null) return lhs;
    const out: Record<string, unknown> = {};
    for (const key of new Set([...Object.keys(lhs), ...Object.keys(rhs)])) {
      out[key] = mergeValues(lhs[key], rhs[key], shape.kind === 'deduced' ? undefined : childNode(shape, key));
    }
    return out;
  }
  return rhs;
}

/**
 * structured-merge-diff's list merge order: live items keep their places, configuration items
 * follow the configuration's order, and items in both are placed where the configuration puts them.
 */
function mergeLists(lhs: unknown[], rhs: unknown[], shape: Extract<Shape, { kind: 'list' }>): unknown[] {
  const lKeys = lhs.map((item, i) => serializePathElement(listItemElement(shape, i, item)));
  const rKeys = rhs.map((item, i) => serializePathElement(listItemElement(shape, i, item)));
  const lByKey = new Map<string, unknown>();
  lKeys.forEach((k, i) => lByKey.set(k, lhs[i]));
  const rByKey = new Map<string, unknown>();
  rKeys.forEach((k, i) => rByKey.set(k, rhs[i]));
  const shared = rKeys.filter((k) => lByKey.has(k));
  let sharedAt = 0;
  const merged = new Set<string>();
  const out: unknown[] = [];
  const take = (k: string): void => {
    merged.add(k);
    out.push(mergeValues(lByKey.get(k), rByKey.get(k), shape.items));
  };
  let lI = 0;
  let rI = 0;
  while (lI < lKeys.length || rI < rKeys.length) {
    if (lI < lKeys.length && rI < rKeys.length) {
      const lk = lKeys[lI] as string;
      if (lk === rKeys[rI]) {
        take(lk);
        lI++;
        rI++;
        sharedAt++;
        continue;
      }
      const nextShared = shared[sharedAt];
      if (rByKey.has(lk) && nextShared !== undefined && nextShared !== lk) {
        lI++;
        continue;
      }
    }
    if (lI < lKeys.length) {
      const lk = lKeys[lI] as string;
      if (!rByKey.has(lk)) {
        out.push(lhs[lI]);
        lI++;
        continue;
      }
      if (merged.has(lk)) {
        lI++;
        continue;
      }
    }
    if (rI < rKeys.length) {
      const rk = rKeys[rI] as string;
      take(rk);
      rI++;
      if (shared[sharedAt] === rk) sharedAt++;
    }
  }
  return out;
}

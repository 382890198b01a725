// How server-side apply sees a schema node (structured-merge-diff's atoms): scalar, struct, map or list with its relationship.
import type { SchemaNode } from '../schema/node';
import { indexElement, keyElement, valueElement, type PathElement } from './path-element';

export type Shape =
  | { readonly kind: 'scalar' }
  /** A Go struct (known fields) or a map; `atomic` ones are owned and replaced as one value. */
  | { readonly kind: 'struct'; readonly node: SchemaNode; readonly atomic: boolean }
  | { readonly kind: 'map'; readonly values: SchemaNode | undefined; readonly atomic: boolean }
  | {
      readonly kind: 'list';
      readonly relationship: 'atomic' | 'set' | 'map';
      readonly keys: readonly string[];
      readonly items: SchemaNode | undefined;
    }
  /** Untyped JSON (RawExtension, interface{}): objects are granular maps, lists atomic. */
  | { readonly kind: 'deduced' };

const DEDUCED: Shape = { kind: 'deduced' };
const SCALAR: Shape = { kind: 'scalar' };
const shapeCache = new WeakMap<SchemaNode, Shape>();

/** Kept per node: nodes are immutable, and every walk asks for the shape of each position it passes. */
export function shapeOf(node: SchemaNode | undefined): Shape {
  if (node === undefined) return DEDUCED;
  let shape = shapeCache.get(node);
  if (shape === undefined) {
    shape = shapeOfNode(node);
    shapeCache.set(node, shape);
  }
  return shape;
}

function shapeOfNode(node: SchemaNode): Shape {
  switch (node.type) {
    case 'object':
      return { kind: 'struct', node, atomic: node.mapType === 'atomic' };
    case 'map':
      return { kind: 'map', values: node.values, atomic: node.mapType === 'atomic' };
    case 'array':
      return listShape(node);
    case 'raw':
    case 'any':
      return DEDUCED;
    default:
      return SCALAR;
  }
}

/**
 * The list type, or Kubernetes' OpenAPI → structured-merge-diff fallback when there is none: patch
 * strategy `merge` makes the list associative, keyed by the patch merge key when there is one.
 */
function listShape(node: SchemaNode): Shape {
  const items = node.items;
  if (node.listType === 'map') return { kind: 'list', relationship: 'map', keys: node.listMapKeys ?? [], items };
  if (node.listType === 'set') return { kind: 'list', relationship: 'set', keys: [], items };
  if (node.listType === 'atomic') return { kind: 'list', relationship: 'atomic', keys: [], items };
  const merge = (node.patchStrategy ?? '').split(',').includes('merge');
  if (merge && node.patchMergeKey) return { kind: 'list', relationship: 'map', keys: [node.patchMergeKey], items };
  if (merge)
    return { kind: 'list', relationship: items && items.type !== 'object' ? 'set' : 'atomic', keys: [], items };
  return { kind: 'list', relationship: 'atomic', keys: [], items };
}

/** The node of a child of a struct or map; undefined for an undeclared struct field. */
export function childNode(shape: Shape, name: string): SchemaNode | undefined {
  if (shape.kind === 'struct') return shape.node.fieldAt(name);
  if (shape.kind === 'map') return shape.values;
  return undefined;
}

export class SchemaMismatch extends Error {}

/** Defaults of list-map keys that the OpenAPI schema declares (structured-merge-diff fills them in). */
const KEY_DEFAULTS: Record<string, unknown> = { protocol: 'TCP' };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The path element of a list item: its keys (list-map), its value (set) or its index (atomic). */
export function listItemElement(shape: Extract<Shape, { kind: 'list' }>, index: number, item: unknown): PathElement {
  if (shape.relationship === 'set') return valueElement(item);
  if (shape.relationship === 'map' && shape.keys.length > 0) {
    if (!isObject(item)) throw new SchemaMismatch(`element ${index}: expected map, got ${JSON.stringify(item)}`);
    const fields: Array<[string, unknown]> = [];
    for (const key of shape.keys) {
      const value = key in item ? item[key] : KEY_DEFAULTS[key];
      if (value === undefined)
        throw new SchemaMismatch(
          `element ${index}: associative list with keys has an element that omits key field "${key}" (and doesn't have default value)`,
        );
      fields.push([key, value]);
    }
    return keyElement(fields);
  }
  return indexElement(index);
}

// An object as the Go round trip shows it to field tracking: absent non-pointer structs are `{}`, an absent Time is null.
import type { SchemaNode } from '../schema/node';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A field Go always marshals: an absent one reads as `{}` (a struct, itself go-shaped) or null (a Time, a required list). */
export interface ImplicitField {
  readonly name: string;
  readonly node: SchemaNode;
  readonly value: 'struct' | null;
}

const NO_IMPLICIT_FIELDS: readonly ImplicitField[] = [];
const implicitCache = new WeakMap<SchemaNode, readonly ImplicitField[]>();

/** The fields goShaped adds to an object of `node` when they are absent (none unless `node` is a granular struct); nodes are immutable, so this is kept. */
export function implicitFields(node: SchemaNode): readonly ImplicitField[] {
  if (node.type !== 'object' || node.mapType === 'atomic') return NO_IMPLICIT_FIELDS;
  let fields = implicitCache.get(node);
  if (fields === undefined) {
    fields = node.fieldNames.flatMap((name): ImplicitField[] => {
      const child = node.fieldAt(name);
      if (child === undefined || (child.nullable && !(child.type === 'array' && child.required))) return [];
      if (child.type === 'object') return [{ name, node: child, value: 'struct' }];
      // A required list has no omitempty: the Go zero value marshals as null.
      if (child.type === 'date-time' || (child.type === 'array' && child.required))
        return [{ name, node: child, value: null }];
      return [];
    });
    implicitCache.set(node, fields.length > 0 ? fields : NO_IMPLICIT_FIELDS);
  }
  return fields;
}

/**
 * Kubernetes compares typed Go objects converted back to JSON, where a struct field that is not a
 * pointer is always present: this decides whether a new struct is itself recorded (`.`) or only its fields.
 */
export function goShaped(value: unknown, node: SchemaNode | undefined): unknown {
  if (node === undefined) return value;
  if (Array.isArray(value)) return node.type === 'array' ? value.map((item) => goShaped(item, node.items)) : value;
  if (!isObject(value)) return value;
  if (node.type === 'map') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = goShaped(v, node.values);
    return out;
  }
  if (node.type !== 'object' || node.mapType === 'atomic') return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = goShaped(v, node.fieldAt(k));
  for (const f of implicitFields(node))
    if (!(f.name in out)) out[f.name] = f.value === 'struct' ? goShaped({}, f.node) : null;
  return out;
}

// Removing the fields and items of a set from an object (TypedValue.RemoveItems), and named struct fields as members.
import type { SchemaNode } from '../schema/node';
import { FieldSet } from './field-set';
import { field } from './path-element';
import { childNode, listItemElement, shapeOf } from './shape';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export function removeItems(value: unknown, toRemove: FieldSet, node: SchemaNode | undefined): unknown {
  const shape = shapeOf(node);
  if (Array.isArray(value)) {
    if (shape.kind !== 'list' || shape.relationship === 'atomic' || value.length === 0) return value;
    const out: unknown[] = [];
    value.forEach((item, i) => {
      const pe = listItemElement(shape, i, item);
      if (toRemove.hasMember(pe)) return;
      const sub = toRemove.child(pe);
      out.push(sub ? removeItems(item, sub, shape.items) : item);
    });
    return out;
  }
  if (isObject(value)) {
    if ((shape.kind === 'struct' || shape.kind === 'map') && shape.atomic) return value;
    if (shape.kind !== 'struct' && shape.kind !== 'map' && shape.kind !== 'deduced') return value;
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const pe = field(key);
      if (toRemove.hasMember(pe)) continue;
      const sub = toRemove.child(pe);
      out[key] = sub ? removeItems(child, sub, shape.kind === 'deduced' ? undefined : childNode(shape, key)) : child;
    }
    return out;
  }
  return value;
}

/** Set.EnsureNamedFieldsAreMembers: struct fields with owned descendants count as owned themselves. */
export function ensureNamedFieldsAreMembers(set: FieldSet, node: SchemaNode | undefined): FieldSet {
  const out = new FieldSet();
  const shape = shapeOf(node);
  for (const pe of set.members.values()) out.addMember(pe);
  for (const c of set.children.values()) {
    const isNamed = shape.kind === 'struct' && c.pe.kind === 'field' && shape.node.fieldAt(c.pe.name) !== undefined;
    if (isNamed) out.addMember(c.pe);
    const childSchema =
      c.pe.kind === 'field'
        ? shape.kind === 'deduced'
          ? undefined
          : childNode(shape, c.pe.name)
        : shape.kind === 'list'
          ? shape.items
          : undefined;
    out.setChild(c.pe, ensureNamedFieldsAreMembers(c.set, childSchema));
  }
  return out;
}

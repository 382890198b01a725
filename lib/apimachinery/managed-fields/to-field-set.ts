// The fields an object sets (TypedValue.ToFieldSet): leaves, list items, map entries and empty or null struct fields.
import type { SchemaNode } from '../schema/node';
import { FieldSet } from './field-set';
import { field, pathString, type Path } from './path-element';
import { childNode, listItemElement, SchemaMismatch, shapeOf } from './shape';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** `strict`: an undeclared struct field is an error (`.spec.foo: field not declared in schema`), as for applied configurations. */
export function toFieldSet(value: unknown, node: SchemaNode | undefined, strict = false): FieldSet {
  const set = new FieldSet();
  walk(value, node, [], set, strict);
  return set;
}

function walk(value: unknown, node: SchemaNode | undefined, path: Path, set: FieldSet, strict: boolean): void {
  const shape = shapeOf(node);
  if (shape.kind === 'scalar' || value === null || value === undefined) {
    if (path.length > 0) set.insert(path);
    return;
  }
  if (shape.kind === 'list' || (shape.kind === 'deduced' && Array.isArray(value))) {
    if (!Array.isArray(value) || shape.kind === 'deduced' || shape.relationship === 'atomic') {
      if (path.length > 0) set.insert(path);
      return;
    }
    value.forEach((item, i) => {
      let pe;
      try {
        pe = listItemElement(shape, i, item);
      } catch (err) {
        throw err instanceof SchemaMismatch ? new SchemaMismatch(`${pathString(path)}: ${err.message}`) : err;
      }
      const itemPath = [...path, pe];
      walk(item, shape.items, itemPath, set, strict);
      set.insert(itemPath);
    });
    return;
  }
  if (!isObject(value) || ((shape.kind === 'struct' || shape.kind === 'map') && shape.atomic)) {
    if (path.length > 0) set.insert(path);
    return;
  }
  for (const [key, child] of Object.entries(value)) {
    const declared = shape.kind === 'struct' ? shape.node.fieldAt(key) : undefined;
    if (shape.kind === 'struct' && declared === undefined) {
      if (strict) throw new SchemaMismatch(`${pathString([...path, field(key)])}: field not declared in schema`);
      continue;
    }
    const childPath = [...path, field(key)];
    walk(child, shape.kind === 'deduced' ? undefined : childNode(shape, key), childPath, set, strict);
    if (child === null || (isObject(child) && Object.keys(child).length === 0) || shape.kind !== 'struct')
      set.insert(childPath);
  }
}

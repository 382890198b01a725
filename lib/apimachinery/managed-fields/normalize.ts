// An object as the Go round trip shows it to field tracking: absent non-pointer structs are `{}`, an absent Time is null.
import type { SchemaNode } from '../schema/node';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

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
  for (const name of node.fieldNames) {
    if (name in out) continue;
    const child = node.fieldAt(name);
    if (child === undefined || (child.nullable && !(child.type === 'array' && child.required))) continue;
    if (child.type === 'object') out[name] = goShaped({}, child);
    else if (child.type === 'date-time') out[name] = null;
    // A required list has no omitempty: the Go zero value marshals as null.
    else if (child.type === 'array' && child.required) out[name] = null;
  }
  return out;
}

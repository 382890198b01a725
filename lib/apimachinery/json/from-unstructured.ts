// The first error k8s.io/apimachinery's unstructured converter (FromUnstructured) meets turning a decoded JSON value into the typed object.
// Strategic merge patches decode the patched map this way, so their type errors are worded by the converter, not by encoding/json.
import type { SchemaNode } from '../schema/node';
import { isPlainObject } from '../meta/types';
import { goJsonKind, unmarshalTypeError } from './go-json-errors';
import { goDurationError, goTimeParseError, RFC3339, RFC3339_MICRO } from './go-time';
import { quantityJsonError } from './go-quantity';

/** The Go kind of a value of map[string]interface{} (integers are int64, other numbers float64). */
function goKindOf(value: unknown): string {
  if (Array.isArray(value)) return 'slice';
  if (isPlainObject(value)) return 'map';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  return typeof value === 'boolean' ? 'bool' : 'string';
}

/** The reflect.Kind of a scalar node's Go type. */
function scalarKind(node: SchemaNode): string {
  switch (node.type) {
    case 'integer':
      return node.format === 'int64' ? 'int64' : 'int32';
    case 'number':
      return 'float64';
    case 'boolean':
      return 'bool';
    default:
      return 'string';
  }
}

/** fromUnstructured's rules for simple kinds: Go conversions between ints and floats, never across bool/number/string. */
function scalarError(value: unknown, node: SchemaNode): string | undefined {
  const from = goKindOf(value);
  const to = scalarKind(node);
  if (from === to || (from === 'int64' && (to === 'int32' || to === 'float64'))) return undefined;
  if (from === 'float64' && (to === 'int32' || to === 'int64'))
    return Number.isInteger(value) ? undefined : `cannot convert float64 to ${node.goType}`;
  if (from === 'int64' && to === 'string') return `cannot convert int64 to ${node.goType}`;
  return `unrecognized type: ${to}`;
}

/** Types with their own UnmarshalJSON are converted by marshalling the value and unmarshalling it (no field context). */
function customError(value: unknown, node: SchemaNode): string | undefined {
  switch (node.type) {
    case 'quantity':
      return quantityJsonError(JSON.stringify(value));
    case 'int-or-string':
      if (typeof value === 'string') return undefined;
      if (typeof value === 'number' && Number.isInteger(value) && value >= -2147483648 && value <= 2147483647)
        return undefined;
      return unmarshalTypeError(
        typeof value === 'number' ? `number ${JSON.stringify(value)}` : goJsonKind(value),
        'int32',
        undefined,
      );
    case 'date-time':
    case 'micro-time':
    case 'duration':
      if (typeof value !== 'string') return unmarshalTypeError(goJsonKind(value), 'string', undefined);
      return node.type === 'duration'
        ? goDurationError(value)
        : goTimeParseError(node.type === 'micro-time' ? RFC3339_MICRO : RFC3339, value);
    default:
      return undefined;
  }
}

/**
 * The error FromUnstructured returns for `value` as a `node`, or undefined: struct fields in declaration
 * order, the first error ends the walk. Unknown fields are not its concern (they are collected apart).
 */
export function fromUnstructuredError(value: unknown, node: SchemaNode): string | undefined {
  if (value === null || value === undefined) return undefined;
  switch (node.type) {
    case 'any':
    case 'raw':
      return undefined;
    case 'object': {
      if (!isPlainObject(value)) return `cannot restore struct from: ${goKindOf(value)}`;
      for (const name of node.fieldNames) {
        const child = node.fieldAt(name);
        const err = child && Object.hasOwn(value, name) ? fromUnstructuredError(value[name], child) : undefined;
        if (err !== undefined) return err;
      }
      return undefined;
    }
    case 'map': {
      if (!isPlainObject(value)) return `cannot restore map from ${goKindOf(value)}`;
      const values = node.values;
      for (const entry of Object.values(value)) {
        const err = values ? fromUnstructuredError(entry, values) : undefined;
        if (err !== undefined) return err;
      }
      return undefined;
    }
    case 'array': {
      if (!Array.isArray(value)) return `cannot restore slice from ${goKindOf(value)}`;
      const items = node.items;
      for (const item of value) {
        const err = items ? fromUnstructuredError(item, items) : undefined;
        if (err !== undefined) return err;
      }
      return undefined;
    }
    case 'int-or-string':
    case 'quantity':
    case 'date-time':
    case 'micro-time':
    case 'duration':
      return customError(value, node);
    default:
      return scalarError(value, node);
  }
}

// Encoding plans compiled once per catalog message: fields in write order with precomputed tags, so encoding a
// JSON object is a loop over plain arrays instead of catalog lookups.
import { catalogMessage, type CatalogField } from './catalog';
import { tagBytes } from './reverse-writer';

export type ScalarKind = 'string' | 'int32' | 'int64' | 'bool' | 'double' | 'bytes';

/** Messages whose JSON form is not an object (Kubernetes' custom marshallers). */
export type SpecialKind = 'time' | 'micro-time' | 'quantity' | 'int-or-string' | 'raw' | 'verbs' | 'duration';

export interface MessagePlan {
  name: string;
  special: SpecialKind | null;
  /** Descending field numbers: the writer fills from the end, so the wire order comes out ascending. */
  fields: FieldPlan[];
}

export interface FieldPlan {
  /** JSON property; null for inline fields (their properties sit in the parent object). */
  jsonName: string | null;
  inline: boolean;
  tag: Uint8Array;
  /** Go pointer: written only when set. Non-pointer scalars and structs are always written, as gogo does. */
  pointer: boolean;
  shape: 'single' | 'repeated' | 'map';
  /** The scalar type (of the field, its items or a map's values); null when `message` is set. */
  scalar: ScalarKind | null;
  message: MessagePlan | null;
  /** Tag of a map entry's value (field 2 of the entry, wire type by value type). */
  mapValueTag: Uint8Array | null;
}

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_BYTES = 2;

const SCALARS: ReadonlySet<string> = new Set<ScalarKind>(['string', 'int32', 'int64', 'bool', 'double', 'bytes']);

function isScalar(type: string): type is ScalarKind {
  return SCALARS.has(type);
}

function wireTypeOf(type: string): number {
  if (type === 'int32' || type === 'int64' || type === 'bool') return WIRE_VARINT;
  if (type === 'double') return WIRE_FIXED64;
  return WIRE_BYTES;
}

function specialOf(name: string, jsonType: string): SpecialKind | null {
  switch (jsonType) {
    case 'object':
      return null;
    case 'date-time':
      return name.endsWith('.MicroTime') ? 'micro-time' : 'time';
    case 'quantity':
      return 'quantity';
    case 'int-or-string':
      return 'int-or-string';
    case 'raw':
      return 'raw';
    case 'array':
      return 'verbs';
    case 'string':
      return 'duration';
    default:
      throw new Error(`protobuf: no encoding for the JSON form ${jsonType} of ${name}`);
  }
}

const plans = new Map<string, MessagePlan>();

function fieldPlan(field: CatalogField): FieldPlan {
  const valueType = field.mapValue ?? field.type ?? 'string';
  const scalar = isScalar(valueType) ? valueType : null;
  const shape = field.mapValue !== null ? 'map' : field.repeated ? 'repeated' : 'single';
  return {
    jsonName: field.inline ? null : field.jsonName,
    inline: field.inline,
    // Repeated scalars are written unpacked, one tag per item (gogo's generated code for these proto2 fields).
    tag: tagBytes(field.number, shape === 'map' ? WIRE_BYTES : wireTypeOf(valueType)),
    pointer: field.pointer,
    shape,
    scalar,
    message: scalar === null ? messagePlan(valueType) : null,
    mapValueTag: shape === 'map' ? tagBytes(2, wireTypeOf(valueType)) : null,
  };
}

/** The plan of a catalog message, compiled on first use (cycles resolve through the cache). */
export function messagePlan(name: string): MessagePlan {
  const cached = plans.get(name);
  if (cached) return cached;
  const message = catalogMessage(name);
  if (message === undefined) throw new Error(`protobuf: unknown message ${name}`);
  const plan: MessagePlan = { name, special: specialOf(name, message.jsonType), fields: [] };
  plans.set(name, plan);
  if (plan.special === null) {
    const fields = [...message.fields]
      .filter((f) => f.inline || f.jsonName !== null)
      .sort((a, b) => b.number - a.number);
    plan.fields = fields.map(fieldPlan);
  }
  return plan;
}

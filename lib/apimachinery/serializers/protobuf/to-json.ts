// Decoded protobuf message (protobufjs toObject form) → the JSON shape Go's encoding/json gives the same object, driven by the catalog.
import { badRequest } from '../../errors';
import { isPlainObject } from '../../meta/types';
import { catalogMessage, SCALAR_TYPES, type CatalogField } from './catalog';

export type Decoded = Record<string, unknown>;

/** Set by the envelope module: decodes a RawExtension holding a nested protobuf object. */
export type NestedDecoder = (raw: Uint8Array) => unknown;

const PROTOBUF_PREFIX = [0x6b, 0x38, 0x73, 0x00];

function num(value: unknown): number {
  return typeof value === 'number' ? value : 0;
}

function rfc3339(seconds: number, micros?: number): string {
  const base = new Date(seconds * 1000).toISOString().slice(0, 19);
  return micros === undefined ? `${base}Z` : `${base}.${String(micros).padStart(6, '0')}Z`;
}

function bytesOf(value: unknown): Uint8Array {
  return value instanceof Uint8Array ? value : new Uint8Array();
}

/** RawExtension/FieldsV1 bytes: embedded JSON, or a nested protobuf envelope. */
function rawJson(raw: Uint8Array, nested: NestedDecoder): unknown {
  if (raw.length === 0) return undefined;
  if (PROTOBUF_PREFIX.every((b, i) => raw[i] === b)) return nested(raw);
  try {
    return JSON.parse(Buffer.from(raw).toString('utf8'));
  } catch (err) {
    throw badRequest(`embedded object is not valid JSON: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** A message with a custom JSON form; undefined means "zero value, leave the property out". */
function specialJson(typeName: string, jsonType: string, value: Decoded, nested: NestedDecoder): unknown {
  switch (jsonType) {
    case 'date-time': {
      const seconds = num(value['seconds']);
      if (seconds === 0 && num(value['nanos']) === 0) return undefined;
      return typeName.endsWith('.MicroTime')
        ? rfc3339(seconds, Math.floor(num(value['nanos']) / 1000))
        : rfc3339(seconds);
    }
    case 'quantity':
      return typeof value['string'] === 'string' && value['string'] !== '' ? value['string'] : '0';
    case 'int-or-string':
      return num(value['type']) === 1
        ? typeof value['strVal'] === 'string'
          ? value['strVal']
          : ''
        : num(value['intVal']);
    case 'raw':
      return rawJson(bytesOf(value['raw'] ?? value['Raw']), nested);
    case 'array':
      return Array.isArray(value['items']) ? value['items'] : [];
    default:
      throw badRequest(`protobuf: no JSON conversion for ${typeName}`);
  }
}

function scalarJson(type: string, value: unknown): unknown {
  if (type === 'bytes') return Buffer.from(bytesOf(value)).toString('base64');
  return value;
}

function zeroScalar(type: string): unknown {
  if (type === 'string' || type === 'bytes') return '';
  if (type === 'bool') return false;
  return 0;
}

function isZero(value: unknown): boolean {
  return value === '' || value === 0 || value === false || value === undefined;
}

/** One value of type `type` (scalar or message); undefined when the JSON form leaves it out. */
function valueJson(type: string, value: unknown, nested: NestedDecoder): unknown {
  if (SCALAR_TYPES.has(type)) return scalarJson(type, value);
  return messageJson(type, isPlainObject(value) ? value : {}, nested);
}

function fieldJson(field: CatalogField, value: unknown, nested: NestedDecoder): unknown {
  if (field.mapValue !== null) {
    if (!isPlainObject(value) || Object.keys(value).length === 0) return undefined;
    const valueType = field.mapValue;
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, valueJson(valueType, value[k], nested)]),
    );
  }
  const type = field.type ?? 'string';
  if (field.repeated) {
    if (!Array.isArray(value) || value.length === 0) return undefined;
    return value.map((item: unknown) => valueJson(type, item, nested));
  }
  if (value === undefined && field.pointer) return undefined;
  if (SCALAR_TYPES.has(type)) {
    const json = value === undefined ? zeroScalar(type) : scalarJson(type, value);
    // omitempty drops zero values, but a set pointer is written even when it points to zero.
    return field.omitempty && !field.pointer && isZero(json) ? undefined : json;
  }
  // Non-pointer structs are always written by Go (omitempty has no effect on them).
  return valueJson(type, value, nested);
}

/** Converts a decoded message of catalog type `typeName` to its JSON form. */
export function messageJson(typeName: string, value: Decoded, nested: NestedDecoder): unknown {
  const message = catalogMessage(typeName);
  if (message === undefined) throw badRequest(`protobuf: unknown message ${typeName}`);
  if (message.jsonType !== 'object') return specialJson(typeName, message.jsonType, value, nested);
  const out: Record<string, unknown> = {};
  for (const field of message.fields) {
    const json = fieldJson(field, value[field.name], nested);
    if (json === undefined) continue;
    if (field.inline) {
      if (isPlainObject(json)) Object.assign(out, json);
    } else if (field.jsonName !== null) {
      out[field.jsonName] = json;
    }
  }
  return out;
}

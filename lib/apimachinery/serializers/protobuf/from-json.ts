// JSON object → protobufjs plain object of a catalog message (the inverse of to-json), used to encode protobuf bodies.
import { badRequest } from '../../errors';
import { isPlainObject } from '../../meta/types';
import { catalogMessage, SCALAR_TYPES, type CatalogField } from './catalog';

function timeMessage(value: unknown, micro: boolean): Record<string, number> | undefined {
  if (typeof value !== 'string') return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw badRequest(`invalid time ${JSON.stringify(value)}`);
  const fraction = /\.(\d+)Z$/.exec(value)?.[1] ?? '';
  return { seconds: Math.floor(ms / 1000), nanos: micro ? Number(fraction.padEnd(9, '0').slice(0, 6)) * 1000 : 0 };
}

function specialMessage(typeName: string, jsonType: string, value: unknown): unknown {
  switch (jsonType) {
    case 'date-time':
      return timeMessage(value, typeName.endsWith('.MicroTime'));
    case 'quantity':
      return { string: String(value) };
    case 'int-or-string':
      return typeof value === 'string'
        ? { type: 1, intVal: 0, strVal: value }
        : { type: 0, intVal: Number(value), strVal: '' };
    case 'raw': {
      const raw = Buffer.from(JSON.stringify(value));
      return typeName.endsWith('.FieldsV1') ? { Raw: raw } : { raw };
    }
    case 'array':
      return { items: value };
    default:
      throw badRequest(`protobuf: no JSON conversion for ${typeName}`);
  }
}

function valueMessage(type: string, value: unknown): unknown {
  if (type === 'bytes') return typeof value === 'string' ? Buffer.from(value, 'base64') : value;
  if (SCALAR_TYPES.has(type)) return value;
  return jsonToMessage(type, value);
}

function fieldMessage(field: CatalogField, json: Record<string, unknown>): unknown {
  if (field.inline) return jsonToMessage(field.type ?? '', json);
  const value = field.jsonName === null ? undefined : json[field.jsonName];
  if (value === undefined || value === null) return undefined;
  if (field.mapValue !== null) {
    const valueType = field.mapValue;
    return isPlainObject(value)
      ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, valueMessage(valueType, v)]))
      : undefined;
  }
  const type = field.type ?? 'string';
  if (field.repeated) return Array.isArray(value) ? value.map((item: unknown) => valueMessage(type, item)) : undefined;
  return valueMessage(type, value);
}

/** Converts the JSON form of catalog type `typeName` to the plain object protobufjs' `fromObject` takes. */
export function jsonToMessage(typeName: string, value: unknown): unknown {
  const message = catalogMessage(typeName);
  if (message === undefined) throw badRequest(`protobuf: unknown message ${typeName}`);
  if (message.jsonType !== 'object') return specialMessage(typeName, message.jsonType, value);
  return objectToMessage(typeName, isPlainObject(value) ? value : {});
}

/** The plain protobufjs object of an object-shaped catalog message. */
export function objectToMessage(typeName: string, json: Record<string, unknown>): Record<string, unknown> {
  const message = catalogMessage(typeName);
  if (message === undefined) throw badRequest(`protobuf: unknown message ${typeName}`);
  const out: Record<string, unknown> = {};
  for (const field of message.fields) {
    const converted = fieldMessage(field, json);
    if (converted !== undefined) out[field.name] = converted;
  }
  return out;
}

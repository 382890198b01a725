// An object as Kubernetes writes it after decoding it into its Go type: encoding/json always writes struct fields
// (an absent template's metadata shows `creationTimestamp: null`, an absent container `resources` shows `{}`) and
// fields without omitempty (`desiredReplicas: 0`, `currentMetrics: null`), and leaves out omitempty fields holding
// a zero value (`paused: false`, `labels: {}`). The type catalog's omitempty and pointer facts drive it.
import { catalogMessage, type CatalogField, type CatalogMessage } from './protobuf/catalog';
import { messageNameOf } from './protobuf/kinds';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const SCALARS = new Set(['string', 'int32', 'int64', 'bool', 'bytes', 'double']);

/** What a non-pointer value of a custom-JSON message writes when zero (Time and RawExtension write null). */
const ZERO_SPECIAL: Readonly<Record<string, unknown>> = { 'date-time': null, quantity: '0', 'int-or-string': 0, raw: null, string: '0s' };

function zeroScalar(type: string): unknown {
  if (type === 'string' || type === 'bytes') return '';
  return type === 'bool' ? false : 0;
}

/** A scalar Go's omitempty leaves out: false, 0, "". */
function isZeroScalar(value: unknown): boolean {
  return value === false || value === 0 || value === '';
}

/** The value an unset field writes, or undefined when it is left out. */
function unsetValue(field: CatalogField, message: CatalogMessage | undefined): unknown {
  if (field.repeated) return field.omitempty ? undefined : null; // a nil slice or map
  if (field.pointer) return field.omitempty ? undefined : null;
  if (message === undefined) return field.omitempty ? undefined : zeroScalar(field.type ?? 'string');
  // A struct is never empty to omitempty.
  if (message.jsonType === 'object') return shapeMessage(message, {});
  return message.jsonType in ZERO_SPECIAL ? ZERO_SPECIAL[message.jsonType] : undefined;
}

function shapeValue(typeName: string, value: unknown): unknown {
  if (SCALARS.has(typeName)) return value;
  const message = catalogMessage(typeName);
  return message !== undefined && message.jsonType === 'object' && isObject(value) ? shapeMessage(message, value) : value;
}

/** The field's present value as written, or undefined when omitempty leaves it out. */
function presentValue(field: CatalogField, value: unknown): unknown {
  if (field.mapValue !== null) {
    if (!isObject(value)) return value;
    const keys = Object.keys(value);
    if (keys.length === 0 && field.omitempty) return undefined;
    const valueType = field.mapValue;
    if (SCALARS.has(valueType)) return value;
    const out: Json = {};
    for (const key of keys) out[key] = shapeValue(valueType, value[key]);
    return out;
  }
  if (field.repeated) {
    if (!Array.isArray(value)) return value;
    if (value.length === 0 && field.omitempty) return undefined;
    const itemType = field.type ?? 'string';
    return SCALARS.has(itemType) ? value : value.map((item) => shapeValue(itemType, item));
  }
  if (field.type !== null && SCALARS.has(field.type)) return field.omitempty && !field.pointer && isZeroScalar(value) ? undefined : value;
  return shapeValue(field.type ?? 'string', value);
}

function shapeFields(message: CatalogMessage, value: Json, out: Json): void {
  for (const field of message.fields) {
    const nested = field.type !== null && !SCALARS.has(field.type) ? catalogMessage(field.type) : undefined;
    if (field.inline) {
      if (nested !== undefined) shapeFields(nested, value, out);
      continue;
    }
    const name = field.jsonName;
    if (name === null) continue;
    const current = value[name];
    // Go decodes null as the zero value: it writes what an unset field writes.
    const written = current === undefined || current === null ? unsetValue(field, nested) : presentValue(field, current);
    if (written === undefined) delete out[name];
    else out[name] = written;
  }
}

function shapeMessage(message: CatalogMessage, value: Json): Json {
  // Properties the catalog does not know (apiVersion and kind of a root object) stay as they are, in place.
  const out: Json = { ...value };
  shapeFields(message, value, out);
  return out;
}

/**
 * `obj` as Kubernetes 1.26 would write it after decoding it into the Go type of its apiVersion and kind; objects
 * of kinds the catalog does not describe are returned unchanged. The result is a new object; `obj` is not changed.
 */
export function goShape<T extends object>(obj: T): T {
  const { apiVersion, kind } = obj as { apiVersion?: unknown; kind?: unknown };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return obj;
  const name = messageNameOf(apiVersion, kind);
  const message = name === undefined ? undefined : catalogMessage(name);
  return message === undefined ? obj : (shapeMessage(message, obj as Json) as T);
}

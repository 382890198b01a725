// An object as Kubernetes writes it after decoding it into its Go type: encoding/json always writes struct fields
// (an absent template's metadata shows `creationTimestamp: null`, an absent container `resources` shows `{}`) and
// fields without omitempty (`desiredReplicas: 0`, `currentMetrics: null`), and leaves out omitempty fields holding
// a zero value (`paused: false`, `labels: {}`). The type catalog's omitempty and pointer facts drive it, through a
// plan compiled once per message.
import { isPlainObject } from '../meta/types';
import { catalogMessage, type CatalogField } from './protobuf/catalog';
import { messageNameOf } from './protobuf/kinds';

type Json = Record<string, unknown>;

const SCALARS = new Set(['string', 'int32', 'int64', 'bool', 'bytes', 'double']);

/** What a non-pointer value of a custom-JSON message writes when zero (Time and RawExtension write null). */
const ZERO_SPECIAL: Readonly<Record<string, unknown>> = {
  'date-time': null,
  quantity: '0',
  'int-or-string': 0,
  raw: null,
  string: '0s',
};

/** One JSON property of a message (inline fields are flattened into their parent's list). */
interface FieldPlan {
  name: string;
  /** list, map, a plain-object message, or anything kept as it is when present (scalars, custom-JSON messages). */
  shape: 'list' | 'map' | 'message' | 'value';
  /** Omitempty scalar that Go leaves out when false, 0 or "" (not pointers: a set pointer is written). */
  dropsZero: boolean;
  /** Empty lists and maps are left out (omitempty). */
  dropsEmpty: boolean;
  /** The message of a `message` field, or of a list's items / a map's values; null for scalars and custom JSON. */
  nested: MessagePlan | null;
  /** What an unset (or null) field writes: undefined leaves it out; `STRUCT` writes the nested message's zero. */
  unset: unknown;
}

interface MessagePlan {
  fields: FieldPlan[];
}

const STRUCT = Symbol('struct');
const plans = new Map<string, MessagePlan | null>();

function zeroScalar(type: string): unknown {
  if (type === 'string' || type === 'bytes') return '';
  return type === 'bool' ? false : 0;
}

/** The plan of an object-shaped catalog message; null for scalars, custom-JSON and unknown messages. */
function planOf(typeName: string): MessagePlan | null {
  if (SCALARS.has(typeName)) return null;
  const cached = plans.get(typeName);
  if (cached !== undefined) return cached;
  const message = catalogMessage(typeName);
  if (message === undefined || message.jsonType !== 'object') {
    plans.set(typeName, null);
    return null;
  }
  const plan: MessagePlan = { fields: [] };
  plans.set(typeName, plan); // before the fields: a message may reach itself through pointers
  for (const field of message.fields) plan.fields.push(...fieldPlans(field));
  return plan;
}

function unsetOf(field: CatalogField, typeName: string): unknown {
  if (field.repeated || field.pointer) return field.omitempty ? undefined : null; // nil slice, map or pointer
  if (SCALARS.has(typeName)) return field.omitempty ? undefined : zeroScalar(typeName);
  const message = catalogMessage(typeName);
  if (message === undefined) return undefined;
  // A struct is never empty to omitempty.
  if (message.jsonType === 'object') return STRUCT;
  return message.jsonType in ZERO_SPECIAL ? ZERO_SPECIAL[message.jsonType] : undefined;
}

function fieldPlans(field: CatalogField): FieldPlan[] {
  const typeName = field.mapValue ?? field.type ?? 'string';
  if (field.inline) return planOf(typeName)?.fields ?? [];
  if (field.jsonName === null) return [];
  const shape =
    field.mapValue !== null ? 'map' : field.repeated ? 'list' : planOf(typeName) !== null ? 'message' : 'value';
  return [
    {
      name: field.jsonName,
      shape,
      dropsZero: shape === 'value' && field.omitempty && !field.pointer && SCALARS.has(typeName),
      dropsEmpty: field.omitempty && (shape === 'list' || shape === 'map'),
      nested: planOf(typeName),
      unset: unsetOf(field, typeName),
    },
  ];
}

function shapeNested(plan: MessagePlan | null, value: unknown): unknown {
  return plan !== null && isPlainObject(value) ? shapeObject(plan, value) : value;
}

/** The items shaped; the same array when no item changed. */
function shapeItems(plan: MessagePlan, items: unknown[]): unknown[] {
  let out: unknown[] | undefined;
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    const shaped = shapeNested(plan, item);
    if (shaped !== item) (out ??= items.slice())[i] = shaped;
  }
  return out ?? items;
}

/** The map's values shaped; the same object when no value changed. */
function shapeValues(plan: MessagePlan, values: Json): Json {
  let out: Json | undefined;
  for (const key in values) {
    const value = values[key];
    const shaped = shapeNested(plan, value);
    if (shaped !== value) (out ??= { ...values })[key] = shaped;
  }
  return out ?? values;
}

function isEmptyObject(value: Json): boolean {
  for (const _key in value) return false;
  return true;
}

/** The field's present value as written (the same value when nothing changes), or undefined when omitempty leaves it out. */
function presentValue(field: FieldPlan, value: unknown): unknown {
  switch (field.shape) {
    case 'value':
      return field.dropsZero && (value === false || value === 0 || value === '') ? undefined : value;
    case 'message':
      return shapeNested(field.nested, value);
    case 'list':
      if (!Array.isArray(value)) return value;
      if (value.length === 0) return field.dropsEmpty ? undefined : value;
      return field.nested === null ? value : shapeItems(field.nested, value);
    case 'map':
      if (!isPlainObject(value)) return value;
      if (isEmptyObject(value)) return field.dropsEmpty ? undefined : value;
      return field.nested === null ? value : shapeValues(field.nested, value);
  }
}

/** The object shaped; the same object when it already has Go's shape (so a second pass allocates nothing). */
function shapeObject(plan: MessagePlan, value: Json): Json {
  // Properties the catalog does not know (apiVersion and kind of a root object) stay as they are, in place.
  let out: Json | undefined;
  for (const field of plan.fields) {
    const current = value[field.name];
    // Go decodes null as the zero value: it writes what an unset field writes.
    const written =
      current === undefined || current === null
        ? field.unset === STRUCT
          ? shapeObject(field.nested as MessagePlan, {})
          : field.unset
        : presentValue(field, current);
    if (written === current) continue;
    out ??= { ...value };
    if (written === undefined) delete out[field.name];
    else out[field.name] = written;
  }
  return out ?? value;
}

/**
 * `obj` as Kubernetes 1.26 would write it after decoding it into the Go type of its apiVersion and kind; objects
 * of kinds the catalog does not describe are returned unchanged. `obj` is not changed: the result is `obj` itself
 * when it already has Go's shape, else a new object sharing the parts that do.
 */
export function goShape<T extends object>(obj: T): T {
  const { apiVersion, kind } = obj as { apiVersion?: unknown; kind?: unknown };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string') return obj;
  const name = messageNameOf(apiVersion, kind);
  const plan = name === undefined ? null : planOf(name);
  return plan === null ? obj : (shapeObject(plan, obj as Json) as T);
}

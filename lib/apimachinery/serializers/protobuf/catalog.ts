// The Kubernetes 1.26 type catalog (catalog.json, trimmed from shared/data/k8s-1.26-types.json) and protobufjs types built from it.
import * as protobuf from 'protobufjs';
import catalogJson from './catalog.json';
import authCatalogJson from './catalog-auth.json';

// catalog.json = shared/data/k8s-1.26-types.json with only protobuf messages and, per field, name, number, type,
// repeated (label), mapValue (map.value; keys are always string), jsonType, jsonName, inline (jsonInline),
// omitempty and pointer (goPointer); per message, jsonType is jsonRepresentation.jsonType or `object`.

/** One proto field with the JSON facts the converters need. */
export interface CatalogField {
  name: string;
  number: number;
  /** Scalar name or message full name; null for maps. */
  type: string | null;
  repeated: boolean;
  /** Value type of a `map<string, V>` field (scalar or message full name). */
  mapValue: string | null;
  jsonType: string;
  jsonName: string | null;
  /** `json:",inline"`: the sub-message's properties sit in the parent JSON object. */
  inline: boolean;
  omitempty: boolean;
  pointer: boolean;
}

export interface CatalogMessage {
  /** `object`, or the custom JSON form: date-time, quantity, int-or-string, raw, array, string. */
  jsonType: string;
  fields: CatalogField[];
}

interface Catalog {
  messages: Record<string, CatalogMessage>;
}

/** Plus the auth kinds the shared catalog lacks (tools/auth-catalog.py). */
const catalog: Catalog = { messages: { ...(authCatalogJson as Catalog).messages, ...catalogJson.messages } };

export function catalogMessage(fullName: string): CatalogMessage | undefined {
  return catalog.messages[fullName];
}

export const SCALAR_TYPES = new Set(['string', 'int32', 'int64', 'bool', 'bytes', 'double']);

type NestedJson = {
  nested?: Record<string, NestedJson>;
  edition?: string;
  fields?: Record<string, protobuf.IField & { rule?: string; keyType?: string }>;
};

/** Proto full names as nested namespaces, each field referring to absolute (`.`-prefixed) type names. */
function rootJson(): NestedJson {
  const root: NestedJson = {};
  for (const [fullName, message] of Object.entries(catalog.messages)) {
    let node = root;
    for (const part of fullName.split('.')) {
      node.nested ??= {};
      node = node.nested[part] ??= {};
    }
    const fields: NonNullable<NestedJson['fields']> = {};
    for (const f of message.fields) {
      const ref = (t: string): string => (SCALAR_TYPES.has(t) ? t : `.${t}`);
      if (f.mapValue !== null) fields[f.name] = { id: f.number, type: ref(f.mapValue), keyType: 'string' };
      else if (f.type !== null)
        fields[f.name] = { id: f.number, type: ref(f.type), ...(f.repeated ? { rule: 'repeated' } : {}) };
    }
    node.fields = fields;
    // Kubernetes' generated.proto files are proto2: explicit presence, so a pointer set to 0 or "" survives decoding.
    node.edition = 'proto2';
  }
  return root;
}

let root: protobuf.Root | undefined;

/** The protobufjs type of a catalog message, built on first use. */
export function protoType(fullName: string): protobuf.Type {
  root ??= protobuf.Root.fromJSON(rootJson());
  return root.lookupType(fullName);
}

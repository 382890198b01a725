// The Kubernetes 1.26 type catalog (k8s-1.26-types.json, see PROVENANCE.md) and the Go type names of its fields, loaded once.
import catalogJson from './k8s-1.26-types.json';
import goTypesJson from './go-types.json';
import authTypesJson from './k8s-1.26-auth-types.json';

/** One proto field of the catalog, with the JSON facts the schema needs (shared/data/README.md). */
export interface CatalogField {
  name: string;
  /** Scalar name or message full name; null for map fields. */
  type: string | null;
  label: string;
  map: { key: string; value: string } | null;
  patchStrategy: string | null;
  patchMergeKey: string | null;
  listType: string | null;
  listMapKeys: string[] | null;
  mapType: string | null;
  structType: string | null;
  required: boolean;
  jsonType: string;
  format: string | null;
  itemJsonType: string | null;
  /** null for `jsonInline` fields and in messages with a custom JSON form. */
  jsonName: string | null;
  jsonInline: boolean;
  goPointer: boolean | null;
}

/** `kind`/`apiVersion` from an inline TypeMeta: JSON properties without a proto field. */
export interface CatalogJsonOnlyField {
  name: string;
  jsonType: string;
  required: boolean;
}

export interface CatalogMessage {
  package: string;
  name: string;
  /** Set for messages whose JSON form is not an object (Time, Quantity, IntOrString, RawExtension…). */
  jsonRepresentation: { jsonType: string; format: string | null; itemJsonType: string | null } | null;
  structType: string | null;
  mapType: string | null;
  jsonOnlyFields: CatalogJsonOnlyField[];
  fields: CatalogField[];
}

interface Catalog {
  version: string;
  roots: string[];
  messages: Record<string, CatalogMessage>;
}

interface GoTypes {
  /** Named non-struct types → their underlying type (`v1.ResourceList` → `map[v1.ResourceName]resource.Quantity`). */
  named: Record<string, string>;
  /** Message full name → JSON field name → Go type (`*int32`, `[]v1.Container`, `v1.PullPolicy`). */
  fields: Record<string, Record<string, string>>;
}

// JSON modules are typed by inference; the declared interfaces above are the subset this code reads.
// The auth kinds the shared catalog lacks (authorization/v1, authentication/v1, ServiceAccount) come from a supplement
// in the same format (tools/auth-catalog.py, see PROVENANCE.md).
const supplement = authTypesJson as unknown as {
  messages: Record<string, CatalogMessage>;
  goTypes: Record<string, Record<string, string>>;
};
const base = catalogJson as unknown as Catalog;
// The supplement only adds: a message both hold (core/v1 ObjectReference) keeps the shared catalog's facts.
const catalog: Catalog = { ...base, messages: { ...supplement.messages, ...base.messages } };
const goTypes: GoTypes = {
  ...(goTypesJson as GoTypes),
  fields: { ...supplement.goTypes, ...(goTypesJson as GoTypes).fields },
};

export const CATALOG_VERSION = catalog.version;

export function catalogMessage(fullName: string): CatalogMessage | undefined {
  return catalog.messages[fullName];
}

/** The Go type of a message's JSON field as the catalog's sources declare it. */
export function goFieldType(messageFullName: string, jsonName: string): string | undefined {
  return goTypes.fields[messageFullName]?.[jsonName];
}

/** The underlying type of a named slice or map type (`v1.Verbs` → `[]string`). */
export function goUnderlyingType(named: string): string | undefined {
  return goTypes.named[named];
}

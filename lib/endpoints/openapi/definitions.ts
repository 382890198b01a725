// Component schemas (definitions) built from the type catalog: every message reachable from the roots, with
// types, formats, defaults, required lists and the list/map/patch extensions, in kube-openapi's shapes.
import { catalogMessage, type CatalogField, type CatalogMessage } from '../../apimachinery/schema/catalog';
import { fieldDescription, typeDescription } from '../../apimachinery/schema/descriptions';
import { definitionName, type Gvk } from './definition-names';
import { setExtension, type Json, type SchemaStyle } from './schema-style';

/** The catalog keeps the Go `omitempty` tag on every field; the declared CatalogField type leaves it out. */
type FieldWithTags = CatalogField & { omitempty?: boolean | null };

const SCALARS: Readonly<Record<string, { schema: Json; zero: unknown }>> = {
  string: { schema: { type: 'string' }, zero: '' },
  int32: { schema: { type: 'integer', format: 'int32' }, zero: 0 },
  int64: { schema: { type: 'integer', format: 'int64' }, zero: 0 },
  bool: { schema: { type: 'boolean' }, zero: false },
  double: { schema: { type: 'number', format: 'double' }, zero: 0 },
  bytes: { schema: { type: 'string', format: 'byte' }, zero: undefined },
};

const NO_DEFAULT = Symbol('no default');

class DefinitionBuilder {
  readonly definitions: Record<string, Json> = {};
  readonly #pending: string[] = [];
  readonly #seen = new Set<string>();

  constructor(
    readonly style: SchemaStyle,
    readonly gvks: ReadonlyMap<string, Gvk[]>,
  ) {}

  /** A `$ref` to a message's definition (queued for building), with sibling keywords as the style allows. */
  ref(messageFullName: string, siblings: Json = {}): Json {
    this.#queue(messageFullName);
    const ref = { $ref: `${this.style.refPrefix}${definitionName(messageFullName)}` };
    if (Object.keys(siblings).length === 0) return ref;
    return this.style.wrapRefs ? { allOf: [ref], ...siblings } : { ...ref, ...siblings };
  }

  #queue(name: string): void {
    if (this.#seen.has(name)) return;
    this.#seen.add(name);
    this.#pending.push(name);
  }

  build(roots: Iterable<string>): Record<string, Json> {
    for (const root of roots) this.#queue(root);
    for (let name = this.#pending.shift(); name !== undefined; name = this.#pending.shift()) {
      const message = catalogMessage(name);
      if (!message) throw new Error(`openapi: the type catalog has no message ${name}`);
      this.definitions[definitionName(name)] = this.#definition(name, message);
    }
    return this.definitions;
  }

  #definition(name: string, message: CatalogMessage): Json {
    const description = typeDescription(name);
    const repr = message.jsonRepresentation;
    if (repr !== null)
      return withDescription(this.#nonObjectDefinition(repr.jsonType, repr.format, repr.itemJsonType), description);
    const properties: Record<string, Json> = {};
    const required: string[] = [];
    this.#collect(name, message, properties, required);
    const def: Json = withDescription({ type: 'object', properties: sortedByKey(properties) }, description);
    if (required.length > 0) def['required'] = required;
    const mapType = message.structType ?? message.mapType;
    if (mapType) setExtension(def, 'map-type', mapType);
    const gvks = this.gvks.get(name);
    if (gvks)
      setExtension(
        def,
        'group-version-kind',
        gvks.map((g) => ({ group: g.group, kind: g.kind, version: g.version })),
      );
    return def;
  }

  /** Properties of a message, `json:",inline"` members flattened in as Go's encoder does. */
  #collect(name: string, message: CatalogMessage, properties: Record<string, Json>, required: string[]): void {
    for (const f of message.jsonOnlyFields) {
      properties[f.name] = withDescription({ type: 'string' }, fieldDescription(name, f.name));
      if (f.required) required.push(f.name);
    }
    for (const field of message.fields) {
      if (field.jsonInline && field.type !== null) {
        const inlined = catalogMessage(field.type);
        if (!inlined) throw new Error(`openapi: the type catalog has no message ${field.type}`);
        this.#collect(field.type, inlined, properties, required);
      } else if (field.jsonName !== null) {
        properties[field.jsonName] = this.#field(field, fieldDescription(name, field.jsonName));
        if (field.required) required.push(field.jsonName);
      }
    }
  }

  #field(field: FieldWithTags, description: string | undefined): Json {
    const ext: Json = withDescription({}, description);
    if (field.listType) setExtension(ext, 'list-type', field.listType);
    if (field.listMapKeys && field.listMapKeys.length > 0) setExtension(ext, 'list-map-keys', field.listMapKeys);
    const mapType = field.mapType ?? field.structType;
    if (mapType) setExtension(ext, 'map-type', mapType);
    if (field.patchMergeKey) setExtension(ext, 'patch-merge-key', field.patchMergeKey);
    if (field.patchStrategy) setExtension(ext, 'patch-strategy', field.patchStrategy);
    if (field.map !== null) return { type: 'object', additionalProperties: this.#element(field.map.value), ...ext };
    if (field.type === null) throw new Error(`openapi: catalog field ${field.name} has no type`);
    if (field.label === 'repeated') return { type: 'array', items: this.#element(field.type), ...ext };
    // kube-openapi's enforced defaults: pointers get none; structs `{}`; scalars their zero value unless omitempty.
    const omitEmpty = field.omitempty === true || field.goPointer === true;
    return this.#value(field.type, field.goPointer === true ? NO_DEFAULT : undefined, omitEmpty, ext);
  }

  /** A list item or map value: never omitted, so it carries its type's enforced default. */
  #element(typeRef: string): Json {
    return this.#value(typeRef, undefined, false, {});
  }

  #value(typeRef: string, forced: typeof NO_DEFAULT | undefined, omitEmpty: boolean, ext: Json): Json {
    const scalar = SCALARS[typeRef];
    if (scalar) {
      const schema: Json = { ...scalar.schema };
      if (forced !== NO_DEFAULT && !omitEmpty && scalar.zero !== undefined) schema['default'] = scalar.zero;
      return { ...schema, ...ext };
    }
    const message = catalogMessage(typeRef);
    if (!message) throw new Error(`openapi: the type catalog has no message ${typeRef}`);
    // Types with their own OpenAPI form (Time, Quantity, IntOrString, RawExtension…) get no enforced default.
    const siblings: Json =
      forced !== NO_DEFAULT && message.jsonRepresentation === null ? { default: {}, ...ext } : { ...ext };
    return this.ref(typeRef, siblings);
  }

  #nonObjectDefinition(jsonType: string, format: string | null, itemJsonType: string | null): Json {
    switch (jsonType) {
      case 'int-or-string': {
        const def: Json = { ...this.style.intOrString };
        setExtension(def, 'int-or-string', true);
        return def;
      }
      case 'quantity':
        return { ...this.style.quantity };
      case 'date-time':
        return { type: 'string', format: 'date-time' };
      case 'string':
        return { type: 'string' };
      case 'raw':
        return { type: 'object' };
      case 'array':
        return { type: 'array', items: { type: itemJsonType ?? 'string', default: '' } };
      default:
        throw new Error(`openapi: unsupported JSON form ${jsonType} (${format ?? 'no format'})`);
    }
  }
}

/** kube-openapi writes a description first, before the schema's other keywords. */
function withDescription(schema: Json, description: string | undefined): Json {
  return description === undefined ? schema : { description, ...schema };
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Every definition reachable from the root messages (catalog full names), keyed by definition name. */
export function buildDefinitions(
  roots: Iterable<string>,
  style: SchemaStyle,
  gvks: ReadonlyMap<string, Gvk[]>,
): Record<string, Json> {
  return sortedByKey(new DefinitionBuilder(style, gvks).build(roots));
}

// Builds SchemaNodes from catalog messages: Kubernetes' JSON forms of the special types, inline members flattened, lazily and once.
import type { CatalogField, CatalogMessage } from './catalog';
import { catalogMessage, goFieldType, goUnderlyingType } from './catalog';
import type { ListType, MapType, NodeType, SchemaNode } from './node';
import { NO_FIELD_FACTS, treeNode, type FieldFacts, type StructShape } from './tree-node';

/** The properties of one message, shared by every node of that message type. */
class MessageShape implements StructShape {
  readonly goStruct: string;
  readonly mapType: MapType | undefined;
  #fields: Map<string, SchemaNode> | undefined;

  constructor(
    readonly message: CatalogMessage,
    readonly fullName: string,
  ) {
    this.goStruct = message.name;
    this.mapType = asMapType(message.structType ?? message.mapType);
  }

  fields(): Map<string, SchemaNode> {
    if (this.#fields) return this.#fields;
    const fields = new Map<string, SchemaNode>();
    for (const f of this.message.jsonOnlyFields) {
      fields.set(
        f.name,
        treeNode({
          type: 'string',
          goType: 'string',
          nullable: false,
          facts: { ...NO_FIELD_FACTS, required: f.required },
        }),
      );
    }
    addFields(fields, this.message, this.fullName);
    this.#fields = fields;
    return fields;
  }
}

/** Adds a message's JSON properties, recursing into `json:",inline"` members (their Go types are their own message's). */
function addFields(into: Map<string, SchemaNode>, message: CatalogMessage, fullName: string): void {
  for (const field of message.fields) {
    if (field.jsonInline && field.type !== null) {
      const inlined = catalogMessage(field.type);
      if (!inlined) throw new Error(`type catalog: ${fullName}.${field.name} inlines unknown ${field.type}`);
      addFields(into, inlined, field.type);
    } else if (field.jsonName !== null) {
      into.set(field.jsonName, fieldNode(field, goFieldType(fullName, field.jsonName) ?? field.type ?? 'string'));
    }
  }
}

function asMapType(value: string | null): MapType | undefined {
  return value === 'atomic' || value === 'granular' ? value : undefined;
}

function asListType(value: string | null): ListType | undefined {
  return value === 'atomic' || value === 'set' || value === 'map' ? value : undefined;
}

/** `*int32` → `int32`: the decoder reports the pointed-to type. */
const derefGo = (goType: string): string => goType.replace(/^\*+/, '');

/** Element type of a Go slice type (`[]v1.Container` → `v1.Container`), through a named slice type. */
function goElementType(goType: string): string {
  const t = derefGo(goType);
  if (t.startsWith('[]')) return t.slice(2);
  const underlying = goUnderlyingType(t);
  return underlying?.startsWith('[]') ? underlying.slice(2) : 'string';
}

/** Value type of a Go map type (`map[string]string` → `string`), through a named map type. */
function goMapValueType(goType: string): string {
  let t = derefGo(goType);
  if (!t.startsWith('map[')) t = goUnderlyingType(t) ?? 'map[string]string';
  let depth = 0;
  for (let i = 3; i < t.length; i += 1) {
    if (t[i] === '[') depth += 1;
    else if (t[i] === ']') {
      depth -= 1;
      if (depth === 0) return t.slice(i + 1);
    }
  }
  return 'string';
}

function fieldFacts(field: CatalogField): FieldFacts {
  return {
    required: field.required,
    patchStrategy: field.patchStrategy ?? undefined,
    patchMergeKey: field.patchMergeKey ?? undefined,
    listType: asListType(field.listType),
    listMapKeys: field.listMapKeys && field.listMapKeys.length > 0 ? field.listMapKeys : undefined,
    mapType: asMapType(field.mapType ?? field.structType),
  };
}

function fieldNode(field: CatalogField, goType: string): SchemaNode {
  const facts = fieldFacts(field);
  const nullable =
    field.goPointer === true || /^(\*|\[\]|map\[)/.test(goType) || goUnderlyingType(goType) !== undefined;
  if (field.map !== null) {
    const valueType = field.map.value;
    return treeNode({
      type: 'map',
      goType: derefGo(goType),
      nullable: true,
      facts,
      values: () => typeNode(valueType, goMapValueType(goType), NO_FIELD_FACTS, false),
    });
  }
  if (field.type === null) throw new Error(`type catalog: field ${field.name} has no type`);
  if (field.label === 'repeated') {
    const itemType = field.type;
    return treeNode({
      type: 'array',
      goType: derefGo(goType),
      nullable: true,
      facts,
      items: () => typeNode(itemType, goElementType(goType), NO_FIELD_FACTS, false),
    });
  }
  return typeNode(field.type, goType, facts, nullable);
}

const SCALARS: Readonly<Record<string, { type: NodeType; format?: string }>> = {
  string: { type: 'string' },
  int32: { type: 'integer', format: 'int32' },
  int64: { type: 'integer', format: 'int64' },
  bool: { type: 'boolean' },
  double: { type: 'number', format: 'double' },
  bytes: { type: 'bytes', format: 'byte' },
};

const shapes = new Map<string, MessageShape>();

function shapeOf(fullName: string, message: CatalogMessage): MessageShape {
  let shape = shapes.get(fullName);
  if (!shape) {
    shape = new MessageShape(message, fullName);
    shapes.set(fullName, shape);
  }
  return shape;
}

/** The Go package name of a proto package (`k8s.io.api.apps.v1` → `v1`, `…util.intstr` → `intstr`). */
const goPackageName = (protoPackage: string): string => protoPackage.slice(protoPackage.lastIndexOf('.') + 1);

/** A node for a value of catalog type `typeRef` (scalar or message full name). */
function typeNode(typeRef: string, goType: string, facts: FieldFacts, nullable: boolean): SchemaNode {
  const go = derefGo(goType);
  const scalar = SCALARS[typeRef];
  if (scalar) return treeNode({ ...scalar, goType: go, nullable, facts });
  const message = catalogMessage(typeRef);
  if (!message) throw new Error(`type catalog: unknown type ${typeRef}`);
  const repr = message.jsonRepresentation;
  if (repr === null) {
    return treeNode({ type: 'object', goType: go, nullable, facts, shape: shapeOf(typeRef, message) });
  }
  const goName = `${goPackageName(message.package)}.${message.name}`;
  switch (repr.jsonType) {
    case 'array': // metav1.Verbs: a named []string
      return treeNode({
        type: 'array',
        goType: goName,
        nullable: true,
        facts,
        items: () => typeNode(repr.itemJsonType ?? 'string', 'string', NO_FIELD_FACTS, false),
      });
    case 'date-time':
      return treeNode({
        type: message.name === 'MicroTime' ? 'micro-time' : 'date-time',
        format: 'date-time',
        goType: goName,
        nullable,
        facts,
      });
    case 'string':
      return treeNode({
        type: repr.format === 'duration' ? 'duration' : 'string',
        format: repr.format ?? undefined,
        goType: goName,
        nullable,
        facts,
      });
    case 'int-or-string':
    case 'quantity':
    case 'raw':
      return treeNode({ type: repr.jsonType, format: repr.format ?? undefined, goType: goName, nullable, facts });
    default:
      throw new Error(`type catalog: ${typeRef} has an unsupported JSON form ${repr.jsonType}`);
  }
}

/** The root node of a catalog message (a kind): an `object` node without field facts. */
export function messageNode(fullName: string): SchemaNode {
  const message = catalogMessage(fullName);
  if (!message || message.jsonRepresentation !== null)
    throw new Error(`type catalog: ${fullName} is not an object message`);
  return treeNode({
    type: 'object',
    goType: `${goPackageName(message.package)}.${message.name}`,
    nullable: false,
    facts: NO_FIELD_FACTS,
    shape: shapeOf(fullName, message),
  });
}

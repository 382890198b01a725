// The one way SchemaNodes are made: facts fixed at construction, children (items, values, properties) resolved on first use.
import type { ListType, MapType, NodeType, SchemaNode } from './node';

/** Facts of the field that leads to a node; blank for list items, map values and roots. */
export interface FieldFacts {
  required: boolean;
  patchStrategy: string | undefined;
  patchMergeKey: string | undefined;
  listType: ListType | undefined;
  listMapKeys: readonly string[] | undefined;
  mapType: MapType | undefined;
}

export const NO_FIELD_FACTS: FieldFacts = {
  required: false,
  patchStrategy: undefined,
  patchMergeKey: undefined,
  listType: undefined,
  listMapKeys: undefined,
  mapType: undefined,
};

/** The properties of an object node, shared by every node of one struct type. */
export interface StructShape {
  readonly goStruct: string;
  /** The struct type's own `+structType`/`+mapType`, used when the field names none. */
  readonly mapType: MapType | undefined;
  fields(): ReadonlyMap<string, SchemaNode>;
}

export interface NodeSpec {
  type: NodeType;
  format?: string | undefined;
  goType: string;
  nullable: boolean;
  facts?: FieldFacts;
  shape?: StructShape;
  items?: () => SchemaNode;
  values?: () => SchemaNode;
}

const NO_FIELDS: ReadonlyMap<string, SchemaNode> = new Map();

export function treeNode(spec: NodeSpec): SchemaNode {
  const facts = spec.facts ?? NO_FIELD_FACTS;
  const shape = spec.shape;
  let items: SchemaNode | undefined;
  let values: SchemaNode | undefined;
  let fields: ReadonlyMap<string, SchemaNode> | undefined;
  const fieldsOf = (): ReadonlyMap<string, SchemaNode> => (fields ??= shape?.fields() ?? NO_FIELDS);
  return {
    type: spec.type,
    format: spec.format ?? undefined,
    goType: spec.goType,
    goStruct: shape?.goStruct,
    nullable: spec.nullable,
    ...facts,
    mapType: facts.mapType ?? shape?.mapType,
    get items() {
      return (items ??= spec.items?.());
    },
    get values() {
      return (values ??= spec.values?.());
    },
    get fieldNames() {
      return [...fieldsOf().keys()];
    },
    fieldAt: (name) => fieldsOf().get(name),
  };
}

// Schema nodes not taken from the catalog: Go's interface{} and map[string]interface{}, and small structs described in code.
import type { SchemaNode } from './node';
import { treeNode } from './tree-node';

/** Go's `interface{}`: any JSON; repeated keys inside are still reported by a strict decode. */
export const ANY_NODE: SchemaNode = treeNode({ type: 'any', goType: 'interface {}', nullable: true });

/** Go's `map[string]interface{}`: a JSON object of anything (a merge or strategic patch body). */
export const ANY_MAP_NODE: SchemaNode = treeNode({
  type: 'map',
  goType: 'map[string]interface {}',
  nullable: true,
  values: () => ANY_NODE,
});

/** A Go string. */
export const STRING_NODE: SchemaNode = treeNode({ type: 'string', goType: 'string', nullable: false });

/** A Go struct `goStruct` (package-qualified as `goType`) with the given JSON fields. */
export function structNode(goType: string, goStruct: string, fields: Readonly<Record<string, SchemaNode>>): SchemaNode {
  const map = new Map(Object.entries(fields));
  return treeNode({
    type: 'object',
    goType,
    nullable: false,
    shape: { goStruct, mapType: undefined, fields: () => map },
  });
}

/** A Go slice of `items`. */
export function sliceNode(items: SchemaNode): SchemaNode {
  return treeNode({ type: 'array', goType: `[]${items.goType}`, nullable: true, items: () => items });
}

// PatchMeta of a served kind, read from the schema module's type-catalog nodes (patch tags, list items, map values).
import { schemaFor, type SchemaNode } from '../schema';
import type { PatchMeta } from './patch-meta';

/** Go kinds of node types, for `cannot merge lists without merge key for <kind>`. */
function goKindOf(node: SchemaNode): string {
  switch (node.type) {
    case 'map':
      return 'map';
    case 'array':
      return 'slice';
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return 'float64';
    case 'integer':
      return node.format ?? 'int64';
    default:
      return 'struct';
  }
}

const metas = new WeakMap<SchemaNode, PatchMeta>();

function patchMetaOf(node: SchemaNode): PatchMeta {
  const cached = metas.get(node);
  if (cached) return cached;
  const child = (name: string): SchemaNode | undefined => (node.type === 'map' ? node.values : node.fieldAt(name));
  const meta: PatchMeta = {
    patchStrategies: node.patchStrategy ? node.patchStrategy.split(',') : [],
    ...(node.patchMergeKey ? { patchMergeKey: node.patchMergeKey } : {}),
    goKind: goKindOf(node),
    field: (name) => {
      const found = child(name);
      return found && patchMetaOf(found);
    },
    items: () => node.items && patchMetaOf(node.items),
  };
  metas.set(node, meta);
  return meta;
}

/** Patch metadata of a top-level kind (`apps/v1`, `Deployment`), or undefined when the catalog does not have it. */
export function patchMetaForKind(apiVersion: string, kind: string): PatchMeta | undefined {
  const node = schemaFor(apiVersion, kind);
  return node && patchMetaOf(node);
}

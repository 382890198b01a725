// Public edge of the schema package: group/version names, the type catalog's kind schemas and their node API.
export * from './group-version';
export * from './scheme';
export type { ListType, MapType, NodeType, SchemaNode } from './node';
export { messageNameFor, schemaFor } from './kinds';
export { messageNode } from './catalog-node';
export { CATALOG_VERSION } from './catalog';

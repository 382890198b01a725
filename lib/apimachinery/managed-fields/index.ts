// Public edge of managed fields: field sets and FieldsV1, the field manager of a write path, reset fields.
export { FieldSet } from './field-set';
export type { Path, PathElement } from './path-element';
export { field, keyElement, pathString, serializePathElement } from './path-element';
export { applyToObject, updateManagedFields, type FieldManagerScope } from './field-manager';
export type { VersionView } from './updater';
export { RESET_SPEC, RESET_STATUS, resetFieldsOf } from './reset-fields';
export { decodeManagedFields, encodeManagedFields, type ManagedFieldsEntry } from './entries';
export { LAST_APPLIED_ANNOTATIONS } from './last-applied';
export { parentEntriesAfterScale, scaleEntries, type ReplicasPathMappings } from './scale-handler';

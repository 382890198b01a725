// Query parameters of each kind of operation, with their OpenAPI types, as kube-apiserver's installer documents them.

export type ParamType = 'string' | 'integer' | 'boolean';

/** Every query parameter the operations name (`pretty` sits on the path, as in Kubernetes). */
export const QUERY_PARAM_TYPES = {
  allowWatchBookmarks: 'boolean',
  continue: 'string',
  dryRun: 'string',
  fieldManager: 'string',
  fieldSelector: 'string',
  fieldValidation: 'string',
  force: 'boolean',
  gracePeriodSeconds: 'integer',
  labelSelector: 'string',
  limit: 'integer',
  orphanDependents: 'boolean',
  pretty: 'string',
  propagationPolicy: 'string',
  resourceVersion: 'string',
  resourceVersionMatch: 'string',
  timeoutSeconds: 'integer',
  watch: 'boolean',
} as const satisfies Record<string, ParamType>;

export type QueryParam = keyof typeof QUERY_PARAM_TYPES;

/** list, and the deprecated `/watch/` paths. */
export const LIST_PARAMS: readonly QueryParam[] = [
  'allowWatchBookmarks',
  'continue',
  'fieldSelector',
  'labelSelector',
  'limit',
  'resourceVersion',
  'resourceVersionMatch',
  'timeoutSeconds',
  'watch',
];
/** create and update (POST, PUT). */
export const WRITE_PARAMS: readonly QueryParam[] = ['dryRun', 'fieldManager', 'fieldValidation'];
/** patch: the write parameters and `force` (server-side apply). */
export const PATCH_PARAMS: readonly QueryParam[] = [...WRITE_PARAMS, 'force'];
export const DELETE_PARAMS: readonly QueryParam[] = [
  'dryRun',
  'gracePeriodSeconds',
  'orphanDependents',
  'propagationPolicy',
];
/** deletecollection: delete's parameters and the list selection ones (without `watch` and bookmarks). */
export const DELETE_COLLECTION_PARAMS: readonly QueryParam[] = [
  'continue',
  'dryRun',
  'fieldSelector',
  'gracePeriodSeconds',
  'labelSelector',
  'limit',
  'orphanDependents',
  'propagationPolicy',
  'resourceVersion',
  'resourceVersionMatch',
  'timeoutSeconds',
];

// The usual reset fields of a write path (a strategy's GetResetFields names these or its own set, see
// lib/registry/rest/strategy.ts) and the fields no manager ever owns (stripmeta.go).
import { FieldSet } from './field-set';
import { field, type Path } from './path-element';

const path = (...names: string[]): Path => names.map(field);

/** Reset by writes to a main resource (and /finalize, /scale): its `status`. Shared: never mutate. */
export const RESET_STATUS = FieldSet.of(path('status'));

/** Reset by most `/status` writes: the `spec` (some kinds reset more, resources.md "SSA reset fields"). Shared: never mutate. */
export const RESET_SPEC = FieldSet.of(path('spec'));

/** A reset field set of the given paths (a strategy's own). */
export const resetFieldsOf = (...paths: string[][]): FieldSet => FieldSet.of(...paths.map((names) => path(...names)));

export const STRIPPED_FIELDS = FieldSet.of(
  path('apiVersion'),
  path('kind'),
  path('metadata'),
  ...[
    'name',
    'namespace',
    'creationTimestamp',
    'selfLink',
    'uid',
    'clusterName',
    'generation',
    'managedFields',
    'resourceVersion',
  ].map((n) => path('metadata', n)),
);

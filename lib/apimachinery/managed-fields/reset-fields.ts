// Fields a write path never records (GetResetFields of each strategy) and fields no manager ever owns (stripmeta.go).
import { FieldSet } from './field-set';
import { field, type Path } from './path-element';

const path = (...names: string[]): Path => names.map(field);

/** Status writes of these resources also reset more than spec (resources.md "SSA reset fields"). */
const STATUS_RESETS: Record<string, Path[]> = {
  'apps/deployments': [path('spec'), path('metadata', 'labels')],
  'flowcontrol.apiserver.orch.io/flowschemas': [path('spec'), path('metadata')],
  'flowcontrol.apiserver.orch.io/prioritylevelconfigurations': [path('spec'), path('metadata')],
};

/** Main resource: `status`; `/status`: `spec` (and more per resource); `/scale`: the Scale's `status`. */
export function resetFields(group: string, resource: string, subresource: string): FieldSet {
  if (subresource === 'status') return FieldSet.of(...(STATUS_RESETS[`${group}/${resource}`] ?? [path('spec')]));
  return FieldSet.of(path('status'));
}

export const STRIPPED_FIELDS = FieldSet.of(
  path('apiVersion'),
  path('kind'),
  path('metadata'),
  ...['name', 'namespace', 'creationTimestamp', 'selfLink', 'uid', 'clusterName', 'generation', 'managedFields', 'resourceVersion'].map((n) => path('metadata', n)),
);

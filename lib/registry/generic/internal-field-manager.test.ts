// Reset fields come from the strategy of the write path (GetResetFields): pinned per resource and subresource.
import { resourceDefinitions } from '../install';
import { fieldManagerScopeOf } from './internal-field-manager';

const resets = (group: string, version: string, resource: string, subresource: string): string[] => {
  const def = resourceDefinitions({}).find(
    (d) => d.group === group && d.version === version && d.resource === resource,
  );
  if (!def) throw new Error(`${group}/${version}/${resource} is not served`);
  return fieldManagerScopeOf(def, subresource)
    .ignored.paths()
    .map((path) => path.map((pe) => (pe.kind === 'field' ? pe.name : '?')).join('.'))
    .sort();
};

describe('reset fields of write paths', () => {
  it('a main resource write resets status', () => {
    expect(resets('apps', 'v1', 'deployments', '')).toEqual(['status']);
    expect(resets('', 'v1', 'serviceaccounts', '')).toEqual(['status']);
    expect(resets('', 'v1', 'namespaces', 'finalize')).toEqual(['status']);
  });

  it('a status write resets spec, and more where the status strategy drops more', () => {
    expect(resets('', 'v1', 'namespaces', 'status')).toEqual(['spec']);
    expect(resets('autoscaling', 'v1', 'horizontalpodautoscalers', 'status')).toEqual(['spec']);
    expect(resets('apps', 'v1', 'deployments', 'status')).toEqual(['metadata.labels', 'spec']);
    for (const version of ['v1beta2', 'v1beta3']) {
      expect(resets('flowcontrol.apiserver.orch.io', version, 'flowschemas', 'status')).toEqual(['metadata', 'spec']);
      expect(resets('flowcontrol.apiserver.orch.io', version, 'prioritylevelconfigurations', 'status')).toEqual([
        'metadata',
        'spec',
      ]);
    }
  });
});

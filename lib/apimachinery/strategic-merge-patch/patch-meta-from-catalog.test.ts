// Patch metadata read from the type catalog: strategies and merge keys where the Go struct tags put them.
import { patchMetaForKind, type PatchMeta } from '.';

function at(meta: PatchMeta | undefined, path: string): PatchMeta | undefined {
  return path
    .split('.')
    .reduce<PatchMeta | undefined>((m, step) => (step === '[]' ? m?.items() : m?.field(step)), meta);
}

describe('patchMetaForKind', () => {
  const deployment = patchMetaForKind('apps/v1', 'Deployment');

  it.each([
    ['spec.template.spec.containers', ['merge'], 'name'],
    ['spec.template.spec.volumes', ['merge', 'retainKeys'], 'name'],
    ['spec.template.spec.containers.[].ports', ['merge'], 'containerPort'],
    ['spec.template.spec.containers.[].volumeMounts', ['merge'], 'mountPath'],
    ['spec.template.spec.initContainers.[].env', ['merge'], 'name'],
    ['spec.strategy', ['retainKeys'], undefined],
    ['metadata.finalizers', ['merge'], undefined],
    ['metadata.ownerReferences', ['merge'], 'uid'],
    ['status.conditions', ['merge'], 'type'],
    ['spec.template.spec.tolerations', [], undefined],
    ['spec.template.spec.containers.[].args', [], undefined],
  ])('Deployment %s: %j by %s', (path, strategies, mergeKey) => {
    const meta = at(deployment, path);
    expect(meta?.patchStrategies).toEqual(strategies);
    expect(meta?.patchMergeKey).toBe(mergeKey);
  });

  it('lifts inline members (a volume source) and describes map values', () => {
    expect(at(deployment, 'spec.template.spec.volumes.[].emptyDir')).toBeDefined();
    expect(at(deployment, 'metadata.labels.anything')?.goKind).toBe('string');
    expect(at(deployment, 'spec.nothing')).toBeUndefined();
  });

  it('follows the API version: FlowSchema conditions merge by type only in v1beta3', () => {
    expect(
      at(patchMetaForKind('flowcontrol.apiserver.orch.io/v1beta3', 'FlowSchema'), 'status.conditions')?.patchMergeKey,
    ).toBe('type');
    expect(
      at(patchMetaForKind('flowcontrol.apiserver.orch.io/v1beta2', 'FlowSchema'), 'status.conditions')?.patchStrategies,
    ).toEqual([]);
  });

  it('has nothing for a kind the catalog does not hold', () => {
    expect(patchMetaForKind('apps/v1', 'Gadget')).toBeUndefined();
  });
});

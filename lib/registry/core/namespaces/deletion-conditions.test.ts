// Namespace deletion conditions: healthy and failing variants, transition times, conditions of other writers kept.
import { updateDeletionConditions, type RemainingContent } from './deletion-conditions';

const nothingLeft: RemainingContent = { byResource: new Map(), byFinalizer: new Map() };
const held: RemainingContent = {
  byResource: new Map([
    ['horizontalpodautoscalers.autoscaling', 2],
    ['deployments.apps', 1],
  ]),
  byFinalizer: new Map([
    ['b/x', 1],
    ['a/y', 2],
  ]),
};
const byType = (conditions: unknown[] | undefined): Record<string, unknown> =>
  Object.fromEntries((conditions ?? []).map((c) => [(c as { type: string }).type, c]));

describe('updateDeletionConditions', () => {
  it("lists remaining resources and finalizers sorted, in Kubernetes' words", () => {
    const c = byType(updateDeletionConditions(undefined, held, 'T1'));
    expect(c['NamespaceContentRemaining']).toEqual({
      type: 'NamespaceContentRemaining',
      status: 'True',
      lastTransitionTime: 'T1',
      reason: 'SomeResourcesRemain',
      message:
        'Some resources are remaining: deployments.apps has 1 resource instances, horizontalpodautoscalers.autoscaling has 2 resource instances',
    });
    expect(c['NamespaceFinalizersRemaining']).toMatchObject({
      status: 'True',
      reason: 'SomeFinalizersRemain',
      message:
        'Some content in the namespace has finalizers remaining: a/y in 2 resource instances, b/x in 1 resource instances',
    });
  });

  it('reports no change when the same pass repeats, and moves lastTransitionTime only when a status flips', () => {
    const first = updateDeletionConditions([{ type: 'Other', status: 'True' }], held, 'T1');
    expect(updateDeletionConditions(first, held, 'T2')).toBeUndefined();
    const after = byType(updateDeletionConditions(first, nothingLeft, 'T3'));
    expect(after['NamespaceContentRemaining']).toMatchObject({
      status: 'False',
      reason: 'ContentRemoved',
      message: 'All content successfully removed',
      lastTransitionTime: 'T3',
    });
    expect(after['NamespaceFinalizersRemaining']).toMatchObject({
      status: 'False',
      reason: 'ContentHasNoFinalizers',
      message: 'All content-preserving finalizers finished',
      lastTransitionTime: 'T3',
    });
    expect(after['NamespaceDeletionDiscoveryFailure']).toMatchObject({ status: 'False', lastTransitionTime: 'T1' });
    expect(after['Other']).toEqual({ type: 'Other', status: 'True' });
  });
});

// List order after a strategic merge patch: Kubernetes' patch_test.go ordering scenarios on containers and finalizers.
import { strategicMergePatch, patchMetaForKind, type PatchMeta } from '.';

const DEPLOYMENT_META = patchMetaForKind('apps/v1', 'Deployment') as PatchMeta;

/** Containers named by the given names; `name=value` adds an image so elements with one name can differ. */
function named(...names: string[]): Record<string, string>[] {
  return names.map((n): Record<string, string> => {
    const [name = n, image] = n.split('=');
    return image === undefined ? { name } : { name, image };
  });
}

function patchContainers(live: string[], patch: Record<string, unknown>): unknown {
  const original = { spec: { template: { spec: { containers: named(...live) } } } };
  const result = strategicMergePatch(original, { spec: { template: { spec: patch } } }, DEPLOYMENT_META);
  return (result['spec'] as { template: { spec: { containers: unknown } } }).template.spec.containers;
}

function patchFinalizers(live: string[], patch: Record<string, unknown>): unknown {
  const result = strategicMergePatch({ metadata: { finalizers: live } }, { metadata: patch }, DEPLOYMENT_META);
  return (result['metadata'] as { finalizers: unknown }).finalizers;
}

const order = (...names: string[]): Record<string, string>[] => named(...names);

// [scenario, live container names, patch of the pod spec, resulting container names]
const containerCases: [string, string[], Record<string, unknown>, string[]][] = [
  ['preserve the order from the patch', ['1', '2', '3'], { containers: order('3', '1', '2') }, ['3', '1', '2']],
  [
    'preserve the order from the patch 2 (live-only first when it precedes)',
    ['1', '2', '3'],
    { containers: order('3', '1') },
    ['2', '3', '1'],
  ],
  [
    'add an item and preserve order',
    ['1', '2'],
    { '$setElementOrder/containers': order('3', '1', '2'), containers: order('3') },
    ['3', '1', '2'],
  ],
  [
    'add multiple items and preserve order',
    ['1', '2'],
    { '$setElementOrder/containers': order('1', '4', '2', '3'), containers: order('4', '3') },
    ['1', '4', '2', '3'],
  ],
  [
    'delete an item and preserve order',
    ['1', '2', '3'],
    { '$setElementOrder/containers': order('2', '1'), containers: [{ name: '3', $patch: 'delete' }] },
    ['2', '1'],
  ],
  [
    'set elements order with server-only items',
    ['1', '3', '4', '2', '9'],
    { '$setElementOrder/containers': order('4', '2', '3', '1') },
    ['4', '2', '3', '1', '9'],
  ],
  [
    'set elements order with server-only items 3',
    ['1', '2', '7', '9', '8', '3', '4'],
    { '$setElementOrder/containers': order('2', '1', '4', '3') },
    ['2', '1', '7', '9', '8', '4', '3'],
  ],
  [
    '$setElementOrder naming an element that does not exist',
    ['1', '3'],
    { '$setElementOrder/containers': order('3', '2', '1') },
    ['3', '1'],
  ],
];

// [scenario, live finalizers, patch of metadata, resulting finalizers]
const finalizerCases: [string, string[], Record<string, unknown>, string[]][] = [
  [
    'int list: set elements order with server-only items',
    ['1', '3', '4', '2', '9'],
    { '$setElementOrder/finalizers': ['4', '2', '3', '1'] },
    ['4', '2', '3', '1', '9'],
  ],
  [
    'int list: server-only items 2',
    ['1', '2', '9', '3', '4'],
    { '$setElementOrder/finalizers': ['2', '1', '4', '3'] },
    ['2', '1', '9', '4', '3'],
  ],
  [
    'int list: add an item and preserve order',
    ['1', '2'],
    { '$setElementOrder/finalizers': ['1', '3', '2'], finalizers: ['3'] },
    ['1', '3', '2'],
  ],
  [
    'int list: delete an item and preserve order',
    ['1', '2', '3'],
    { '$setElementOrder/finalizers': ['3', '1'], '$deleteFromPrimitiveList/finalizers': ['2'] },
    ['3', '1'],
  ],
  ['int list: unique scalars when merging', ['1', '2'], { finalizers: ['2', '3'] }, ['1', '2', '3']],
];

describe('element order after a strategic merge patch', () => {
  it.each(containerCases)('%s', (_name, live, patch, expected) => {
    expect(patchContainers(live, patch)).toEqual(named(...expected));
  });

  it.each(finalizerCases)('%s', (_name, live, patch, expected) => {
    expect(patchFinalizers(live, patch)).toEqual(expected);
  });

  it('keeps duplicates together in the first position $setElementOrder gives their key', () => {
    const result = patchContainers(['1', '2=dup1', '3', '2=dup2', '4'], {
      '$setElementOrder/containers': order('2', '1', '4', '3', '2'),
    });
    expect(result).toEqual(named('2=dup1', '2=dup2', '1', '4', '3'));
  });

  it('deletes every live element with the key of a $patch: delete', () => {
    const result = patchContainers(['1', '1', '2=a', '3', '3'], {
      containers: [
        { name: '1', $patch: 'delete' },
        { name: '3', $patch: 'delete' },
      ],
    });
    expect(result).toEqual(named('2=a'));
  });
});

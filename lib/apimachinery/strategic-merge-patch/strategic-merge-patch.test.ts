// Strategic merge patch on Deployments: maps, primitive sets, replaced lists, $setElementOrder, $retainKeys and inputs left untouched (cases after Kubernetes' patch_test.go).
import { strategicMergePatch } from '.';
import { CONTAINERS, DEPLOYMENT_META, POD, at, live, main, patchAt, sidecar, type Case } from './testing/deployment';

const cases: Case[] = [
  // maps
  ['adds a label', 'metadata.labels', { env: 'prod' }, 'metadata.labels', { app: 'web', tier: 'front', env: 'prod' }],
  ['null deletes a key', 'metadata.labels', { tier: null }, 'metadata.labels', { app: 'web' }],
  [
    'null for an absent key creates nothing',
    'metadata.labels',
    { nope: null },
    'metadata.labels',
    { app: 'web', tier: 'front' },
  ],
  ['changes a scalar', 'spec', { replicas: 5 }, 'spec.replicas', 5],
  ['a value of another JSON type replaces', 'spec', { selector: 'x' }, 'spec.selector', 'x'],
  [
    'nulls inside a new map are dropped',
    'spec.template.spec',
    { securityContext: { runAsUser: 1, fsGroup: null } },
    `${POD}.securityContext`,
    { runAsUser: 1 },
  ],
  [
    '$patch: replace replaces a map',
    'spec.selector',
    { $patch: 'replace', matchLabels: { app: 'other' } },
    'spec.selector',
    { matchLabels: { app: 'other' } },
  ],
  ['$patch: delete empties a map', 'metadata.labels', { $patch: 'delete' }, 'metadata.labels', {}],
  ['an empty patch map changes nothing', 'spec', {}, 'spec.replicas', 2],
  // lists of primitives with strategy merge are sets
  [
    'unions finalizers',
    'metadata',
    { finalizers: ['b.io/y', 'c.io/z'] },
    'metadata.finalizers',
    ['a.io/x', 'b.io/y', 'c.io/z'],
  ],
  [
    'puts a new finalizer first and keeps patch order over live order',
    'metadata',
    { finalizers: ['c.io/z', 'a.io/x'] },
    'metadata.finalizers',
    ['c.io/z', 'a.io/x', 'b.io/y'],
  ],
  [
    'keeps a live-only finalizer before a later patch one',
    'metadata',
    { finalizers: ['b.io/y'] },
    'metadata.finalizers',
    ['a.io/x', 'b.io/y'],
  ],
  [
    '$deleteFromPrimitiveList removes finalizers',
    'metadata',
    { '$deleteFromPrimitiveList/finalizers': ['a.io/x', 'not.there/q'] },
    'metadata.finalizers',
    ['b.io/y'],
  ],
  [
    '$deleteFromPrimitiveList of an absent list creates nothing',
    `${CONTAINERS}`,
    [{ name: 'main', '$deleteFromPrimitiveList/ghosts': ['x'] }],
    `${CONTAINERS}.0`,
    main(),
  ],
  [
    'adds and deletes finalizers in one patch',
    'metadata',
    { finalizers: ['c.io/z'], '$deleteFromPrimitiveList/finalizers': ['b.io/y'] },
    'metadata.finalizers',
    ['c.io/z', 'a.io/x'],
  ],
  [
    'an empty list merged into an empty list stays empty',
    'metadata',
    { finalizers: [] },
    'metadata.finalizers',
    ['a.io/x', 'b.io/y'],
  ],
  // lists without a strategy are replaced
  [
    'replaces tolerations (no strategy)',
    POD,
    { tolerations: [{ key: 'k2', operator: 'Equal', value: 'v', effect: null }] },
    `${POD}.tolerations`,
    [{ key: 'k2', operator: 'Equal', value: 'v' }],
  ],
  [
    'replaces container args (no strategy)',
    CONTAINERS,
    [{ name: 'main', args: ['-q'] }],
    `${CONTAINERS}.0.args`,
    ['-q'],
  ],
  ['replaces a list the schema does not know', 'spec', { extra: [1] }, 'spec.extra', [1]],
  [
    'merges a map the schema does not know',
    'spec.template.spec',
    { unknownMap: { a: 1 } },
    `${POD}.unknownMap`,
    { a: 1 },
  ],
  // $setElementOrder
  [
    '$setElementOrder reorders containers and merges the patch list',
    POD,
    {
      '$setElementOrder/containers': [{ name: 'sidecar' }, { name: 'main' }],
      containers: [{ name: 'main', image: 'nginx:9' }],
    },
    CONTAINERS,
    [sidecar(), main({ image: 'nginx:9' })],
  ],
  [
    '$setElementOrder orders a primitive list',
    'metadata',
    { '$setElementOrder/finalizers': ['b.io/y', 'a.io/x'] },
    'metadata.finalizers',
    ['b.io/y', 'a.io/x'],
  ],
  [
    '$setElementOrder adds a listed new element in place',
    POD,
    {
      '$setElementOrder/containers': [{ name: 'main' }, { name: 'debug' }, { name: 'sidecar' }],
      containers: [{ name: 'debug', image: 'busybox' }],
    },
    CONTAINERS,
    [main(), { name: 'debug', image: 'busybox' }, sidecar()],
  ],
  // $retainKeys
  [
    '$retainKeys clears strategy.rollingUpdate when switching to Recreate',
    'spec.strategy',
    { $retainKeys: ['type'], type: 'Recreate' },
    'spec.strategy',
    { type: 'Recreate' },
  ],
  [
    'without $retainKeys a retainKeys field merges',
    'spec.strategy',
    { type: 'Recreate' },
    'spec.strategy',
    { type: 'Recreate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
  ],
  [
    '$retainKeys switches a volume source (volumes are merge,retainKeys)',
    POD,
    { volumes: [{ name: 'data', hostPath: { path: '/srv' }, $retainKeys: ['name', 'hostPath'] }] },
    `${POD}.volumes`,
    [{ name: 'data', hostPath: { path: '/srv' } }],
  ],
  [
    'a null value needs no $retainKeys entry',
    'spec.strategy',
    { $retainKeys: ['type'], type: 'Recreate', rollingUpdate: null },
    'spec.strategy',
    { type: 'Recreate' },
  ],
];

describe('strategicMergePatch on a Deployment', () => {
  it.each(cases)('%s', (_name, root, value, readPath, expected) => {
    const result = strategicMergePatch(live(), patchAt(root, value), DEPLOYMENT_META);
    expect(at(result, readPath)).toEqual(expected);
  });

  it('leaves the parts a patch does not name untouched', () => {
    const result = strategicMergePatch(
      live(),
      patchAt(CONTAINERS, [{ name: 'main', image: 'nginx:2' }]),
      DEPLOYMENT_META,
    );
    const expected = live();
    (at(expected, CONTAINERS) as Record<string, unknown>[])[0] = main({ image: 'nginx:2' });
    expect(result).toEqual(expected);
  });

  it('does not modify its inputs', () => {
    const original = live();
    const patch = patchAt(CONTAINERS, [
      { name: 'main', image: 'nginx:2' },
      { name: 'sidecar', $patch: 'delete' },
    ]);
    const patchCopy = structuredClone(patch);
    strategicMergePatch(original, patch, DEPLOYMENT_META);
    expect(original).toEqual(live());
    expect(patch).toEqual(patchCopy);
  });

  it('treats a null patch as no change', () => {
    expect(strategicMergePatch(live(), null, DEPLOYMENT_META)).toEqual(live());
  });

  it('without a schema merges maps and replaces every list', () => {
    const result = strategicMergePatch(live(), patchAt(CONTAINERS, [{ name: 'main', image: 'nginx:2' }]), undefined);
    expect(at(result, CONTAINERS)).toEqual([{ name: 'main', image: 'nginx:2' }]);
    expect(at(result, 'spec.replicas')).toBe(2);
  });
});

// Strategic merge patch on Deployments: maps, merge-keyed lists, primitive sets, replaced lists (cases after Kubernetes' patch_test.go).
import { strategicMergePatch, patchMetaForKind, type PatchMeta } from '.';

const DEPLOYMENT_META = patchMetaForKind('apps/v1', 'Deployment') as PatchMeta;

/** A Deployment with two containers, a volume, tolerations, finalizers and an owner. */
function live(): Record<string, unknown> {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: {
      name: 'web',
      labels: { app: 'web', tier: 'front' },
      finalizers: ['a.io/x', 'b.io/y'],
      ownerReferences: [{ apiVersion: 'v1', kind: 'Owner', name: 'o1', uid: 'u1' }],
    },
    spec: {
      replicas: 2,
      selector: { matchLabels: { app: 'web' } },
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%', maxUnavailable: '25%' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'main',
              image: 'nginx:1',
              args: ['-v'],
              ports: [{ containerPort: 80, name: 'http' }],
              env: [
                { name: 'A', value: '1' },
                { name: 'B', value: '2' },
              ],
            },
            { name: 'sidecar', image: 'envoy:1', volumeMounts: [{ name: 'data', mountPath: '/data' }] },
          ],
          volumes: [{ name: 'data', emptyDir: {} }],
          tolerations: [{ key: 'k1', operator: 'Exists' }],
          imagePullSecrets: [{ name: 'reg' }],
        },
      },
    },
    status: {
      conditions: [
        { type: 'Available', status: 'True' },
        { type: 'Progressing', status: 'True' },
      ],
    },
  };
}

const POD = 'spec.template.spec';
const CONTAINERS = `${POD}.containers`;

function at(obj: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], obj);
}

/** Builds a patch that sets `value` at the dotted `path`. */
function patchAt(path: string, value: unknown): Record<string, unknown> {
  return path
    .split('.')
    .reverse()
    .reduce<Record<string, unknown>>((inner, key, i) => ({ [key]: i === 0 ? value : inner }), {});
}

const main = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'main',
  image: 'nginx:1',
  args: ['-v'],
  ports: [{ containerPort: 80, name: 'http' }],
  env: [
    { name: 'A', value: '1' },
    { name: 'B', value: '2' },
  ],
  ...extra,
});
const sidecar = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  name: 'sidecar',
  image: 'envoy:1',
  volumeMounts: [{ name: 'data', mountPath: '/data' }],
  ...extra,
});

// [description, path the patch is rooted at, patch value there, path to read, expected value there]
const cases: [string, string, unknown, string, unknown][] = [
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
  // lists merged by key
  [
    'changes one container by name and keeps the other',
    CONTAINERS,
    [{ name: 'main', image: 'nginx:2' }],
    CONTAINERS,
    [main({ image: 'nginx:2' }), sidecar()],
  ],
  [
    'puts a new container first (patch order before live order)',
    CONTAINERS,
    [{ name: 'debug', image: 'busybox' }],
    CONTAINERS,
    [{ name: 'debug', image: 'busybox' }, main(), sidecar()],
  ],
  [
    'follows the order of the patch list',
    CONTAINERS,
    [{ name: 'sidecar' }, { name: 'main' }],
    CONTAINERS,
    [sidecar(), main()],
  ],
  [
    'keeps live-only elements before later patch elements',
    CONTAINERS,
    [{ name: 'debug' }, { name: 'main', image: 'nginx:3' }],
    CONTAINERS,
    [{ name: 'debug' }, main({ image: 'nginx:3' }), sidecar()],
  ],
  [
    'drops nulls of an appended element',
    CONTAINERS,
    [{ name: 'debug', image: null, command: ['sh'] }],
    `${CONTAINERS}.0`,
    { name: 'debug', command: ['sh'] },
  ],
  [
    '$patch: delete removes an element by merge key',
    CONTAINERS,
    [{ name: 'sidecar', $patch: 'delete' }],
    CONTAINERS,
    [main()],
  ],
  [
    '$patch: delete of a missing element changes nothing',
    CONTAINERS,
    [{ name: 'ghost', $patch: 'delete' }],
    CONTAINERS,
    [main(), sidecar()],
  ],
  [
    '$patch: replace makes the rest of the patch list the list',
    CONTAINERS,
    [{ $patch: 'replace' }, { name: 'only', image: 'x' }],
    CONTAINERS,
    [{ name: 'only', image: 'x' }],
  ],
  ['a lone $patch: replace empties the list', CONTAINERS, [{ $patch: 'replace' }], CONTAINERS, []],
  [
    'merges ports by containerPort',
    `${CONTAINERS}`,
    [{ name: 'main', ports: [{ containerPort: 80, protocol: 'TCP' }, { containerPort: 443 }] }],
    `${CONTAINERS}.0.ports`,
    [{ containerPort: 80, name: 'http', protocol: 'TCP' }, { containerPort: 443 }],
  ],
  [
    'merges env by name and deletes a value with null',
    CONTAINERS,
    [{ name: 'main', env: [{ name: 'B', value: null, valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }] }],
    `${CONTAINERS}.0.env`,
    [
      { name: 'A', value: '1' },
      { name: 'B', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ],
  ],
  [
    'adds an env var to one container only',
    CONTAINERS,
    [{ name: 'sidecar', env: [{ name: 'C', value: '3' }] }],
    CONTAINERS,
    [main(), sidecar({ env: [{ name: 'C', value: '3' }] })],
  ],
  [
    'merges volumeMounts by mountPath',
    CONTAINERS,
    [{ name: 'sidecar', volumeMounts: [{ mountPath: '/data', readOnly: true }] }],
    `${CONTAINERS}.1.volumeMounts`,
    [{ name: 'data', mountPath: '/data', readOnly: true }],
  ],
  [
    'merges imagePullSecrets by name',
    POD,
    { imagePullSecrets: [{ name: 'other' }] },
    `${POD}.imagePullSecrets`,
    [{ name: 'other' }, { name: 'reg' }],
  ],
  [
    'merges ownerReferences by uid',
    'metadata',
    {
      ownerReferences: [
        { uid: 'u1', controller: true },
        { apiVersion: 'v1', kind: 'Owner', name: 'o2', uid: 'u2' },
      ],
    },
    'metadata.ownerReferences',
    [
      { apiVersion: 'v1', kind: 'Owner', name: 'o1', uid: 'u1', controller: true },
      { apiVersion: 'v1', kind: 'Owner', name: 'o2', uid: 'u2' },
    ],
  ],
  [
    'merges status conditions by type',
    'status',
    { conditions: [{ type: 'Progressing', status: 'False' }] },
    'status.conditions',
    [
      { type: 'Available', status: 'True' },
      { type: 'Progressing', status: 'False' },
    ],
  ],
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

// Strategic merge patch on Deployments: lists merged by their merge key (containers, ports, env, mounts, owners, conditions).
import { strategicMergePatch } from '.';
import { CONTAINERS, DEPLOYMENT_META, POD, at, live, main, patchAt, sidecar, type Case } from './testing/deployment';

const cases: Case[] = [
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
];

describe('strategicMergePatch on a Deployment', () => {
  it.each(cases)('%s', (_name, root, value, readPath, expected) => {
    const result = strategicMergePatch(live(), patchAt(root, value), DEPLOYMENT_META);
    expect(at(result, readPath)).toEqual(expected);
  });
});

// Strategic merge patch refusals: Kubernetes' texts and how kube-apiserver classes them (400, 422, bare error).
import {
  strategicMergePatch,
  patchMetaForKind,
  StrategicMergePatchError,
  type PatchErrorClass,
  type PatchMeta,
} from '.';

const DEPLOYMENT_META = patchMetaForKind('apps/v1', 'Deployment') as PatchMeta;

function live(): Record<string, unknown> {
  return {
    metadata: { name: 'web', finalizers: ['a.io/x'] },
    spec: {
      strategy: { type: 'RollingUpdate' },
      template: {
        spec: {
          containers: [
            { name: 'main', image: 'nginx:1' },
            { name: 'sidecar', image: 'envoy:1' },
          ],
        },
      },
    },
  };
}

const containers = (list: unknown): Record<string, unknown> => ({ spec: { template: { spec: { containers: list } } } });
const podSpec = (spec: Record<string, unknown>): Record<string, unknown> => ({ spec: { template: { spec } } });

const cases: [string, unknown, PatchErrorClass, string][] = [
  [
    'an element without its merge key',
    containers([{ image: 'nginx:2' }]),
    'Unclassified',
    'map: map[image:nginx:2] does not contain declared merge key: name',
  ],
  [
    '$patch: delete without the merge key',
    containers([{ $patch: 'delete' }]),
    'Unclassified',
    'map: map[$patch:delete] does not contain declared merge key: name',
  ],
  [
    'an unknown $patch value on a map',
    { spec: { strategy: { $patch: 'foo', type: 'x' } } },
    'Unclassified',
    'unknown patch type: foo in map: map[$patch:foo type:x]',
  ],
  [
    '$patch: merge on a map',
    { metadata: { $patch: 'merge' } },
    'Unclassified',
    'unknown patch type: merge in map: map[$patch:merge]',
  ],
  [
    'a non-string $patch value',
    { spec: { strategy: { $patch: 1 } } },
    'Unclassified',
    'unknown patch type: %!s(int64=1) in map: map[$patch:1]',
  ],
  [
    'an unknown $patch value in a list',
    containers([{ name: 'main', $patch: 'remove' }]),
    'Unclassified',
    'unknown patch type: remove in map: map[$patch:remove name:main]',
  ],
  [
    '$patch: merge in a list',
    containers([{ $patch: 'merge' }]),
    'Unclassified',
    'merging lists cannot yet be specified in the patch',
  ],
  [
    'a list of lists',
    { metadata: { finalizers: [['a']] } },
    'Unclassified',
    'list element types are not identical: [[a.io/x] [[a]]]',
  ],
  [
    'list elements of different types',
    { metadata: { finalizers: [1, 'b'] } },
    'Unclassified',
    'list element types are not identical: [[a.io/x] [1 b]]',
  ],
  [
    '$retainKeys that is not a list',
    { spec: { strategy: { $retainKeys: 'type', type: 'Recreate' } } },
    'BadRequest',
    'invalid patch format of retainKeys',
  ],
  [
    'a patched key missing from $retainKeys',
    { spec: { strategy: { $retainKeys: ['rollingUpdate'], type: 'Recreate' } } },
    'BadRequest',
    'invalid patch format of retainKeys',
  ],
  [
    '$deleteFromPrimitiveList without a field',
    { metadata: { $deleteFromPrimitiveList: ['a.io/x'] } },
    'BadRequest',
    'invalid patch format of primitive list',
  ],
  [
    'a $setElementOrder key without a field',
    { metadata: { '$setElementOrderX/finalizers': ['a.io/x'] } },
    'BadRequest',
    'invalid patch format of setElementOrder list',
  ],
  [
    'a $setElementOrder that is not a list',
    { metadata: { '$setElementOrder/finalizers': 'a.io/x' } },
    'Unclassified',
    'expected a []interface {}, but received a string',
  ],
  [
    'a patch list out of $setElementOrder order',
    podSpec({
      '$setElementOrder/containers': [{ name: 'main' }, { name: 'sidecar' }],
      containers: [
        { name: 'sidecar', image: 'x' },
        { name: 'main', image: 'y' },
      ],
    }),
    'Unclassified',
    "The order in patch list:\n[map[image:x name:sidecar] map[image:y name:main]]\n doesn't match $setElementOrder list:\n[map[name:main] map[name:sidecar]]\n",
  ],
  [
    'a $setElementOrder element without the merge key',
    podSpec({ '$setElementOrder/containers': [{ image: 'x' }], containers: [{ name: 'main' }] }),
    'Unclassified',
    'map: map[image:x] does not contain declared merge key: name',
  ],
  [
    'a merge list element that is not a map',
    containers(['main']),
    'Unclassified',
    'list element types are not identical: [[map[image:nginx:1 name:main] map[image:envoy:1 name:sidecar]] [main]]',
  ],
];

describe('strategicMergePatch refusals', () => {
  it.each(cases)('%s', (_name, patch, errorClass, message) => {
    let caught: unknown;
    try {
      strategicMergePatch(live(), patch, DEPLOYMENT_META);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StrategicMergePatchError);
    expect(caught).toMatchObject({ message, errorClass });
  });

  it('refuses a list of lists merged into an empty list as 422-class', () => {
    const original = { metadata: { finalizers: [] } };
    expect(() => strategicMergePatch(original, { metadata: { finalizers: [['a']] } }, DEPLOYMENT_META)).toThrow(
      expect.objectContaining({ message: 'lists of lists are not supported', errorClass: 'Unprocessable' }),
    );
  });

  it('prints floats and nested maps as Go does', () => {
    expect(() =>
      strategicMergePatch(
        live(),
        containers([{ image: 'x', weight: 0.5, big: 1500000.5, limits: { cpu: '1' } }]),
        DEPLOYMENT_META,
      ),
    ).toThrow(
      'map: map[big:1.5000005e+06 image:x limits:map[cpu:1] weight:0.5] does not contain declared merge key: name',
    );
  });
});

// Pins the pod template's affinity, topologySpreadConstraints and downwardAPI volume rules to 1.26's texts, paths and order.
import { texts, set, SPEC, NAME_EMPTY, NAME_FORMAT, DNS_LABEL } from './testing/deployment-mutations';
import type { Mutation } from './testing/deployment-mutations';

const NA = `${SPEC}.affinity.nodeAffinity`;
const NA_PATH = 'spec.template.spec.affinity.nodeAffinity';
const TERMS = `${NA_PATH}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms`;
const nodeTerm = (term: unknown): Mutation =>
  set(`${NA}.requiredDuringSchedulingIgnoredDuringExecution`, { nodeSelectorTerms: [term] });
const PA_PATH = 'spec.template.spec.affinity.podAffinity';
const ANTI_PATH = 'spec.template.spec.affinity.podAntiAffinity';

describe('affinity', () => {
  it('accepts realistic node, pod and anti-affinity', () => {
    expect(
      texts(
        set(`${SPEC}.affinity`, {
          nodeAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: {
              nodeSelectorTerms: [
                {
                  matchExpressions: [
                    { key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] },
                    { key: 'gpu', operator: 'DoesNotExist' },
                    { key: 'cores', operator: 'Gt', values: ['4'] },
                  ],
                  matchFields: [{ key: 'metadata.name', operator: 'NotIn', values: ['node-1'] }],
                },
              ],
            },
            preferredDuringSchedulingIgnoredDuringExecution: [
              { weight: 100, preference: { matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] } },
            ],
          },
          podAffinity: {
            requiredDuringSchedulingIgnoredDuringExecution: [
              {
                labelSelector: { matchLabels: { app: 'cache' } },
                topologyKey: 'kubernetes.io/hostname',
                namespaces: ['cache'],
              },
            ],
          },
          podAntiAffinity: {
            preferredDuringSchedulingIgnoredDuringExecution: [
              {
                weight: 1,
                podAffinityTerm: {
                  labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['web'] }] },
                  namespaceSelector: {},
                  topologyKey: 'topology.kubernetes.io/zone',
                },
              },
            ],
          },
        }),
      ),
    ).toEqual([]);
  });

  it.each<[string, Mutation, string[]]>([
    [
      'no node selector terms',
      set(`${NA}.requiredDuringSchedulingIgnoredDuringExecution`, {}),
      [`${TERMS}: Required value: must have at least one node selector term`],
    ],
    [
      'In without values',
      nodeTerm({ matchExpressions: [{ key: 'zone', operator: 'In' }] }),
      [
        `${TERMS}[0].matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
      ],
    ],
    [
      'Exists with values',
      nodeTerm({ matchExpressions: [{ key: 'zone', operator: 'Exists', values: ['a'] }] }),
      [
        `${TERMS}[0].matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
      ],
    ],
    [
      'Gt with two values',
      nodeTerm({ matchExpressions: [{ key: 'cores', operator: 'Gt', values: ['1', '2'] }] }),
      [
        `${TERMS}[0].matchExpressions[0].values: Required value: must be specified single value when \`operator\` is 'Lt' or 'Gt'`,
      ],
    ],
    [
      'unknown operator and empty key',
      nodeTerm({ matchExpressions: [{ key: '', operator: 'Equals', values: ['a'] }] }),
      [
        `${TERMS}[0].matchExpressions[0].operator: Invalid value: "Equals": not a valid selector operator`,
        `${TERMS}[0].matchExpressions[0].key: Invalid value: "": ${NAME_EMPTY}`,
        `${TERMS}[0].matchExpressions[0].key: Invalid value: "": ${NAME_FORMAT}`,
      ],
    ],
    [
      'label value not checked (1.26)',
      nodeTerm({ matchExpressions: [{ key: 'zone', operator: 'In', values: ['not a label value!'] }] }),
      [],
    ],
    [
      'field selector on another field with Exists',
      nodeTerm({ matchFields: [{ key: 'spec.nodeName', operator: 'Exists' }] }),
      [
        `${TERMS}[0].matchFields[0].operator: Invalid value: "Exists": not a valid selector operator`,
        `${TERMS}[0].matchFields[0].key: Invalid value: "spec.nodeName": not a valid field selector key`,
      ],
    ],
    [
      'field selector with two names',
      nodeTerm({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['a', 'b'] }] }),
      [
        `${TERMS}[0].matchFields[0].values: Required value: must be only one value when \`operator\` is 'In' or 'NotIn' for node field selector`,
      ],
    ],
    [
      'field selector with an invalid node name',
      nodeTerm({ matchFields: [{ key: 'metadata.name', operator: 'In', values: ['Node_1'] }] }),
      [
        `${TERMS}[0].matchFields[0].values[0]: Invalid value: "Node_1": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
      ],
    ],
    [
      'preferred node term weights',
      set(`${NA}.preferredDuringSchedulingIgnoredDuringExecution`, [
        { weight: 0, preference: {} },
        { weight: 101, preference: {} },
      ]),
      [
        `${NA_PATH}.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 0: must be in the range 1-100`,
        `${NA_PATH}.preferredDuringSchedulingIgnoredDuringExecution[1].weight: Invalid value: 101: must be in the range 1-100`,
      ],
    ],
    [
      'pod affinity term without topologyKey',
      set(`${SPEC}.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution`, [
        { labelSelector: { matchLabels: { app: 'cache' } } },
      ]),
      [
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Required value: can not be empty`,
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${NAME_EMPTY}`,
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: Invalid value: "": ${NAME_FORMAT}`,
      ],
    ],
    [
      'pod affinity term with bad selectors and namespace',
      set(`${SPEC}.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution`, [
        {
          labelSelector: { matchExpressions: [{ key: 'app', operator: 'In' }] },
          namespaceSelector: { matchExpressions: [{ key: 'team', operator: 'Exists', values: ['a'] }] },
          namespaces: ['Team_A'],
          topologyKey: 'zone',
        },
      ]),
      [
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector.matchExpressions[0].values: Required value: must be specified when \`operator\` is 'In' or 'NotIn'`,
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].namespaceSelector.matchExpressions[0].values: Forbidden: may not be specified when \`operator\` is 'Exists' or 'DoesNotExist'`,
        `${PA_PATH}.requiredDuringSchedulingIgnoredDuringExecution[0].namespace: Invalid value: "Team_A": ${DNS_LABEL}`,
      ],
    ],
    [
      'weighted anti-affinity term',
      set(`${SPEC}.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution`, [
        { weight: 200, podAffinityTerm: { topologyKey: 'Bad Key' } },
      ]),
      [
        `${ANTI_PATH}.preferredDuringSchedulingIgnoredDuringExecution[0].weight: Invalid value: 200: must be in the range 1-100`,
        `${ANTI_PATH}.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.topologyKey: Invalid value: "Bad Key": ${NAME_FORMAT}`,
      ],
    ],
  ])('%s', (_name, mutate, expected) => {
    expect(texts(mutate)).toEqual(expected);
  });
});

const TSC = `${SPEC}.topologySpreadConstraints`;
const TSC_PATH = 'spec.template.spec.topologySpreadConstraints';
const zone = {
  maxSkew: 1,
  topologyKey: 'topology.kubernetes.io/zone',
  whenUnsatisfiable: 'DoNotSchedule',
  labelSelector: { matchLabels: { app: 'web' } },
};

describe('topologySpreadConstraints', () => {
  it('accepts realistic constraints', () => {
    expect(
      texts(
        set(TSC, [
          {
            ...zone,
            minDomains: 3,
            nodeAffinityPolicy: 'Honor',
            nodeTaintsPolicy: 'Ignore',
            matchLabelKeys: ['pod-template-hash'],
          },
          { ...zone, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'ScheduleAnyway' },
        ]),
      ),
    ).toEqual([]);
  });

  it.each<[string, unknown[], string[]]>([
    ['maxSkew 0', [{ ...zone, maxSkew: 0 }], [`${TSC_PATH}[0].maxSkew: Invalid value: 0: must be greater than zero`]],
    [
      'maxSkew missing',
      [{ ...zone, maxSkew: undefined }],
      [`${TSC_PATH}[0].maxSkew: Invalid value: 0: must be greater than zero`],
    ],
    [
      'empty topologyKey',
      [{ ...zone, topologyKey: '' }],
      [`${TSC_PATH}[0].topologyKey: Required value: can not be empty`],
    ],
    [
      'unknown whenUnsatisfiable',
      [{ ...zone, whenUnsatisfiable: 'Wait' }],
      [
        `${TSC_PATH}[0].whenUnsatisfiable: Unsupported value: "Wait": supported values: "DoNotSchedule", "ScheduleAnyway"`,
      ],
    ],
    [
      'missing whenUnsatisfiable',
      [{ ...zone, whenUnsatisfiable: undefined }],
      [`${TSC_PATH}[0].whenUnsatisfiable: Unsupported value: "": supported values: "DoNotSchedule", "ScheduleAnyway"`],
    ],
    [
      'repeated {topologyKey, whenUnsatisfiable} (each one with a later twin)',
      [zone, { ...zone, maxSkew: 2 }, { ...zone, maxSkew: 3 }],
      [
        `${TSC_PATH}[0].{topologyKey, whenUnsatisfiable}: Duplicate value: "{topology.kubernetes.io/zone, DoNotSchedule}"`,
        `${TSC_PATH}[1].{topologyKey, whenUnsatisfiable}: Duplicate value: "{topology.kubernetes.io/zone, DoNotSchedule}"`,
      ],
    ],
    [
      'minDomains 0',
      [{ ...zone, minDomains: 0 }],
      [`${TSC_PATH}[0].minDomains: Invalid value: 0: must be greater than zero`],
    ],
    [
      'minDomains with ScheduleAnyway',
      [{ ...zone, whenUnsatisfiable: 'ScheduleAnyway', minDomains: 2 }],
      [
        `${TSC_PATH}[0].minDomains: Invalid value: 2: can only use minDomains if whenUnsatisfiable=DoNotSchedule, not ScheduleAnyway`,
      ],
    ],
    [
      'node inclusion policies',
      [{ ...zone, nodeAffinityPolicy: 'honor', nodeTaintsPolicy: 'Always' }],
      [
        `${TSC_PATH}[0].nodeAffinityPolicy: Unsupported value: "honor": supported values: "Honor", "Ignore"`,
        `${TSC_PATH}[0].nodeTaintsPolicy: Unsupported value: "Always": supported values: "Honor", "Ignore"`,
      ],
    ],
    [
      'matchLabelKeys overlapping the selector or not label names',
      [
        {
          ...zone,
          labelSelector: { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] },
          matchLabelKeys: ['tier', 'app', 'bad key'],
        },
      ],
      [
        `${TSC_PATH}[0].matchLabelKeys[0]: Invalid value: "tier": exists in both matchLabelKeys and labelSelector`,
        `${TSC_PATH}[0].matchLabelKeys[1]: Invalid value: "app": exists in both matchLabelKeys and labelSelector`,
        `${TSC_PATH}[0].matchLabelKeys[2]: Invalid value: "bad key": ${NAME_FORMAT}`,
      ],
    ],
    [
      'matchLabelKeys without a selector (allowed in 1.26)',
      [{ ...zone, labelSelector: undefined, matchLabelKeys: ['app'] }],
      [],
    ],
    [
      'selector values not checked (1.26)',
      [{ ...zone, labelSelector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['not valid!'] }] } }],
      [],
    ],
    [
      'errors in constraint order',
      [
        { ...zone, maxSkew: 0, minDomains: -1 },
        { ...zone, topologyKey: '' },
      ],
      [
        `${TSC_PATH}[0].maxSkew: Invalid value: 0: must be greater than zero`,
        `${TSC_PATH}[0].minDomains: Invalid value: -1: must be greater than zero`,
        `${TSC_PATH}[1].topologyKey: Required value: can not be empty`,
      ],
    ],
  ])('%s', (_name, constraints, expected) => {
    expect(texts(set(TSC, constraints))).toEqual(expected);
  });
});

const VOL = 'spec.template.spec.volumes[0].downwardAPI';
const downward = (items: unknown[]): Mutation => set(`${SPEC}.volumes`, [{ name: 'podinfo', downwardAPI: { items } }]);

describe('downwardAPI volume items', () => {
  it('accepts realistic items', () => {
    expect(
      texts(
        downward([
          { path: 'labels', fieldRef: { fieldPath: 'metadata.labels' } },
          { path: 'team', fieldRef: { fieldPath: "metadata.annotations['example.com/team']" }, mode: 0o444 },
          { path: 'limits/cpu', resourceFieldRef: { containerName: 'web', resource: 'limits.cpu', divisor: '1m' } },
          { path: 'hp', resourceFieldRef: { containerName: 'web', resource: 'requests.hugepages-2Mi' } },
        ]),
      ),
    ).toEqual([]);
  });

  it.each<[string, unknown[], string[]]>([
    ['no path', [{ fieldRef: { fieldPath: 'metadata.name' } }], [`${VOL}.path: Required value`]],
    [
      'absolute path',
      [{ path: '/etc/name', fieldRef: { fieldPath: 'metadata.name' } }],
      [`${VOL}.path: Invalid value: "/etc/name": must be a relative path`],
    ],
    [
      'path going up',
      [{ path: 'a/../../b', fieldRef: { fieldPath: 'metadata.name' } }],
      [`${VOL}.path: Invalid value: "a/../../b": must not contain '..'`],
    ],
    [
      'path starting with ..',
      [{ path: '..data', fieldRef: { fieldPath: 'metadata.name' } }],
      [`${VOL}.path: Invalid value: "..data": must not start with '..'`],
    ],
    [
      'neither reference',
      [{ path: 'x' }],
      [`${VOL}: Required value: one of fieldRef and resourceFieldRef is required`],
    ],
    [
      'both references',
      [
        {
          path: 'x',
          fieldRef: { fieldPath: 'metadata.name' },
          resourceFieldRef: { containerName: 'web', resource: 'limits.cpu' },
        },
      ],
      [`${VOL}: Invalid value: "resource": fieldRef and resourceFieldRef can not be specified simultaneously`],
    ],
    [
      'a field the volume cannot show',
      [{ path: 'x', fieldRef: { fieldPath: 'status.podIP' } }],
      [
        `${VOL}.fieldRef.fieldPath: Unsupported value: "status.podIP": supported values: "metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid"`,
      ],
    ],
    [
      'a field label conversion rejects',
      [{ path: 'x', fieldRef: { fieldPath: 'spec.nothing' } }],
      [
        `${VOL}.fieldRef.fieldPath: Invalid value: "spec.nothing": error converting fieldPath: field label not supported: spec.nothing`,
      ],
    ],
    [
      'resourceFieldRef without containerName',
      [{ path: 'x', resourceFieldRef: { resource: 'limits.gpu' } }],
      [`${VOL}.resourceFieldRef.containerName: Required value`],
    ],
    [
      'resourceFieldRef with an unknown resource',
      [{ path: 'x', resourceFieldRef: { containerName: 'web', resource: 'limits.gpu' } }],
      [
        `${VOL}.resourceFieldRef.resource: Unsupported value: "limits.gpu": supported values: "limits.cpu", "limits.ephemeral-storage", "limits.memory", "requests.cpu", "requests.ephemeral-storage", "requests.memory"`,
      ],
    ],
    [
      'mode above 0777',
      [{ path: 'x', fieldRef: { fieldPath: 'metadata.name' }, mode: 0o1000 }],
      [`${VOL}.mode: Invalid value: 512: must be a number between 0 and 0777 (octal), both inclusive`],
    ],
    [
      'negative mode',
      [{ path: 'x', fieldRef: { fieldPath: 'metadata.name' }, mode: -1 }],
      [`${VOL}.mode: Invalid value: -1: must be a number between 0 and 0777 (octal), both inclusive`],
    ],
  ])('%s', (_name, items, expected) => {
    expect(texts(downward(items))).toEqual(expected);
  });
});

// Pins each PriorityLevelConfiguration validation rules and untrusted-JSON handling to its exact Kubernetes (or spec) text and order.
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import {
  MANDATORY_PRIORITY_LEVEL_SPECS,
  validateFlowSchema,
  validateFlowSchemaStatus,
  validatePriorityLevelConfiguration,
  validatePriorityLevelConfigurationStatus,
  validatePriorityLevelConfigurationUpdate,
} from './validation';
import { requiredEntropyBits } from './validation-prioritylevel';

import { Patch, build, aFlowSchema, aPriorityLevel, texts, R, SUBJ, RR, NR } from './testing/validation-fixtures';

describe('validatePriorityLevelConfiguration', () => {
  const L = 'spec.limited';
  const Q = `${L}.limitResponse.queuing`;

  it.each<[string, Patch[], string[]]>([
    ['a valid queuing level', [], []],
    ['a valid rejecting level', [[`${L}.limitResponse`, { type: 'Reject' }]], []],
    [
      'Exempt type on a level not named exempt',
      [
        ['metadata.name', 'other'],
        ['spec', { type: 'Exempt' }],
      ],
      ["spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'"],
    ],
    [
      'Exempt with limited',
      [['spec.type', 'Exempt']],
      [
        "spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'",
        'spec.limited: Forbidden: must be nil if the type is not Limited',
      ],
    ],
    [
      'Limited without limited',
      [[L, undefined]],
      ['spec.limited: Required value: must not be empty when type is Limited'],
    ],
    [
      'unknown type',
      [['spec.type', 'X']],
      ['spec.type: Unsupported value: "X": supported values: "Exempt", "Limited"'],
    ],
    [
      'no type',
      [['spec.type', undefined]],
      ['spec.type: Unsupported value: "": supported values: "Exempt", "Limited"'],
    ],
    [
      'negative shares',
      [[`${L}.nominalConcurrencyShares`, -1]],
      [`${L}.nominalConcurrencyShares: Invalid value: -1: must be positive`],
    ],
    [
      'zero shares (not defaulted)',
      [[`${L}.nominalConcurrencyShares`, 0]],
      [`${L}.nominalConcurrencyShares: Invalid value: 0: must be positive`],
    ],
    [
      'lendablePercent 101',
      [[`${L}.lendablePercent`, 101]],
      [`${L}.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive`],
    ],
    [
      'lendablePercent -1',
      [[`${L}.lendablePercent`, -1]],
      [`${L}.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive`],
    ],
    ['lendablePercent 100', [[`${L}.lendablePercent`, 100]], []],
    [
      'borrowingLimitPercent -1',
      [[`${L}.borrowingLimitPercent`, -1]],
      [`${L}.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer`],
    ],
    ['borrowingLimitPercent 500', [[`${L}.borrowingLimitPercent`, 500]], []],
    [
      'Reject with queuing',
      [[`${L}.limitResponse.type`, 'Reject']],
      [`${Q}: Forbidden: must be nil if limited.limitResponse.type is not Limited`],
    ],
    [
      'Queue without queuing',
      [[Q, undefined]],
      [`${Q}: Required value: must not be empty if limited.limitResponse.type is Limited`],
    ],
    [
      'limitResponse type empty',
      [[`${L}.limitResponse`, {}]],
      [`${L}.limitResponse.type: Unsupported value: "": supported values: "Queue", "Reject"`],
    ],
    [
      'limitResponse absent',
      [[`${L}.limitResponse`, undefined]],
      [`${L}.limitResponse.type: Unsupported value: "": supported values: "Queue", "Reject"`],
    ],
    [
      'queueLengthLimit -1',
      [[`${Q}.queueLengthLimit`, -1]],
      [`${Q}.queueLengthLimit: Invalid value: -1: must be positive`],
    ],
    [
      'queues -1',
      [[`${Q}.queues`, -1]],
      [
        `${Q}.queues: Invalid value: -1: must be positive`,
        `${Q}.handSize: Invalid value: 8: should not be greater than queues (-1)`,
      ],
    ],
    [
      'queues 10000001',
      [
        [`${Q}.queues`, 10000001],
        [`${Q}.handSize`, 2],
      ],
      [`${Q}.queues: Invalid value: 10000001: must not be greater than 10000000`],
    ],
    ['handSize 0', [[`${Q}.handSize`, 0]], [`${Q}.handSize: Invalid value: 0: must be positive`]],
    [
      'handSize above queues',
      [
        [`${Q}.queues`, 8],
        [`${Q}.handSize`, 9],
      ],
      [`${Q}.handSize: Invalid value: 9: should not be greater than queues (8)`],
    ],
    [
      'shuffle sharding entropy above 60 bits',
      [
        [`${Q}.queues`, 128],
        [`${Q}.handSize`, 9],
      ],
      [
        `${Q}.handSize: Invalid value: 9: required entropy bits of deckSize 128 and handSize 9 should not be greater than 60`,
      ],
    ],
    [
      'shuffle sharding entropy of exactly 60 bits',
      [
        [`${Q}.queues`, 64],
        [`${Q}.handSize`, 10],
      ],
      [],
    ],
    [
      'every error of a request, in order (shares, limitResponse, lendable, borrowing, status)',
      [
        [`${L}.nominalConcurrencyShares`, -3],
        [`${L}.lendablePercent`, 200],
        [`${L}.borrowingLimitPercent`, -2],
        [`${Q}.queueLengthLimit`, 0],
        ['status', { conditions: [{ type: 'A' }, { type: 'A' }] }],
      ],
      [
        `${L}.nominalConcurrencyShares: Invalid value: -3: must be positive`,
        `${Q}.queueLengthLimit: Invalid value: 0: must be positive`,
        `${L}.lendablePercent: Invalid value: 200: must be between 0 and 100, inclusive`,
        `${L}.borrowingLimitPercent: Invalid value: -2: if specified, must be a non-negative integer`,
        'status.conditions[1].type: Duplicate value: "A"',
      ],
    ],
  ])('%s', (_name, patches, expected) => {
    expect(texts(validatePriorityLevelConfiguration(build(aPriorityLevel, patches)))).toEqual(expected);
  });

  it('names the shares field assuredConcurrencyShares for a v1beta2 request', () => {
    const obj = build(aPriorityLevel, [['spec.limited.nominalConcurrencyShares', -1]]);
    expect(texts(validatePriorityLevelConfiguration(obj, 'v1beta2'))).toEqual([
      'spec.limited.assuredConcurrencyShares: Invalid value: -1: must be positive',
    ]);
    expect(texts(validatePriorityLevelConfigurationUpdate(obj, aPriorityLevel(), 'v1beta2'))).toEqual([
      'spec.limited.assuredConcurrencyShares: Invalid value: -1: must be positive',
    ]);
  });

  it('checks only the status on a status update', () => {
    const obj = build(aPriorityLevel, [
      ['spec.type', 'X'],
      ['status', { conditions: [{ type: 'ConcurrencyShared', lastTransitionTime: '2024-01-02T03:04:05Z' }] }],
    ]);
    expect(validatePriorityLevelConfigurationStatus(obj, aPriorityLevel())).toEqual([]);
  });

  it.each(['exempt', 'catch-all'])('accepts the fixed spec of the mandatory level %s', (name) => {
    expect(
      validatePriorityLevelConfiguration({
        metadata: { name },
        spec: structuredClone(MANDATORY_PRIORITY_LEVEL_SPECS[name]),
      }),
    ).toEqual([]);
  });

  it('rejects a changed mandatory level', () => {
    const spec = structuredClone(MANDATORY_PRIORITY_LEVEL_SPECS['catch-all']);
    if (isPlainObject(spec) && isPlainObject(spec.limited)) spec.limited.nominalConcurrencyShares = 10;
    expect(texts(validatePriorityLevelConfiguration({ metadata: { name: 'catch-all' }, spec }))).toEqual([
      'spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:"Limited", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0xc000000000)}: spec of \'catch-all\' must equal the fixed value',
    ]);
    expect(
      texts(validatePriorityLevelConfiguration({ metadata: { name: 'exempt' }, spec: { type: 'Limited' } })),
    ).toEqual([
      "spec.type: Invalid value: \"Limited\": type must be 'Exempt' if and only if name is 'exempt'",
      'spec.limited: Required value: must not be empty when type is Limited',
      'spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:"Limited", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(nil)}: spec of \'exempt\' must equal the fixed value',
    ]);
  });

  it.each<[number, number, number]>([
    [64, 8, 48],
    [128, 6, 42],
    [10, 3, 10],
    [1, 1, 0],
    [10000000, 3, 70],
  ])('requiredEntropyBits(%d, %d) = %d', (deck, hand, bits) => {
    expect(requiredEntropyBits(deck, hand)).toBe(bits);
  });
});

describe('untrusted JSON', () => {
  it.each<[string, () => ApiObject, Patch[], string[]]>([
    ['spec not an object', aFlowSchema, [['spec', 'x']], ['spec: Invalid value: "x": must be an object']],
    [
      'matchingPrecedence a string',
      aFlowSchema,
      [['spec.matchingPrecedence', '5']],
      ['spec.matchingPrecedence: Invalid value: "5": must be a 32-bit integer'],
    ],
    [
      'matchingPrecedence fractional',
      aFlowSchema,
      [['spec.matchingPrecedence', 1.5]],
      ['spec.matchingPrecedence: Invalid value: 1.5: must be a 32-bit integer'],
    ],
    [
      'matchingPrecedence beyond int32',
      aFlowSchema,
      [['spec.matchingPrecedence', 2 ** 31]],
      ['spec.matchingPrecedence: Invalid value: 2147483648: must be a 32-bit integer'],
    ],
    [
      'distinguisherMethod a string',
      aFlowSchema,
      [['spec.distinguisherMethod', 'ByUser']],
      ['spec.distinguisherMethod: Invalid value: "ByUser": must be an object'],
    ],
    [
      'priority level name a number',
      aFlowSchema,
      [['spec.priorityLevelConfiguration.name', 5]],
      ['spec.priorityLevelConfiguration.name: Invalid value: 5: must be a string'],
    ],
    ['rules a string', aFlowSchema, [['spec.rules', 'x']], ['spec.rules: Invalid value: "x": must be a list']],
    [
      'a rule that is a list',
      aFlowSchema,
      [['spec.rules[0]', []]],
      ['spec.rules[0]: Invalid value: []: must be an object'],
    ],
    ['subjects an object', aFlowSchema, [[`${R}.subjects`, {}]], [`${R}.subjects: Invalid value: {}: must be a list`]],
    ['subject kind a number', aFlowSchema, [[`${SUBJ}.kind`, 1]], [`${SUBJ}.kind: Invalid value: 1: must be a string`]],
    [
      'user a string for a User subject',
      aFlowSchema,
      [[`${SUBJ}.user`, 'bob']],
      [`${SUBJ}.user: Invalid value: "bob": must be an object`],
    ],
    [
      'user a string for a Group subject',
      aFlowSchema,
      [[SUBJ, { kind: 'Group', group: { name: 'g' }, user: 'bob' }]],
      [`${SUBJ}.user: Forbidden: user is forbidden when subject kind is not 'User'`],
    ],
    [
      'a verb that is a number',
      aFlowSchema,
      [[`${RR}.verbs`, ['get', 5, true]]],
      [`${RR}.verbs[1]: Invalid value: 5: must be a string`, `${RR}.verbs[2]: Invalid value: true: must be a string`],
    ],
    [
      'null members of a list are empty strings',
      aFlowSchema,
      [[`${NR}.nonResourceURLs`, [null]]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "": must not be empty`],
    ],
    [
      'clusterScope a string',
      aFlowSchema,
      [[`${RR}.clusterScope`, 'yes']],
      [`${RR}.clusterScope: Invalid value: "yes": must be a boolean`],
    ],
    [
      'a null rule is an empty rule',
      aFlowSchema,
      [['spec.rules[0]', null]],
      [
        `${R}.subjects: Required value: subjects must contain at least one value`,
        `${R}: Required value: at least one of resourceRules and nonResourceRules has to be non-empty`,
      ],
    ],
    ['status a list', aFlowSchema, [['status', []]], ['status: Invalid value: []: must be an object']],
    [
      'conditions an object',
      aFlowSchema,
      [['status', { conditions: { type: 'x' } }]],
      ['status.conditions: Invalid value: {"type":"x"}: must be a list'],
    ],
    [
      'condition fields of the wrong type',
      aFlowSchema,
      [
        [
          'status',
          { conditions: [{ type: 3, status: true, reason: [], message: {}, lastTransitionTime: 'yesterday' }] },
        ],
      ],
      [
        'status.conditions[0].type: Invalid value: 3: must be a string',
        'status.conditions[0].status: Invalid value: true: must be a string',
        'status.conditions[0].reason: Invalid value: []: must be a string',
        'status.conditions[0].message: Invalid value: {}: must be a string',
        'status.conditions[0].lastTransitionTime: Invalid value: "yesterday": must be a timestamp in RFC 3339 format',
      ],
    ],
    ['PLC spec a number', aPriorityLevel, [['spec', 7]], ['spec: Invalid value: 7: must be an object']],
    ['PLC type a number', aPriorityLevel, [['spec.type', 7]], ['spec.type: Invalid value: 7: must be a string']],
    [
      'limited a string',
      aPriorityLevel,
      [['spec.limited', 'x']],
      ['spec.limited: Invalid value: "x": must be an object'],
    ],
    [
      'queues a string',
      aPriorityLevel,
      [['spec.limited.limitResponse.queuing.queues', '64']],
      ['spec.limited.limitResponse.queuing.queues: Invalid value: "64": must be a 32-bit integer'],
    ],
    [
      'lendablePercent a string',
      aPriorityLevel,
      [['spec.limited.lendablePercent', '5']],
      ['spec.limited.lendablePercent: Invalid value: "5": must be a 32-bit integer'],
    ],
  ])('%s', (_name, base, patches, expected) => {
    const obj = build(base, patches);
    const validate = base === aFlowSchema ? validateFlowSchema : validatePriorityLevelConfiguration;
    expect(texts(validate(obj))).toEqual(expected);
  });

  const oddValues: unknown[] = [null, 'x', '', 0, -1, 1.5, true, [], {}, [null], [5], [{}], { a: 1 }];

  /** Every path of a JSON tree: objects' keys and arrays' indexes. */
  function paths(value: unknown, prefix: string): string[] {
    if (Array.isArray(value)) return value.flatMap((v, i) => [`${prefix}[${i}]`, ...paths(v, `${prefix}[${i}]`)]);
    if (isPlainObject(value))
      return Object.entries(value).flatMap(([k, v]) => [`${prefix}.${k}`, ...paths(v, `${prefix}.${k}`)]);
    return [];
  }

  it.each<[string, () => ApiObject]>([
    ['FlowSchema', aFlowSchema],
    ['PriorityLevelConfiguration', aPriorityLevel],
  ])('never throws on a %s with any field of any type', (_kind, base) => {
    const all = ['spec', 'status', ...paths(base().spec, 'spec')];
    const validators = [
      (o: ApiObject) => validateFlowSchema(o),
      (o: ApiObject) => validatePriorityLevelConfiguration(o),
      (o: ApiObject) => validateFlowSchemaStatus(o, o),
    ];
    for (const path of all) {
      for (const value of oddValues) {
        const obj = build(base, [[path, structuredClone(value)]]);
        for (const validate of validators) expect(Array.isArray(validate(obj))).toBe(true);
      }
    }
  });
});

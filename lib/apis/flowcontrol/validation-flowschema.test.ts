// Pins each FlowSchema validation rule (spec, subjects, status, update) to its exact Kubernetes (or spec) text and order.
import { validateFlowSchema, validateFlowSchemaStatus, validateFlowSchemaUpdate } from './validation';

import {
  SUBDOMAIN_TEXT,
  LABEL_TEXT,
  NS_INTRO,
  Patch,
  build,
  aFlowSchema,
  texts,
  R,
  SUBJ,
  RR,
  NR,
} from './testing/validation-fixtures';

describe('validateFlowSchema', () => {
  it.each<[string, Patch[], string[]]>([
    ['a complete valid schema', [], []],
    [
      'matchingPrecedence negative',
      [['spec.matchingPrecedence', -5]],
      ['spec.matchingPrecedence: Invalid value: -5: must be a positive value'],
    ],
    [
      'matchingPrecedence 0 (not defaulted)',
      [['spec.matchingPrecedence', 0]],
      ['spec.matchingPrecedence: Invalid value: 0: must be a positive value'],
    ],
    [
      'matchingPrecedence absent (not defaulted)',
      [['spec.matchingPrecedence', undefined]],
      ['spec.matchingPrecedence: Invalid value: 0: must be a positive value'],
    ],
    [
      'matchingPrecedence 10001',
      [['spec.matchingPrecedence', 10001]],
      ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000'],
    ],
    ['matchingPrecedence 10000', [['spec.matchingPrecedence', 10000]], []],
    [
      'matchingPrecedence 1 on a schema not named exempt',
      [['spec.matchingPrecedence', 1]],
      ["spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"],
    ],
    [
      'unknown distinguisher method',
      [['spec.distinguisherMethod.type', 'X']],
      [
        'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"X"}: supported values: "ByNamespace", "ByUser"',
      ],
    ],
    [
      'distinguisher method without type',
      [['spec.distinguisherMethod', {}]],
      [
        'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:""}: supported values: "ByNamespace", "ByUser"',
      ],
    ],
    ['ByNamespace distinguisher', [['spec.distinguisherMethod.type', 'ByNamespace']], []],
    ['no distinguisher', [['spec.distinguisherMethod', undefined]], []],
    [
      'empty priority level name',
      [['spec.priorityLevelConfiguration.name', '']],
      ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level'],
    ],
    [
      'no priority level reference',
      [['spec.priorityLevelConfiguration', undefined]],
      ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level'],
    ],
    [
      'priority level name not a DNS subdomain',
      [['spec.priorityLevelConfiguration.name', 'Bad_Name']],
      [`spec.priorityLevelConfiguration.name: Invalid value: "Bad_Name": ${SUBDOMAIN_TEXT}`],
    ],
    ['no rules', [['spec.rules', undefined]], []],
    [
      'rule without subjects',
      [[`${R}.subjects`, []]],
      [`${R}.subjects: Required value: subjects must contain at least one value`],
    ],
    [
      'rule with neither resource nor non-resource rules',
      [
        [`${R}.resourceRules`, undefined],
        [`${R}.nonResourceRules`, []],
      ],
      [`${R}: Required value: at least one of resourceRules and nonResourceRules has to be non-empty`],
    ],
    [
      'unknown subject kind',
      [[`${SUBJ}.kind`, 'Foo']],
      [`${SUBJ}.kind: Unsupported value: "Foo": supported values: "Group", "ServiceAccount", "User"`],
    ],
    [
      'ServiceAccount subject without serviceAccount, with user',
      [[`${SUBJ}.kind`, 'ServiceAccount']],
      [
        `${SUBJ}.serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'`,
        `${SUBJ}.user: Forbidden: user is forbidden when subject kind is not 'User'`,
      ],
    ],
    [
      'User subject without user',
      [[SUBJ, { kind: 'User' }]],
      [`${SUBJ}.user: Required value: user is required when subject kind is 'User'`],
    ],
    [
      'Group subject without group',
      [[SUBJ, { kind: 'Group' }]],
      [`${SUBJ}.group: Required value: group is required when subject kind is 'Group'`],
    ],
    [
      'Group subject with user and serviceAccount as well',
      [
        [
          SUBJ,
          { kind: 'Group', group: { name: 'g' }, user: { name: 'u' }, serviceAccount: { namespace: 'ns', name: 'sa' } },
        ],
      ],
      [
        `${SUBJ}.serviceAccount: Forbidden: serviceAccount is forbidden when subject kind is not 'ServiceAccount'`,
        `${SUBJ}.user: Forbidden: user is forbidden when subject kind is not 'User'`,
      ],
    ],
    [
      'User subject with group as well',
      [[SUBJ, { kind: 'User', user: { name: 'u' }, group: { name: 'g' } }]],
      [`${SUBJ}.group: Forbidden: group is forbidden when subject kind is not 'Group'`],
    ],
    ['empty user name', [[`${SUBJ}.user.name`, '']], [`${SUBJ}.user.name: Required value`]],
    ['empty group name', [[SUBJ, { kind: 'Group', group: {} }]], [`${SUBJ}.group.name: Required value`]],
    ['group * matches every group', [[SUBJ, { kind: 'Group', group: { name: '*' } }]], []],
    [
      'service account with empty name and namespace',
      [[SUBJ, { kind: 'ServiceAccount', serviceAccount: { name: '', namespace: '' } }]],
      [
        `${SUBJ}.serviceAccount.name: Required value`,
        `${SUBJ}.serviceAccount.namespace: Required value: must specify namespace for service account`,
      ],
    ],
    [
      'service account with bad name and namespace',
      [[SUBJ, { kind: 'ServiceAccount', serviceAccount: { name: 'Bad_SA', namespace: 'Bad.NS' } }]],
      [
        `${SUBJ}.serviceAccount.name: Invalid value: "Bad_SA": ${SUBDOMAIN_TEXT}`,
        `${SUBJ}.serviceAccount.namespace: Invalid value: "Bad.NS": ${LABEL_TEXT}`,
      ],
    ],
    [
      'service account * of a namespace',
      [[SUBJ, { kind: 'ServiceAccount', serviceAccount: { name: '*', namespace: 'kube-system' } }]],
      [],
    ],
    [
      'every error of a request, in order',
      [
        ['spec.matchingPrecedence', 0],
        ['spec.priorityLevelConfiguration.name', ''],
        [`${R}.subjects`, []],
        [`${RR}.verbs`, []],
        [`${RR}.namespaces`, ['Bad']],
        [`${NR}.nonResourceURLs`, ['x', '/y*']],
        ['spec.rules[1]', {}],
      ],
      [
        'spec.matchingPrecedence: Invalid value: 0: must be a positive value',
        'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
        `${R}.subjects: Required value: subjects must contain at least one value`,
        `${RR}.verbs: Required value: verbs must contain at least one value`,
        `${RR}.namespaces[0]: Invalid value: "Bad": ${NS_INTRO}${LABEL_TEXT}`,
        `${NR}.nonResourceURLs[0]: Invalid value: "x": must start with slash`,
        `${NR}.nonResourceURLs[1]: Invalid value: "/y*": partial wildcards are not allowed`,
        'spec.rules[1].subjects: Required value: subjects must contain at least one value',
        'spec.rules[1]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
      ],
    ],
    [
      'status conditions: duplicate and empty types',
      [['status', { conditions: [{ type: 'Dangling', status: 'True' }, { type: 'Dangling' }, {}] }]],
      [
        'status.conditions[1].type: Duplicate value: "Dangling"',
        'status.conditions[2].type: Required value: must not be empty',
      ],
    ],
  ])('%s', (_name, patches, expected) => {
    expect(texts(validateFlowSchema(build(aFlowSchema, patches)))).toEqual(expected);
  });

  it('re-validates the whole object on update', () => {
    const old = aFlowSchema();
    const obj = build(aFlowSchema, [['spec.matchingPrecedence', -1]]);
    expect(texts(validateFlowSchemaUpdate(obj, old))).toEqual([
      'spec.matchingPrecedence: Invalid value: -1: must be a positive value',
    ]);
  });

  it('checks only the status on a status update', () => {
    const obj = build(aFlowSchema, [
      ['spec.matchingPrecedence', -1],
      ['status', { conditions: [{ type: '' }] }],
    ]);
    expect(texts(validateFlowSchemaStatus(obj, aFlowSchema()))).toEqual([
      'status.conditions[0].type: Required value: must not be empty',
    ]);
  });
});

// Pins each FlowSchema validation rules (incl. the mandatory objects) to its exact Kubernetes (or spec) text and order.
import type { ApiObject } from '../../apimachinery/meta/types';
import {
  MANDATORY_FLOW_SCHEMA_SPECS,
  MANDATORY_PRIORITY_LEVEL_SPECS,
  validateFlowSchema,
  validateFlowSchemaStatus,
  validateFlowSchemaUpdate,
} from './validation';

import {
  SUBDOMAIN_TEXT,
  LABEL_TEXT,
  VERBS,
  NS_INTRO,
  Patch,
  set,
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
      'resource rule without verbs',
      [[`${RR}.verbs`, []]],
      [`${RR}.verbs: Required value: verbs must contain at least one value`],
    ],
    [
      'resource rule verbs * with others',
      [[`${RR}.verbs`, ['*', 'get']]],
      [`${RR}.verbs: Invalid value: []string{"*", "get"}: if '*' is present, must not specify other verbs`],
    ],
    ['resource rule verbs *', [[`${RR}.verbs`, ['*']]], []],
    [
      'resource rule unsupported verb',
      [[`${RR}.verbs`, ['get', 'post']]],
      [`${RR}.verbs: Unsupported value: []string{"get", "post"}: supported values: ${VERBS}`],
    ],
    [
      'resource rule without apiGroups',
      [[`${RR}.apiGroups`, undefined]],
      [`${RR}.apiGroups: Required value: resource rules must supply at least one api group`],
    ],
    [
      'resource rule apiGroups * with others',
      [[`${RR}.apiGroups`, ['*', 'apps']]],
      [`${RR}.apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other api groups`],
    ],
    [
      'resource rule without resources',
      [[`${RR}.resources`, []]],
      [`${RR}.resources: Required value: resource rules must supply at least one resource`],
    ],
    [
      'resource rule resources * with others',
      [[`${RR}.resources`, ['pods', '*']]],
      [`${RR}.resources: Invalid value: []string{"pods", "*"}: if '*' is present, must not specify other resources`],
    ],
    [
      'namespaced rule without namespaces',
      [[`${RR}.namespaces`, []]],
      [
        `${RR}.namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace`,
      ],
    ],
    [
      'namespaced rule with null namespaces and clusterScope false',
      [
        [`${RR}.namespaces`, null],
        [`${RR}.clusterScope`, false],
      ],
      [
        `${RR}.namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace`,
      ],
    ],
    [
      'cluster-scoped rule without namespaces',
      [
        [`${RR}.namespaces`, undefined],
        [`${RR}.clusterScope`, true],
      ],
      [],
    ],
    [
      'namespaces * with others',
      [[`${RR}.namespaces`, ['*', 'default']]],
      [
        `${RR}.namespaces: Invalid value: []string{"*", "default"}: if '*' is present, must not specify other namespaces`,
      ],
    ],
    ['namespaces *', [[`${RR}.namespaces`, ['*']]], []],
    [
      'namespace not a DNS label',
      [[`${RR}.namespaces`, ['default', 'Bad']]],
      [`${RR}.namespaces[1]: Invalid value: "Bad": ${NS_INTRO}${LABEL_TEXT}`],
    ],
    // Spec wins: "" means "any specified namespace".
    ['namespaces [""] (spec: any specified namespace)', [[`${RR}.namespaces`, ['']]], []],
    ['namespaces "" among others', [[`${RR}.namespaces`, ['', 'default']]], []],
    [
      'non-resource rule unsupported verb (HTTP method)',
      [[`${NR}.verbs`, ['post']]],
      [`${NR}.verbs: Unsupported value: []string{"post"}: supported values: ${VERBS}`],
    ],
    [
      'non-resource rule without verbs',
      [[`${NR}.verbs`, undefined]],
      [`${NR}.verbs: Required value: verbs must contain at least one value`],
    ],
    [
      'non-resource rule without URLs',
      [[`${NR}.nonResourceURLs`, []]],
      [`${NR}.nonResourceURLs: Required value: nonResourceURLs must contain at least one value`],
    ],
    [
      'URL * with others',
      [[`${NR}.nonResourceURLs`, ['*', '/healthz']]],
      [
        `${NR}.nonResourceURLs: Invalid value: []string{"*", "/healthz"}: if '*' is present, must not specify other non-resource URLs`,
      ],
    ],
    ['URL * alone', [[`${NR}.nonResourceURLs`, ['*']]], []],
    ['URL root', [[`${NR}.nonResourceURLs`, ['/']]], []],
    ['URL ending in / (matches sub-paths)', [[`${NR}.nonResourceURLs`, ['/healthz/', '/livez']]], []],
    [
      'empty URL',
      [[`${NR}.nonResourceURLs`, ['']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "": must not be empty`],
    ],
    [
      'URL without leading slash',
      [[`${NR}.nonResourceURLs`, ['healthz']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "healthz": must start with slash`],
    ],
    [
      'URL with a space',
      [[`${NR}.nonResourceURLs`, ['/a b']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "/a b": must not contain white-space`],
    ],
    [
      'URL with double slash',
      [[`${NR}.nonResourceURLs`, ['/a//b']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "/a//b": must not contain double slash`],
    ],
    // Spec wins: no trailing /* and no partial wildcards.
    [
      'URL ending in /*',
      [[`${NR}.nonResourceURLs`, ['/healthz', '/healthz/*']]],
      [
        `${NR}.nonResourceURLs[1]: Invalid value: "/healthz/*": must not end with "/*"; a path ending in "/" matches all its sub-paths`,
      ],
    ],
    [
      'URL /*',
      [[`${NR}.nonResourceURLs`, ['/*']]],
      [
        `${NR}.nonResourceURLs[0]: Invalid value: "/*": must not end with "/*"; a path ending in "/" matches all its sub-paths`,
      ],
    ],
    [
      'URL prefix*',
      [[`${NR}.nonResourceURLs`, ['/healthz*']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "/healthz*": partial wildcards are not allowed`],
    ],
    [
      'URL with inner *',
      [[`${NR}.nonResourceURLs`, ['/api/*/x']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "/api/*/x": partial wildcards are not allowed`],
    ],
    [
      'URL ending in /**',
      [[`${NR}.nonResourceURLs`, ['/a/**']]],
      [`${NR}.nonResourceURLs[0]: Invalid value: "/a/**": partial wildcards are not allowed`],
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

describe('mandatory FlowSchemas', () => {
  const mandatory = (name: string, spec: unknown): ApiObject => ({ metadata: { name }, spec: structuredClone(spec) });

  it.each(['exempt', 'catch-all'])('accepts the fixed spec of %s', (name) => {
    expect(validateFlowSchema(mandatory(name, MANDATORY_FLOW_SCHEMA_SPECS[name]))).toEqual([]);
  });

  it('treats null and empty lists, absent and null pointers as Kubernetes does', () => {
    const obj = mandatory('exempt', MANDATORY_FLOW_SCHEMA_SPECS.exempt);
    set(obj, 'spec.distinguisherMethod', null);
    set(obj, 'spec.rules[0].resourceRules[0].clusterScope', true);
    expect(validateFlowSchema(obj)).toEqual([]);
  });

  it('rejects any other spec with a Go dump of the spec', () => {
    const obj = mandatory('catch-all', {
      priorityLevelConfiguration: { name: 'catch-all' },
      matchingPrecedence: 10000,
    });
    expect(texts(validateFlowSchema(obj))).toEqual([
      'spec: Invalid value: flowcontrol.FlowSchemaSpec{PriorityLevelConfiguration:flowcontrol.PriorityLevelConfigurationReference{Name:"catch-all"}, MatchingPrecedence:10000, DistinguisherMethod:(*flowcontrol.FlowDistinguisherMethod)(nil), Rules:[]flowcontrol.PolicyRulesWithSubjects(nil)}: spec of \'catch-all\' must equal the fixed value',
    ]);
  });

  it('dumps rules with nested pointers and slices', () => {
    const obj = mandatory('exempt', {
      priorityLevelConfiguration: { name: 'exempt' },
      matchingPrecedence: 1,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [{ kind: 'Group', group: { name: 'system:masters' } }],
          nonResourceRules: [{ verbs: ['*'], nonResourceURLs: [] }],
        },
      ],
    });
    expect(texts(validateFlowSchema(obj))).toEqual([
      'spec.rules[0].nonResourceRules[0].nonResourceURLs: Required value: nonResourceURLs must contain at least one value',
      'spec: Invalid value: flowcontrol.FlowSchemaSpec{PriorityLevelConfiguration:flowcontrol.PriorityLevelConfigurationReference{Name:"exempt"}, MatchingPrecedence:1, DistinguisherMethod:(*flowcontrol.FlowDistinguisherMethod)(0xc000000000), Rules:[]flowcontrol.PolicyRulesWithSubjects{flowcontrol.PolicyRulesWithSubjects{Subjects:[]flowcontrol.Subject{flowcontrol.Subject{Kind:"Group", User:(*flowcontrol.UserSubject)(nil), Group:(*flowcontrol.GroupSubject)(0xc000000000), ServiceAccount:(*flowcontrol.ServiceAccountSubject)(nil)}}, ResourceRules:[]flowcontrol.ResourcePolicyRule(nil), NonResourceRules:[]flowcontrol.NonResourcePolicyRule{flowcontrol.NonResourcePolicyRule{Verbs:[]string{"*"}, NonResourceURLs:[]string{}}}}}}: spec of \'exempt\' must equal the fixed value',
    ]);
  });

  it('keeps the fixed specs frozen', () => {
    expect(Object.isFrozen(MANDATORY_FLOW_SCHEMA_SPECS.exempt)).toBe(true);
    expect(Object.isFrozen(MANDATORY_PRIORITY_LEVEL_SPECS['catch-all']?.limited)).toBe(true);
  });
});

// Pins each FlowSchema / PriorityLevelConfiguration validation rule to its exact Kubernetes (or spec) text and order.
import type { FieldError } from '../../apimachinery/field/errors';
import { fieldErrorText } from '../../apimachinery/field/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import {
  MANDATORY_FLOW_SCHEMA_SPECS,
  MANDATORY_PRIORITY_LEVEL_SPECS,
  validateFlowSchema,
  validateFlowSchemaStatus,
  validateFlowSchemaUpdate,
  validatePriorityLevelConfiguration,
  validatePriorityLevelConfigurationStatus,
  validatePriorityLevelConfigurationUpdate,
} from './validation';
import { requiredEntropyBits } from './validation-prioritylevel';

const SUBDOMAIN_TEXT =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL_TEXT =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const VERBS = '"create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"';
const NS_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";

type Patch = [path: string, value: unknown];

/** Sets (or, with `undefined`, deletes) a value at `a.b[0].c`, creating containers on the way. */
function set(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split(/\.|\[(\d+)\]/).filter((k) => k !== undefined && k !== '');
  let node: unknown = target;
  keys.forEach((key, i) => {
    const last = i === keys.length - 1;
    const container = node as Record<string, unknown>; // test fixture: containers were created below
    if (last) {
      if (value === undefined) delete container[key];
      else container[key] = value;
      return;
    }
    if (typeof container[key] !== 'object' || container[key] === null) container[key] = /^\d+$/.test(keys[i + 1] ?? '') ? [] : {};
    node = container[key];
  });
}

function build(base: () => ApiObject, patches: Patch[]): ApiObject {
  const obj = base();
  for (const [path, value] of patches) set(obj, path, value);
  return obj;
}

function aFlowSchema(): ApiObject {
  return {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'FlowSchema',
    metadata: { name: 'fs' },
    spec: {
      priorityLevelConfiguration: { name: 'pl' },
      matchingPrecedence: 500,
      distinguisherMethod: { type: 'ByUser' },
      rules: [
        {
          subjects: [{ kind: 'User', user: { name: 'alice' } }],
          resourceRules: [{ verbs: ['get'], apiGroups: [''], resources: ['pods'], namespaces: ['default'] }],
          nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/healthz'] }],
        },
      ],
    },
  };
}

function aPriorityLevel(): ApiObject {
  return {
    apiVersion: 'flowcontrol.apiserver.orch.io/v1beta3',
    kind: 'PriorityLevelConfiguration',
    metadata: { name: 'pl' },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: 30,
        lendablePercent: 0,
        limitResponse: { type: 'Queue', queuing: { queues: 64, handSize: 8, queueLengthLimit: 50 } },
      },
    },
  };
}

const texts = (errs: FieldError[]): string[] => errs.map(fieldErrorText);

const R = 'spec.rules[0]';
const SUBJ = `${R}.subjects[0]`;
const RR = `${R}.resourceRules[0]`;
const NR = `${R}.nonResourceRules[0]`;

describe('validateFlowSchema', () => {
  it.each<[string, Patch[], string[]]>([
    ['a complete valid schema', [], []],
    ['matchingPrecedence negative', [['spec.matchingPrecedence', -5]], ['spec.matchingPrecedence: Invalid value: -5: must be a positive value']],
    ['matchingPrecedence 0 (not defaulted)', [['spec.matchingPrecedence', 0]], ['spec.matchingPrecedence: Invalid value: 0: must be a positive value']],
    ['matchingPrecedence absent (not defaulted)', [['spec.matchingPrecedence', undefined]], ['spec.matchingPrecedence: Invalid value: 0: must be a positive value']],
    ['matchingPrecedence 10001', [['spec.matchingPrecedence', 10001]], ['spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000']],
    ['matchingPrecedence 10000', [['spec.matchingPrecedence', 10000]], []],
    [
      'matchingPrecedence 1 on a schema not named exempt',
      [['spec.matchingPrecedence', 1]],
      ["spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1"],
    ],
    [
      'unknown distinguisher method',
      [['spec.distinguisherMethod.type', 'X']],
      ['spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"X"}: supported values: "ByNamespace", "ByUser"'],
    ],
    [
      'distinguisher method without type',
      [['spec.distinguisherMethod', {}]],
      ['spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:""}: supported values: "ByNamespace", "ByUser"'],
    ],
    ['ByNamespace distinguisher', [['spec.distinguisherMethod.type', 'ByNamespace']], []],
    ['no distinguisher', [['spec.distinguisherMethod', undefined]], []],
    ['empty priority level name', [['spec.priorityLevelConfiguration.name', '']], ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level']],
    ['no priority level reference', [['spec.priorityLevelConfiguration', undefined]], ['spec.priorityLevelConfiguration.name: Required value: must reference a priority level']],
    [
      'priority level name not a DNS subdomain',
      [['spec.priorityLevelConfiguration.name', 'Bad_Name']],
      [`spec.priorityLevelConfiguration.name: Invalid value: "Bad_Name": ${SUBDOMAIN_TEXT}`],
    ],
    ['no rules', [['spec.rules', undefined]], []],
    ['rule without subjects', [[`${R}.subjects`, []]], [`${R}.subjects: Required value: subjects must contain at least one value`]],
    [
      'rule with neither resource nor non-resource rules',
      [
        [`${R}.resourceRules`, undefined],
        [`${R}.nonResourceRules`, []],
      ],
      [`${R}: Required value: at least one of resourceRules and nonResourceRules has to be non-empty`],
    ],
    ['unknown subject kind', [[`${SUBJ}.kind`, 'Foo']], [`${SUBJ}.kind: Unsupported value: "Foo": supported values: "Group", "ServiceAccount", "User"`]],
    [
      'ServiceAccount subject without serviceAccount, with user',
      [[`${SUBJ}.kind`, 'ServiceAccount']],
      [
        `${SUBJ}.serviceAccount: Required value: serviceAccount is required when subject kind is 'ServiceAccount'`,
        `${SUBJ}.user: Forbidden: user is forbidden when subject kind is not 'User'`,
      ],
    ],
    ['User subject without user', [[SUBJ, { kind: 'User' }]], [`${SUBJ}.user: Required value: user is required when subject kind is 'User'`]],
    ['Group subject without group', [[SUBJ, { kind: 'Group' }]], [`${SUBJ}.group: Required value: group is required when subject kind is 'Group'`]],
    [
      'Group subject with user and serviceAccount as well',
      [[SUBJ, { kind: 'Group', group: { name: 'g' }, user: { name: 'u' }, serviceAccount: { namespace: 'ns', name: 'sa' } }]],
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
      [`${SUBJ}.serviceAccount.name: Required value`, `${SUBJ}.serviceAccount.namespace: Required value: must specify namespace for service account`],
    ],
    [
      'service account with bad name and namespace',
      [[SUBJ, { kind: 'ServiceAccount', serviceAccount: { name: 'Bad_SA', namespace: 'Bad.NS' } }]],
      [`${SUBJ}.serviceAccount.name: Invalid value: "Bad_SA": ${SUBDOMAIN_TEXT}`, `${SUBJ}.serviceAccount.namespace: Invalid value: "Bad.NS": ${LABEL_TEXT}`],
    ],
    ['service account * of a namespace', [[SUBJ, { kind: 'ServiceAccount', serviceAccount: { name: '*', namespace: 'kube-system' } }]], []],
    ['resource rule without verbs', [[`${RR}.verbs`, []]], [`${RR}.verbs: Required value: verbs must contain at least one value`]],
    ['resource rule verbs * with others', [[`${RR}.verbs`, ['*', 'get']]], [`${RR}.verbs: Invalid value: []string{"*", "get"}: if '*' is present, must not specify other verbs`]],
    ['resource rule verbs *', [[`${RR}.verbs`, ['*']]], []],
    ['resource rule unsupported verb', [[`${RR}.verbs`, ['get', 'post']]], [`${RR}.verbs: Unsupported value: []string{"get", "post"}: supported values: ${VERBS}`]],
    ['resource rule without apiGroups', [[`${RR}.apiGroups`, undefined]], [`${RR}.apiGroups: Required value: resource rules must supply at least one api group`]],
    [
      'resource rule apiGroups * with others',
      [[`${RR}.apiGroups`, ['*', 'apps']]],
      [`${RR}.apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other api groups`],
    ],
    ['resource rule without resources', [[`${RR}.resources`, []]], [`${RR}.resources: Required value: resource rules must supply at least one resource`]],
    [
      'resource rule resources * with others',
      [[`${RR}.resources`, ['pods', '*']]],
      [`${RR}.resources: Invalid value: []string{"pods", "*"}: if '*' is present, must not specify other resources`],
    ],
    [
      'namespaced rule without namespaces',
      [[`${RR}.namespaces`, []]],
      [`${RR}.namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace`],
    ],
    [
      'namespaced rule with null namespaces and clusterScope false',
      [
        [`${RR}.namespaces`, null],
        [`${RR}.clusterScope`, false],
      ],
      [`${RR}.namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace`],
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
      [`${RR}.namespaces: Invalid value: []string{"*", "default"}: if '*' is present, must not specify other namespaces`],
    ],
    ['namespaces *', [[`${RR}.namespaces`, ['*']]], []],
    ['namespace not a DNS label', [[`${RR}.namespaces`, ['default', 'Bad']]], [`${RR}.namespaces[1]: Invalid value: "Bad": ${NS_INTRO}${LABEL_TEXT}`]],
    // Spec wins: "" means "any specified namespace".
    ['namespaces [""] (spec: any specified namespace)', [[`${RR}.namespaces`, ['']]], []],
    ['namespaces "" among others', [[`${RR}.namespaces`, ['', 'default']]], []],
    ['non-resource rule unsupported verb (HTTP method)', [[`${NR}.verbs`, ['post']]], [`${NR}.verbs: Unsupported value: []string{"post"}: supported values: ${VERBS}`]],
    ['non-resource rule without verbs', [[`${NR}.verbs`, undefined]], [`${NR}.verbs: Required value: verbs must contain at least one value`]],
    ['non-resource rule without URLs', [[`${NR}.nonResourceURLs`, []]], [`${NR}.nonResourceURLs: Required value: nonResourceURLs must contain at least one value`]],
    [
      'URL * with others',
      [[`${NR}.nonResourceURLs`, ['*', '/healthz']]],
      [`${NR}.nonResourceURLs: Invalid value: []string{"*", "/healthz"}: if '*' is present, must not specify other non-resource URLs`],
    ],
    ['URL * alone', [[`${NR}.nonResourceURLs`, ['*']]], []],
    ['URL root', [[`${NR}.nonResourceURLs`, ['/']]], []],
    ['URL ending in / (matches sub-paths)', [[`${NR}.nonResourceURLs`, ['/healthz/', '/livez']]], []],
    ['empty URL', [[`${NR}.nonResourceURLs`, ['']]], [`${NR}.nonResourceURLs[0]: Invalid value: "": must not be empty`]],
    ['URL without leading slash', [[`${NR}.nonResourceURLs`, ['healthz']]], [`${NR}.nonResourceURLs[0]: Invalid value: "healthz": must start with slash`]],
    ['URL with a space', [[`${NR}.nonResourceURLs`, ['/a b']]], [`${NR}.nonResourceURLs[0]: Invalid value: "/a b": must not contain white-space`]],
    ['URL with double slash', [[`${NR}.nonResourceURLs`, ['/a//b']]], [`${NR}.nonResourceURLs[0]: Invalid value: "/a//b": must not contain double slash`]],
    // Spec wins: no trailing /* and no partial wildcards.
    [
      'URL ending in /*',
      [[`${NR}.nonResourceURLs`, ['/healthz', '/healthz/*']]],
      [`${NR}.nonResourceURLs[1]: Invalid value: "/healthz/*": must not end with "/*"; a path ending in "/" matches all its sub-paths`],
    ],
    ['URL /*', [[`${NR}.nonResourceURLs`, ['/*']]], [`${NR}.nonResourceURLs[0]: Invalid value: "/*": must not end with "/*"; a path ending in "/" matches all its sub-paths`]],
    ['URL prefix*', [[`${NR}.nonResourceURLs`, ['/healthz*']]], [`${NR}.nonResourceURLs[0]: Invalid value: "/healthz*": partial wildcards are not allowed`]],
    ['URL with inner *', [[`${NR}.nonResourceURLs`, ['/api/*/x']]], [`${NR}.nonResourceURLs[0]: Invalid value: "/api/*/x": partial wildcards are not allowed`]],
    ['URL ending in /**', [[`${NR}.nonResourceURLs`, ['/a/**']]], [`${NR}.nonResourceURLs[0]: Invalid value: "/a/**": partial wildcards are not allowed`]],
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
      ['status.conditions[1].type: Duplicate value: "Dangling"', 'status.conditions[2].type: Required value: must not be empty'],
    ],
  ])('%s', (_name, patches, expected) => {
    expect(texts(validateFlowSchema(build(aFlowSchema, patches)))).toEqual(expected);
  });

  it('re-validates the whole object on update', () => {
    const old = aFlowSchema();
    const obj = build(aFlowSchema, [['spec.matchingPrecedence', -1]]);
    expect(texts(validateFlowSchemaUpdate(obj, old))).toEqual(['spec.matchingPrecedence: Invalid value: -1: must be a positive value']);
  });

  it('checks only the status on a status update', () => {
    const obj = build(aFlowSchema, [
      ['spec.matchingPrecedence', -1],
      ['status', { conditions: [{ type: '' }] }],
    ]);
    expect(texts(validateFlowSchemaStatus(obj, aFlowSchema()))).toEqual(['status.conditions[0].type: Required value: must not be empty']);
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
    const obj = mandatory('catch-all', { priorityLevelConfiguration: { name: 'catch-all' }, matchingPrecedence: 10000 });
    expect(texts(validateFlowSchema(obj))).toEqual([
      "spec: Invalid value: flowcontrol.FlowSchemaSpec{PriorityLevelConfiguration:flowcontrol.PriorityLevelConfigurationReference{Name:\"catch-all\"}, MatchingPrecedence:10000, DistinguisherMethod:(*flowcontrol.FlowDistinguisherMethod)(nil), Rules:[]flowcontrol.PolicyRulesWithSubjects(nil)}: spec of 'catch-all' must equal the fixed value",
    ]);
  });

  it('dumps rules with nested pointers and slices', () => {
    const obj = mandatory('exempt', {
      priorityLevelConfiguration: { name: 'exempt' },
      matchingPrecedence: 1,
      distinguisherMethod: { type: 'ByUser' },
      rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:masters' } }], nonResourceRules: [{ verbs: ['*'], nonResourceURLs: [] }] }],
    });
    expect(texts(validateFlowSchema(obj))).toEqual([
      'spec.rules[0].nonResourceRules[0].nonResourceURLs: Required value: nonResourceURLs must contain at least one value',
      "spec: Invalid value: flowcontrol.FlowSchemaSpec{PriorityLevelConfiguration:flowcontrol.PriorityLevelConfigurationReference{Name:\"exempt\"}, MatchingPrecedence:1, DistinguisherMethod:(*flowcontrol.FlowDistinguisherMethod)(0xc000000000), Rules:[]flowcontrol.PolicyRulesWithSubjects{flowcontrol.PolicyRulesWithSubjects{Subjects:[]flowcontrol.Subject{flowcontrol.Subject{Kind:\"Group\", User:(*flowcontrol.UserSubject)(nil), Group:(*flowcontrol.GroupSubject)(0xc000000000), ServiceAccount:(*flowcontrol.ServiceAccountSubject)(nil)}}, ResourceRules:[]flowcontrol.ResourcePolicyRule(nil), NonResourceRules:[]flowcontrol.NonResourcePolicyRule{flowcontrol.NonResourcePolicyRule{Verbs:[]string{\"*\"}, NonResourceURLs:[]string{}}}}}}: spec of 'exempt' must equal the fixed value",
    ]);
  });

  it('keeps the fixed specs frozen', () => {
    expect(Object.isFrozen(MANDATORY_FLOW_SCHEMA_SPECS.exempt)).toBe(true);
    expect(Object.isFrozen(MANDATORY_PRIORITY_LEVEL_SPECS['catch-all']?.limited)).toBe(true);
  });
});

describe('validatePriorityLevelConfiguration', () => {
  const L = 'spec.limited';
  const Q = `${L}.limitResponse.queuing`;

  it.each<[string, Patch[], string[]]>([
    ['a valid queuing level', [], []],
    ['a valid rejecting level', [[`${L}.limitResponse`, { type: 'Reject' }]], []],
    ['Exempt type on a level not named exempt', [['metadata.name', 'other'], ['spec', { type: 'Exempt' }]], ["spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'"]],
    [
      'Exempt with limited',
      [['spec.type', 'Exempt']],
      ["spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'", 'spec.limited: Forbidden: must be nil if the type is not Limited'],
    ],
    ['Limited without limited', [[L, undefined]], ['spec.limited: Required value: must not be empty when type is Limited']],
    ['unknown type', [['spec.type', 'X']], ['spec.type: Unsupported value: "X": supported values: "Exempt", "Limited"']],
    ['no type', [['spec.type', undefined]], ['spec.type: Unsupported value: "": supported values: "Exempt", "Limited"']],
    ['negative shares', [[`${L}.nominalConcurrencyShares`, -1]], [`${L}.nominalConcurrencyShares: Invalid value: -1: must be positive`]],
    ['zero shares (not defaulted)', [[`${L}.nominalConcurrencyShares`, 0]], [`${L}.nominalConcurrencyShares: Invalid value: 0: must be positive`]],
    ['lendablePercent 101', [[`${L}.lendablePercent`, 101]], [`${L}.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive`]],
    ['lendablePercent -1', [[`${L}.lendablePercent`, -1]], [`${L}.lendablePercent: Invalid value: -1: must be between 0 and 100, inclusive`]],
    ['lendablePercent 100', [[`${L}.lendablePercent`, 100]], []],
    ['borrowingLimitPercent -1', [[`${L}.borrowingLimitPercent`, -1]], [`${L}.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer`]],
    ['borrowingLimitPercent 500', [[`${L}.borrowingLimitPercent`, 500]], []],
    [
      'Reject with queuing',
      [[`${L}.limitResponse.type`, 'Reject']],
      [`${Q}: Forbidden: must be nil if limited.limitResponse.type is not Limited`],
    ],
    ['Queue without queuing', [[Q, undefined]], [`${Q}: Required value: must not be empty if limited.limitResponse.type is Limited`]],
    ['limitResponse type empty', [[`${L}.limitResponse`, {}]], [`${L}.limitResponse.type: Unsupported value: "": supported values: "Queue", "Reject"`]],
    ['limitResponse absent', [[`${L}.limitResponse`, undefined]], [`${L}.limitResponse.type: Unsupported value: "": supported values: "Queue", "Reject"`]],
    ['queueLengthLimit -1', [[`${Q}.queueLengthLimit`, -1]], [`${Q}.queueLengthLimit: Invalid value: -1: must be positive`]],
    ['queues -1', [[`${Q}.queues`, -1]], [`${Q}.queues: Invalid value: -1: must be positive`, `${Q}.handSize: Invalid value: 8: should not be greater than queues (-1)`]],
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
      [`${Q}.handSize: Invalid value: 9: required entropy bits of deckSize 128 and handSize 9 should not be greater than 60`],
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
    expect(texts(validatePriorityLevelConfiguration(obj, 'v1beta2'))).toEqual(['spec.limited.assuredConcurrencyShares: Invalid value: -1: must be positive']);
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
    expect(validatePriorityLevelConfiguration({ metadata: { name }, spec: structuredClone(MANDATORY_PRIORITY_LEVEL_SPECS[name]) })).toEqual([]);
  });

  it('rejects a changed mandatory level', () => {
    const spec = structuredClone(MANDATORY_PRIORITY_LEVEL_SPECS['catch-all']);
    if (isPlainObject(spec) && isPlainObject(spec.limited)) spec.limited.nominalConcurrencyShares = 10;
    expect(texts(validatePriorityLevelConfiguration({ metadata: { name: 'catch-all' }, spec }))).toEqual([
      "spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:\"Limited\", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(0xc000000000)}: spec of 'catch-all' must equal the fixed value",
    ]);
    expect(texts(validatePriorityLevelConfiguration({ metadata: { name: 'exempt' }, spec: { type: 'Limited' } }))).toEqual([
      "spec.type: Invalid value: \"Limited\": type must be 'Exempt' if and only if name is 'exempt'",
      'spec.limited: Required value: must not be empty when type is Limited',
      "spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{Type:\"Limited\", Limited:(*flowcontrol.LimitedPriorityLevelConfiguration)(nil)}: spec of 'exempt' must equal the fixed value",
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
    ['matchingPrecedence a string', aFlowSchema, [['spec.matchingPrecedence', '5']], ['spec.matchingPrecedence: Invalid value: "5": must be a 32-bit integer']],
    ['matchingPrecedence fractional', aFlowSchema, [['spec.matchingPrecedence', 1.5]], ['spec.matchingPrecedence: Invalid value: 1.5: must be a 32-bit integer']],
    ['matchingPrecedence beyond int32', aFlowSchema, [['spec.matchingPrecedence', 2 ** 31]], ['spec.matchingPrecedence: Invalid value: 2147483648: must be a 32-bit integer']],
    ['distinguisherMethod a string', aFlowSchema, [['spec.distinguisherMethod', 'ByUser']], ['spec.distinguisherMethod: Invalid value: "ByUser": must be an object']],
    ['priority level name a number', aFlowSchema, [['spec.priorityLevelConfiguration.name', 5]], ['spec.priorityLevelConfiguration.name: Invalid value: 5: must be a string']],
    ['rules a string', aFlowSchema, [['spec.rules', 'x']], ['spec.rules: Invalid value: "x": must be a list']],
    ['a rule that is a list', aFlowSchema, [['spec.rules[0]', []]], ['spec.rules[0]: Invalid value: []: must be an object']],
    ['subjects an object', aFlowSchema, [[`${R}.subjects`, {}]], [`${R}.subjects: Invalid value: {}: must be a list`]],
    ['subject kind a number', aFlowSchema, [[`${SUBJ}.kind`, 1]], [`${SUBJ}.kind: Invalid value: 1: must be a string`]],
    ['user a string for a User subject', aFlowSchema, [[`${SUBJ}.user`, 'bob']], [`${SUBJ}.user: Invalid value: "bob": must be an object`]],
    ['user a string for a Group subject', aFlowSchema, [[SUBJ, { kind: 'Group', group: { name: 'g' }, user: 'bob' }]], [`${SUBJ}.user: Forbidden: user is forbidden when subject kind is not 'User'`]],
    ['a verb that is a number', aFlowSchema, [[`${RR}.verbs`, ['get', 5, true]]], [`${RR}.verbs[1]: Invalid value: 5: must be a string`, `${RR}.verbs[2]: Invalid value: true: must be a string`]],
    ['null members of a list are empty strings', aFlowSchema, [[`${NR}.nonResourceURLs`, [null]]], [`${NR}.nonResourceURLs[0]: Invalid value: "": must not be empty`]],
    ['clusterScope a string', aFlowSchema, [[`${RR}.clusterScope`, 'yes']], [`${RR}.clusterScope: Invalid value: "yes": must be a boolean`]],
    ['a null rule is an empty rule', aFlowSchema, [['spec.rules[0]', null]], [`${R}.subjects: Required value: subjects must contain at least one value`, `${R}: Required value: at least one of resourceRules and nonResourceRules has to be non-empty`]],
    ['status a list', aFlowSchema, [['status', []]], ['status: Invalid value: []: must be an object']],
    ['conditions an object', aFlowSchema, [['status', { conditions: { type: 'x' } }]], ['status.conditions: Invalid value: {"type":"x"}: must be a list']],
    [
      'condition fields of the wrong type',
      aFlowSchema,
      [['status', { conditions: [{ type: 3, status: true, reason: [], message: {}, lastTransitionTime: 'yesterday' }] }]],
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
    ['limited a string', aPriorityLevel, [['spec.limited', 'x']], ['spec.limited: Invalid value: "x": must be an object']],
    ['queues a string', aPriorityLevel, [['spec.limited.limitResponse.queuing.queues', '64']], ['spec.limited.limitResponse.queuing.queues: Invalid value: "64": must be a 32-bit integer']],
    ['lendablePercent a string', aPriorityLevel, [['spec.limited.lendablePercent', '5']], ['spec.limited.lendablePercent: Invalid value: "5": must be a 32-bit integer']],
  ])('%s', (_name, base, patches, expected) => {
    const obj = build(base, patches);
    const validate = base === aFlowSchema ? validateFlowSchema : validatePriorityLevelConfiguration;
    expect(texts(validate(obj))).toEqual(expected);
  });

  const oddValues: unknown[] = [null, 'x', '', 0, -1, 1.5, true, [], {}, [null], [5], [{}], { a: 1 }];

  /** Every path of a JSON tree: objects' keys and arrays' indexes. */
  function paths(value: unknown, prefix: string): string[] {
    if (Array.isArray(value)) return value.flatMap((v, i) => [`${prefix}[${i}]`, ...paths(v, `${prefix}[${i}]`)]);
    if (isPlainObject(value)) return Object.entries(value).flatMap(([k, v]) => [`${prefix}.${k}`, ...paths(v, `${prefix}.${k}`)]);
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

// Pins the mandatory FlowSchemas (exempt, catch-all): their fixed specs are accepted, frozen, and any other spec is rejected with a Go dump.
import type { ApiObject } from '../../apimachinery/meta/types';
import { MANDATORY_FLOW_SCHEMA_SPECS, MANDATORY_PRIORITY_LEVEL_SPECS, validateFlowSchema } from './validation';
import { set, texts } from './testing/validation-fixtures';

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

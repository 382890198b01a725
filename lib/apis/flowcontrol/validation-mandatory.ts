// The mandatory FlowSchemas and priority levels (`exempt`, `catch-all`): their fixed specs and the check that freezes them.
import type { FieldError } from '../../apimachinery/field/errors';
import { goLiteral, goQuote, invalidValue } from '../../apimachinery/field/errors';
import type { FieldPath } from '../../apimachinery/field/path';
import { isPlainObject } from '../../apimachinery/meta/types';
import type { JsonObject } from '../../apimachinery/validation/untrusted-json';
import { goPointerText, goStringSliceText } from '../../apimachinery/validation/untrusted-json';
import { semanticEqual } from '../../apimachinery/validation/semantic-equal';
import { FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE } from './validation-flowschema';

// Frozen because callers (the bootstrap maintainer, tests) may build objects from these.
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const everythingRules = (): JsonObject => ({
  resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'], clusterScope: true, namespaces: ['*'] }],
  nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
});

/**
 * The specs (after v1beta3 defaulting) of the mandatory FlowSchemas, from Kubernetes 1.26's
 * bootstrap configuration. Validation rejects any other spec under these names.
 */
export const MANDATORY_FLOW_SCHEMA_SPECS: Readonly<Record<string, JsonObject>> = deepFreeze({
  exempt: {
    priorityLevelConfiguration: { name: 'exempt' },
    matchingPrecedence: 1,
    rules: [{ subjects: [{ kind: 'Group', group: { name: 'system:masters' } }], ...everythingRules() }],
  },
  'catch-all': {
    priorityLevelConfiguration: { name: 'catch-all' },
    matchingPrecedence: FLOW_SCHEMA_MAX_MATCHING_PRECEDENCE,
    distinguisherMethod: { type: 'ByUser' },
    rules: [
      {
        subjects: [
          { kind: 'Group', group: { name: 'system:unauthenticated' } },
          { kind: 'Group', group: { name: 'system:authenticated' } },
        ],
        ...everythingRules(),
      },
    ],
  },
});

/** `spec: Invalid value: flowcontrol.FlowSchemaSpec{…}: spec of '<name>' must equal the fixed value` for a changed mandatory schema. */
export function validateMandatoryFlowSchemaSpec(name: string, value: unknown, path: FieldPath): FieldError[] {
  if (!Object.hasOwn(MANDATORY_FLOW_SCHEMA_SPECS, name)) return [];
  const want = MANDATORY_FLOW_SCHEMA_SPECS[name];
  const have = toGoFlowSchemaSpec(value);
  if (semanticEqual(have, toGoFlowSchemaSpec(want))) return [];
  return [invalidValue(path, goLiteral(dumpFlowSchemaSpec(have)), `spec of '${name}' must equal the fixed value`)];
}

// The internal Go structs, decoded the way Go would (absent or wrongly typed → zero value), so the
// comparison and the %#v dump follow Kubernetes.
interface GoResourceRule {
  verbs: string[] | null;
  apiGroups: string[] | null;
  resources: string[] | null;
  clusterScope: boolean;
  namespaces: string[] | null;
}
interface GoNonResourceRule {
  verbs: string[] | null;
  nonResourceURLs: string[] | null;
}
interface GoSubject {
  kind: string;
  user: { name: string } | null;
  group: { name: string } | null;
  serviceAccount: { namespace: string; name: string } | null;
}
interface GoRule {
  subjects: GoSubject[] | null;
  resourceRules: GoResourceRule[] | null;
  nonResourceRules: GoNonResourceRule[] | null;
}
interface GoFlowSchemaSpec {
  priorityLevelConfiguration: { name: string };
  matchingPrecedence: number;
  distinguisherMethod: { type: string } | null;
  rules: GoRule[] | null;
}

function obj(v: unknown): JsonObject {
  return isPlainObject(v) ? v : {};
}
function ptr(v: unknown): JsonObject | null {
  return isPlainObject(v) ? v : null;
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}
function strs(v: unknown): string[] | null {
  return Array.isArray(v) ? v.map(str) : null;
}
function list<T>(v: unknown, each: (x: unknown) => T): T[] | null {
  return Array.isArray(v) ? v.map(each) : null;
}
function optional<T>(v: unknown, each: (o: JsonObject) => T): T | null {
  const p = ptr(v);
  return p === null ? null : each(p);
}

function toGoFlowSchemaSpec(value: unknown): GoFlowSchemaSpec {
  const s = obj(value);
  return {
    priorityLevelConfiguration: { name: str(obj(s.priorityLevelConfiguration).name) },
    matchingPrecedence: typeof s.matchingPrecedence === 'number' ? s.matchingPrecedence : 0,
    distinguisherMethod: optional(s.distinguisherMethod, (d) => ({ type: str(d.type) })),
    rules: list(s.rules, (rv) => {
      const r = obj(rv);
      return {
        subjects: list(r.subjects, (sv) => {
          const sub = obj(sv);
          return {
            kind: str(sub.kind),
            user: optional(sub.user, (u) => ({ name: str(u.name) })),
            group: optional(sub.group, (g) => ({ name: str(g.name) })),
            serviceAccount: optional(sub.serviceAccount, (sa) => ({
              namespace: str(sa.namespace),
              name: str(sa.name),
            })),
          };
        }),
        resourceRules: list(r.resourceRules, (xv) => {
          const x = obj(xv);
          return {
            verbs: strs(x.verbs),
            apiGroups: strs(x.apiGroups),
            resources: strs(x.resources),
            clusterScope: x.clusterScope === true,
            namespaces: strs(x.namespaces),
          };
        }),
        nonResourceRules: list(r.nonResourceRules, (xv) => {
          const x = obj(xv);
          return { verbs: strs(x.verbs), nonResourceURLs: strs(x.nonResourceURLs) };
        }),
      };
    }),
  };
}

function goSlice<T>(typeName: string, items: T[] | null, dump: (item: T) => string): string {
  return items === null ? `[]${typeName}(nil)` : `[]${typeName}{${items.map(dump).join(', ')}}`;
}

/** Go's `%#v` of an internal flowcontrol.FlowSchemaSpec (field order of the internal type). */
function dumpFlowSchemaSpec(spec: GoFlowSchemaSpec): string {
  const rules = goSlice('flowcontrol.PolicyRulesWithSubjects', spec.rules, (r) => {
    const subjects = goSlice(
      'flowcontrol.Subject',
      r.subjects,
      (s) =>
        `flowcontrol.Subject{Kind:${goQuote(s.kind)}, User:${goPointerText('flowcontrol.UserSubject', s.user === null)}, ` +
        `Group:${goPointerText('flowcontrol.GroupSubject', s.group === null)}, ` +
        `ServiceAccount:${goPointerText('flowcontrol.ServiceAccountSubject', s.serviceAccount === null)}}`,
    );
    const resourceRules = goSlice(
      'flowcontrol.ResourcePolicyRule',
      r.resourceRules,
      (x) =>
        `flowcontrol.ResourcePolicyRule{Verbs:${goStringSliceText(x.verbs)}, APIGroups:${goStringSliceText(x.apiGroups)}, ` +
        `Resources:${goStringSliceText(x.resources)}, ClusterScope:${x.clusterScope}, Namespaces:${goStringSliceText(x.namespaces)}}`,
    );
    const nonResourceRules = goSlice(
      'flowcontrol.NonResourcePolicyRule',
      r.nonResourceRules,
      (x) =>
        `flowcontrol.NonResourcePolicyRule{Verbs:${goStringSliceText(x.verbs)}, NonResourceURLs:${goStringSliceText(x.nonResourceURLs)}}`,
    );
    return `flowcontrol.PolicyRulesWithSubjects{Subjects:${subjects}, ResourceRules:${resourceRules}, NonResourceRules:${nonResourceRules}}`;
  });
  return (
    `flowcontrol.FlowSchemaSpec{PriorityLevelConfiguration:flowcontrol.PriorityLevelConfigurationReference{Name:${goQuote(spec.priorityLevelConfiguration.name)}}, ` +
    `MatchingPrecedence:${spec.matchingPrecedence}, ` +
    `DistinguisherMethod:${goPointerText('flowcontrol.FlowDistinguisherMethod', spec.distinguisherMethod === null)}, Rules:${rules}}`
  );
}

/**
 * The specs (after v1beta3 defaulting) of the mandatory priority levels, from Kubernetes 1.26's
 * bootstrap configuration.
 */
export const MANDATORY_PRIORITY_LEVEL_SPECS: Readonly<Record<string, JsonObject>> = deepFreeze({
  exempt: { type: 'Exempt' },
  'catch-all': {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 5, lendablePercent: 0, limitResponse: { type: 'Reject' } },
  },
});

/** `spec: Invalid value: flowcontrol.PriorityLevelConfigurationSpec{…}: spec of '<name>' must equal the fixed value`. */
export function validateMandatoryPriorityLevelSpec(name: string, value: unknown, path: FieldPath): FieldError[] {
  if (!Object.hasOwn(MANDATORY_PRIORITY_LEVEL_SPECS, name)) return [];
  const have = toGoPriorityLevelSpec(value);
  if (semanticEqual(have, toGoPriorityLevelSpec(MANDATORY_PRIORITY_LEVEL_SPECS[name]))) return [];
  const dump =
    `flowcontrol.PriorityLevelConfigurationSpec{Type:${goQuote(have.type)}, ` +
    `Limited:${goPointerText('flowcontrol.LimitedPriorityLevelConfiguration', have.limited === null)}}`;
  return [invalidValue(path, goLiteral(dump), `spec of '${name}' must equal the fixed value`)];
}

interface GoPriorityLevelSpec {
  type: string;
  limited: {
    nominalConcurrencyShares: number;
    limitResponse: { type: string; queuing: { queues: number; handSize: number; queueLengthLimit: number } | null };
    lendablePercent: number | null;
    borrowingLimitPercent: number | null;
  } | null;
}

function int(v: unknown): number {
  return typeof v === 'number' ? v : 0;
}
function intPtr(v: unknown): number | null {
  return typeof v === 'number' ? v : null;
}

function toGoPriorityLevelSpec(value: unknown): GoPriorityLevelSpec {
  const s = obj(value);
  return {
    type: str(s.type),
    limited: optional(s.limited, (l) => {
      const lr = obj(l.limitResponse);
      return {
        nominalConcurrencyShares: int(l.nominalConcurrencyShares),
        limitResponse: {
          type: str(lr.type),
          queuing: optional(lr.queuing, (q) => ({
            queues: int(q.queues),
            handSize: int(q.handSize),
            queueLengthLimit: int(q.queueLengthLimit),
          })),
        },
        lendablePercent: intPtr(l.lendablePercent),
        borrowingLimitPercent: intPtr(l.borrowingLimitPercent),
      };
    }),
  };
}

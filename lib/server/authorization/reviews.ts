// The access reviews (pkg/registry/authorization): SelfSubjectAccessReview, SubjectAccessReview and (in one
// namespace) LocalSubjectAccessReview ask the authorizer about one request; SelfSubjectRulesReview lists the caller's
// rules in a namespace.
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import { badRequest, invalid } from '../../apimachinery/errors';
import type { UserInfo } from '../../apimachinery/user';
import {
  validateLocalSubjectAccessReview,
  validateSelfSubjectAccessReview,
  validateSubjectAccessReview,
} from '../../apis/authorization/validation';
import type { ReviewResource } from '../../endpoints/reviews';
import { defaultStrategy } from '../../registry/rest/strategy';
import type { ResourceDefinition } from '../../registry/rest/resource';
import type { Attributes } from './attributes';
import type { Authorizer } from './authorizer';
import { aggregateMessages } from './authorizer';
import type { PolicyRule } from '../../apis/rbac/types';

export const AUTHORIZATION_GROUP = 'authorization.orch.io';

/** The rules a user holds in a namespace, from every authorizer that can list them. */
export interface RulesResolver {
  rulesFor(user: UserInfo, namespace: string): { rules: PolicyRule[]; incomplete: boolean; errors: string[] };
}

const clusterScoped = { ...defaultStrategy, namespaced: false };
const namespaceScoped = { ...defaultStrategy, namespaced: true };

function definition(resource: string, kind: string, strategy = clusterScoped): ResourceDefinition {
  return {
    group: AUTHORIZATION_GROUP,
    version: 'v1',
    resource,
    kind,
    listKind: `${kind}List`,
    shortNames: [],
    categories: [],
    strategy,
  };
}

function text(obj: Record<string, unknown>, key: string): string {
  return typeof obj[key] === 'string' ? (obj[key] as string) : '';
}

/** authorizationutil.ResourceAttributesFrom / NonResourceAttributesFrom. */
function attributesFrom(user: UserInfo, spec: Record<string, unknown>): Attributes {
  const r = spec['resourceAttributes'];
  if (isPlainObject(r)) {
    return {
      user,
      verb: text(r, 'verb'),
      isResourceRequest: true,
      path: '',
      apiGroup: text(r, 'group'),
      apiVersion: text(r, 'version') || '*',
      namespace: text(r, 'namespace'),
      resource: text(r, 'resource'),
      subresource: text(r, 'subresource'),
      name: text(r, 'name'),
    };
  }
  const n = isPlainObject(spec['nonResourceAttributes']) ? spec['nonResourceAttributes'] : {};
  return {
    user,
    verb: text(n, 'verb'),
    isResourceRequest: false,
    path: text(n, 'path'),
    apiGroup: '',
    apiVersion: '',
    namespace: '',
    resource: '',
    subresource: '',
    name: '',
  };
}

function statusOf(authorizer: Authorizer, a: Attributes): Record<string, unknown> {
  const { decision, reason } = authorizer.authorize(a);
  const status: Record<string, unknown> = { allowed: decision === 'allow' };
  if (decision === 'deny') status['denied'] = true;
  if (reason !== '') status['reason'] = reason;
  return status;
}

function check(kind: string, errors: ReturnType<typeof validateSubjectAccessReview>): void {
  if (errors.length > 0) throw invalid({ group: AUTHORIZATION_GROUP, kind }, '', errors);
}

/** The status of a review about the user its spec names (SubjectAccessReview, LocalSubjectAccessReview). */
function subjectStatus(authorizer: Authorizer, spec: Record<string, unknown>): Record<string, unknown> {
  const extra = isPlainObject(spec['extra']) ? (spec['extra'] as Record<string, string[]>) : undefined;
  const subject: UserInfo = {
    name: text(spec, 'user'),
    uid: text(spec, 'uid'),
    groups: Array.isArray(spec['groups']) ? (spec['groups'] as string[]) : [],
    ...(extra ? { extra } : {}),
  };
  return statusOf(authorizer, attributesFrom(subject, spec));
}

export function accessReviews(authorizer: Authorizer, resolver: RulesResolver): ReviewResource[] {
  return [
    {
      definition: definition('selfsubjectaccessreviews', 'SelfSubjectAccessReview'),
      review(obj, user) {
        check('SelfSubjectAccessReview', validateSelfSubjectAccessReview(obj));
        const spec = isPlainObject(obj['spec']) ? obj['spec'] : {};
        return { ...obj, status: statusOf(authorizer, attributesFrom(user, spec)) };
      },
    },
    {
      definition: definition('subjectaccessreviews', 'SubjectAccessReview'),
      review(obj) {
        check('SubjectAccessReview', validateSubjectAccessReview(obj));
        return { ...obj, status: subjectStatus(authorizer, isPlainObject(obj['spec']) ? obj['spec'] : {}) };
      },
    },
    {
      definition: definition('localsubjectaccessreviews', 'LocalSubjectAccessReview', namespaceScoped),
      review(obj) {
        check('LocalSubjectAccessReview', validateLocalSubjectAccessReview(obj));
        // The handler put the path's namespace on the object; these are the REST's own checks (localsubjectaccessreview.REST).
        const namespace = obj.metadata?.namespace ?? '';
        if (namespace === '') throw badRequest(`namespace is required on this type: ${namespace}`);
        return { ...obj, status: subjectStatus(authorizer, isPlainObject(obj['spec']) ? obj['spec'] : {}) };
      },
    },
    {
      definition: definition('selfsubjectrulesreviews', 'SelfSubjectRulesReview'),
      review(obj, user) {
        const spec = isPlainObject(obj['spec']) ? obj['spec'] : {};
        const namespace = text(spec, 'namespace');
        if (namespace === '') throw badRequest('no namespace on request');
        const { rules, incomplete, errors } = resolver.rulesFor(user, namespace);
        const status: Record<string, unknown> = {
          resourceRules: rules
            .filter((r) => (r.resources ?? []).length > 0)
            .map((r) => ({
              verbs: r.verbs,
              apiGroups: r.apiGroups,
              resources: r.resources,
              resourceNames: r.resourceNames,
            })),
          nonResourceRules: rules
            .filter((r) => (r.nonResourceURLs ?? []).length > 0)
            .map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
          incomplete,
        };
        if (errors.length > 0) status['evaluationError'] = aggregateMessages(errors);
        // Upstream answers a new object: the request's metadata and spec are not echoed.
        return { apiVersion: obj.apiVersion, kind: obj.kind, metadata: {}, spec: {}, status } as ApiObject;
      },
    },
  ];
}

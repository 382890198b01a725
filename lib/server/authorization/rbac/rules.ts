// RBAC rule and subject matching (plugin/pkg/auth/authorizer/rbac: RuleAllows, appliesTo) with either RBAC group spelling.
import { canonicalGroup } from '../../../apimachinery/schema/group-aliases';
import type { UserInfo } from '../../../apimachinery/user';
import {
  API_GROUP_ALL,
  GROUP_KIND,
  NON_RESOURCE_ALL,
  RESOURCE_ALL,
  SERVICE_ACCOUNT_KIND,
  USER_KIND,
  VERB_ALL,
  type PolicyRule,
  type Subject,
} from '../../../apis/rbac/types';
import type { Attributes } from '../attributes';

/** A rule with its API groups in their served spelling (`rbac.authorization.k8s.io` → the orch.io name). */
export interface CompiledRule extends PolicyRule {
  canonicalGroups: string[];
}

export function compileRule(rule: PolicyRule): CompiledRule {
  return { ...rule, canonicalGroups: (rule.apiGroups ?? []).map(canonicalGroup) };
}

function verbMatches(rule: PolicyRule, verb: string): boolean {
  return rule.verbs.some((v) => v === VERB_ALL || v === verb);
}

function apiGroupMatches(rule: CompiledRule, group: string): boolean {
  const wanted = canonicalGroup(group);
  return rule.canonicalGroups.some((g) => g === API_GROUP_ALL || g === wanted);
}

function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === RESOURCE_ALL || r === combined) return true;
    if (subresource !== '' && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource))
      return true;
  }
  return false;
}

function resourceNameMatches(rule: PolicyRule, name: string): boolean {
  const names = rule.resourceNames ?? [];
  return names.length === 0 || names.includes(name);
}

function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const url of rule.nonResourceURLs ?? []) {
    if (url === NON_RESOURCE_ALL || url === path) return true;
    if (url.endsWith('*') && path.startsWith(url.replace(/\*+$/, ''))) return true;
  }
  return false;
}

export function ruleAllows(a: Attributes, rule: CompiledRule): boolean {
  if (!verbMatches(rule, a.verb)) return false;
  if (!a.isResourceRequest) return nonResourceURLMatches(rule, a.path);
  const combined = a.subresource === '' ? a.resource : `${a.resource}/${a.subresource}`;
  return (
    apiGroupMatches(rule, a.apiGroup) &&
    resourceMatches(rule, combined, a.subresource) &&
    resourceNameMatches(rule, a.name)
  );
}

/** `system:serviceaccount:<ns>:<name>` */
export function serviceAccountUsername(namespace: string, name: string): string {
  return `system:serviceaccount:${namespace}:${name}`;
}

/**
 * The index keys a subject is found under: users and service accounts by user name, groups by group; a service
 * account without a namespace takes the binding's (none for a ClusterRoleBinding: it matches nobody).
 */
export function subjectKey(subject: Subject, bindingNamespace: string): string | undefined {
  switch (subject.kind) {
    case USER_KIND:
      return `u:${subject.name}`;
    case GROUP_KIND:
      return `g:${subject.name}`;
    case SERVICE_ACCOUNT_KIND: {
      const ns = subject.namespace || bindingNamespace;
      return ns === '' ? undefined : `u:${serviceAccountUsername(ns, subject.name)}`;
    }
    default:
      return undefined;
  }
}

/** The keys a user's bindings are indexed under. */
export function userKeys(user: UserInfo): string[] {
  return [`u:${user.name}`, ...user.groups.map((g) => `g:${g}`)];
}

// RBAC escalation prevention (pkg/registry/rbac/*/policybased, rbac/validation Covers and ConfirmNoEscalation): a
// user may write a role only holding `escalate` on it or every permission in it, a binding only holding `bind` on
// its role or every permission the role grants; system:masters may always.
import { forbidden } from '../../../apimachinery/errors';
import { goQuote } from '../../../apimachinery/field/errors';
import type { ApiObject } from '../../../apimachinery/meta/types';
import { canonicalGroup } from '../../../apimachinery/schema/group-aliases';
import { SYSTEM_PRIVILEGED_GROUP, type UserInfo } from '../../../apimachinery/user';
import {
  API_GROUP_ALL,
  RBAC_GROUP,
  RESOURCE_ALL,
  VERB_ALL,
  roleRefOf,
  rulesOf,
  type PolicyRule,
} from '../../../apis/rbac/types';
import type { WriteGuard } from '../../../registry/generic/write-guard';
import type { Authorizer } from '../authorizer';
import type { PolicySnapshot } from './policy-cache';
import { rulesFor } from './authorizer';

const FULL_AUTHORITY: PolicyRule[] = [
  { verbs: [VERB_ALL], apiGroups: [API_GROUP_ALL], resources: [RESOURCE_ALL] },
  { verbs: [VERB_ALL], nonResourceURLs: ['*'] },
];

/** One rule per group × resource × verb (× name), and per non-resource URL × verb (BreakdownRule). */
function breakdown(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs) {
        const names = rule.resourceNames ?? [];
        if (names.length > 0)
          for (const name of names)
            out.push({ apiGroups: [group], resources: [resource], verbs: [verb], resourceNames: [name] });
        else out.push({ apiGroups: [group], resources: [resource], verbs: [verb] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? [])
    for (const verb of rule.verbs) out.push({ nonResourceURLs: [url], verbs: [verb] });
  return out;
}

const hasAll = (set: readonly string[], want: readonly string[]): boolean => want.every((w) => set.includes(w));

function resourcesCover(owner: readonly string[], wanted: readonly string[]): boolean {
  if (owner.includes(RESOURCE_ALL) || hasAll(owner, wanted)) return true;
  return wanted.every(
    (path) => owner.includes(path) || (path.includes('/') && owner.includes(`*/${path.slice(path.indexOf('/') + 1)}`)),
  );
}

function urlsCover(owner: readonly string[], wanted: readonly string[]): boolean {
  return wanted.every((sub) =>
    owner.some((o) => o === sub || (o.endsWith('*') && sub.startsWith(o.replace(/\*+$/, '')))),
  );
}

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const ownerGroups = (owner.apiGroups ?? []).map(canonicalGroup);
  const verbs = owner.verbs.includes(VERB_ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = ownerGroups.includes(API_GROUP_ALL) || hasAll(ownerGroups, (sub.apiGroups ?? []).map(canonicalGroup));
  const ownerNames = owner.resourceNames ?? [];
  const subNames = sub.resourceNames ?? [];
  const names =
    subNames.length === 0 ? ownerNames.length === 0 : ownerNames.length === 0 || hasAll(ownerNames, subNames);
  return (
    verbs &&
    groups &&
    resourcesCover(owner.resources ?? [], sub.resources ?? []) &&
    urlsCover(owner.nonResourceURLs ?? [], sub.nonResourceURLs ?? []) &&
    names
  );
}

/** The sub-rules of `wanted` no owner rule covers (Covers). */
export function missingRules(owner: readonly PolicyRule[], wanted: readonly PolicyRule[]): PolicyRule[] {
  return wanted.flatMap(breakdown).filter((sub) => !owner.some((o) => ruleCovers(o, sub)));
}

/** CompactRules: single-group, single-resource rules (at most one name) merged, their verbs concatenated. */
function compact(rules: readonly PolicyRule[]): PolicyRule[] {
  const simple = new Map<string, PolicyRule>();
  const out: PolicyRule[] = [];
  for (const r of rules) {
    const isSimple =
      (r.apiGroups ?? []).length === 1 &&
      (r.resources ?? []).length === 1 &&
      (r.nonResourceURLs ?? []).length === 0 &&
      (r.resourceNames ?? []).length <= 1;
    if (!isSimple) {
      out.push(r);
      continue;
    }
    const key = JSON.stringify([r.apiGroups, r.resources, r.resourceNames ?? []]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...existing.verbs, ...r.verbs];
    else simple.set(key, { ...r, verbs: [...r.verbs] });
  }
  return [...out, ...simple.values()];
}

const goStrings = (list: readonly string[]): string => `[${list.map(goQuote).join(' ')}]`;

/** PolicyRule.CompactString: `{APIGroups:["apps"], Resources:["deployments"], Verbs:["get"]}`. */
export function compactString(r: PolicyRule): string {
  const parts: string[] = [];
  if ((r.apiGroups ?? []).length > 0) parts.push(`APIGroups:${goStrings(r.apiGroups ?? [])}`);
  if ((r.resources ?? []).length > 0) parts.push(`Resources:${goStrings(r.resources ?? [])}`);
  if ((r.nonResourceURLs ?? []).length > 0) parts.push(`NonResourceURLs:${goStrings(r.nonResourceURLs ?? [])}`);
  if ((r.resourceNames ?? []).length > 0) parts.push(`ResourceNames:${goStrings(r.resourceNames ?? [])}`);
  if (r.verbs.length > 0) parts.push(`Verbs:${goStrings(r.verbs)}`);
  return `{${parts.join(', ')}}`;
}

/** ConfirmNoEscalation's error text, or undefined when the user holds every rule. */
export function escalationError(
  snapshot: PolicySnapshot,
  user: UserInfo,
  namespace: string,
  rules: readonly PolicyRule[],
): string | undefined {
  const owned = rulesFor(snapshot, user, namespace);
  const missing = missingRules(owned.rules, rules);
  if (missing.length === 0) return undefined;
  const lines = [...new Set(compact(missing).map(compactString))].sort();
  let msg = `user ${goQuote(user.name)} (groups=${goStrings(user.groups)}) is attempting to grant RBAC permissions not currently held:\n${lines.join('\n')}`;
  if (owned.errors.length > 0) msg += `; resolution errors: [${owned.errors.join(' ')}]`;
  return msg;
}

export function escalationGuard(authorizer: Authorizer, snapshot: () => PolicySnapshot): WriteGuard {
  const allowed = (user: UserInfo, verb: string, resource: string, name: string, namespace: string): boolean =>
    authorizer.authorize({
      user,
      verb,
      isResourceRequest: true,
      path: '',
      apiGroup: RBAC_GROUP,
      apiVersion: '*',
      namespace,
      resource,
      subresource: '',
      name,
    }).decision === 'allow';
  return {
    admitWrite(def, namespace, obj: ApiObject, user) {
      if (user.groups.includes(SYSTEM_PRIVILEGED_GROUP)) return;
      const name = obj.metadata.name ?? '';
      const refuse = (reason: string): never => {
        throw forbidden({ group: def.group, resource: def.resource }, name, reason);
      };
      if (def.resource === 'roles' || def.resource === 'clusterroles') {
        if (allowed(user, 'escalate', def.resource, name, namespace)) return;
        if (
          def.resource === 'clusterroles' &&
          obj['aggregationRule'] !== undefined &&
          obj['aggregationRule'] !== null &&
          escalationError(snapshot(), user, '', FULL_AUTHORITY) !== undefined
        ) {
          refuse('must have cluster-admin privileges to use the aggregationRule');
        }
        const error = escalationError(snapshot(), user, namespace, rulesOf(obj));
        if (error !== undefined) refuse(error);
        return;
      }
      if (def.resource === 'rolebindings' || def.resource === 'clusterrolebindings') {
        const ref = roleRefOf(obj);
        if (allowed(user, 'bind', ref.kind === 'Role' ? 'roles' : 'clusterroles', ref.name, namespace)) return;
        const current = snapshot();
        const rules =
          ref.kind === 'Role' ? current.roles.get(`${namespace}/${ref.name}`) : current.clusterRoles.get(ref.name);
        if (!rules)
          refuse(`${ref.kind === 'Role' ? 'role' : 'clusterrole'}.${RBAC_GROUP} ${goQuote(ref.name)} not found`);
        const error = escalationError(current, user, namespace, rules ?? []);
        if (error !== undefined) refuse(error);
      }
    },
  };
}

// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac): the rules of every binding naming the user, its groups or
// its service account, cluster-wide and in the request's namespace; allow on the first matching rule, else no opinion.
import type { UserInfo } from '../../../apimachinery/user';
import { RBAC_GROUP, type RoleRef } from '../../../apis/rbac/types';
import type { Attributes } from '../attributes';
import { aggregateMessages, type AuthorizationResult, type Authorizer } from '../authorizer';
import type { IndexedBinding, PolicySnapshot } from './policy-cache';
import { ruleAllows, userKeys, type CompiledRule } from './rules';

/** What rule resolution saw: rules in visiting order, and the errors of bindings whose role is missing. */
type Visitor = (rules: readonly CompiledRule[] | undefined, error: string | undefined) => boolean;

function roleRules(snapshot: PolicySnapshot, ref: RoleRef, bindingNamespace: string): { rules?: CompiledRule[]; error?: string } {
  if (ref.kind === 'ClusterRole') {
    const rules = snapshot.clusterRoles.get(ref.name);
    return rules ? { rules } : { error: `clusterrole.${RBAC_GROUP} "${ref.name}" not found` };
  }
  if (ref.kind === 'Role') {
    const rules = bindingNamespace === '' ? undefined : snapshot.roles.get(`${bindingNamespace}/${ref.name}`);
    return rules ? { rules } : { error: `role.${RBAC_GROUP} "${ref.name}" not found` };
  }
  return { error: `unsupported role reference kind: "${ref.kind}"` };
}

function bindingsOf(index: Map<string, IndexedBinding[]> | undefined, keys: readonly string[]): IndexedBinding[] {
  if (!index) return [];
  const seen = new Set<string>();
  const out: IndexedBinding[] = [];
  for (const key of keys) {
    for (const binding of index.get(key) ?? []) {
      if (seen.has(binding.key)) continue;
      seen.add(binding.key);
      out.push(binding);
    }
  }
  return out;
}

/** Visits the rules that apply to `user` in `namespace` ('' = cluster scope only) until the visitor returns false. */
export function visitRulesFor(snapshot: PolicySnapshot, user: UserInfo, namespace: string, visit: Visitor): void {
  const keys = userKeys(user);
  for (const binding of bindingsOf(snapshot.clusterRoleBindings, keys)) {
    const { rules, error } = roleRules(snapshot, binding.roleRef, '');
    if (!visit(rules, error)) return;
  }
  if (namespace === '') return;
  for (const binding of bindingsOf(snapshot.roleBindings.get(namespace), keys)) {
    const { rules, error } = roleRules(snapshot, binding.roleRef, namespace);
    if (!visit(rules, error)) return;
  }
}

/** Every rule applying to `user` in `namespace`, plus the resolution errors (SelfSubjectRulesReview, escalation checks). */
export function rulesFor(snapshot: PolicySnapshot, user: UserInfo, namespace: string): { rules: CompiledRule[]; errors: string[] } {
  const rules: CompiledRule[] = [];
  const errors: string[] = [];
  visitRulesFor(snapshot, user, namespace, (r, error) => {
    if (r) rules.push(...r);
    if (error !== undefined) errors.push(error);
    return true;
  });
  return { rules, errors };
}

export class RbacAuthorizer implements Authorizer {
  constructor(readonly snapshot: () => PolicySnapshot) {}

  authorize(a: Attributes): AuthorizationResult {
    let allowed = false;
    const errors: string[] = [];
    visitRulesFor(this.snapshot(), a.user, a.namespace, (rules, error) => {
      if (error !== undefined) errors.push(error);
      if (rules?.some((rule) => ruleAllows(a, rule))) allowed = true;
      return !allowed;
    });
    if (allowed) return { decision: 'allow', reason: '' };
    return { decision: 'noOpinion', reason: errors.length > 0 ? `RBAC: ${aggregateMessages(errors)}` : '' };
  }
}

// The RBAC authorizer (plugin/pkg/auth/authorizer/rbac): the rules of every binding naming the user, its groups or
// its service account, cluster-wide and in the request's namespace; allow on the first matching rule, else no opinion.
import type { UserInfo } from '../../../apimachinery/user';
import { RBAC_GROUP, type RoleRef } from '../../../apis/rbac/types';
import type { Attributes } from '../attributes';
import { aggregateMessages, type AuthorizationResult, type Authorizer } from '../authorizer';
import { describeBinding, type IndexedBinding, type PolicySnapshot } from './policy-cache';
import { ruleAllows, userKeys, type CompiledRule } from './rules';

/**
 * What rule resolution saw: rules in visiting order with the binding that granted them (described), and the errors of
 * bindings whose role is missing.
 */
type Visitor = (rules: readonly CompiledRule[] | undefined, error: string | undefined, source: string) => boolean;

function roleRules(
  snapshot: PolicySnapshot,
  ref: RoleRef,
  bindingNamespace: string,
): { rules?: CompiledRule[]; error?: string } {
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

function bindingsOf(index: Map<string, IndexedBinding[]> | undefined, keys: ReadonlySet<string>): IndexedBinding[] {
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
  const keys = new Set(userKeys(user));
  for (const binding of bindingsOf(snapshot.clusterRoleBindings, keys)) {
    const { rules, error } = roleRules(snapshot, binding.roleRef, '');
    if (!visit(rules, error, describeBinding(binding, keys))) return;
  }
  if (namespace === '') return;
  for (const binding of bindingsOf(snapshot.roleBindings.get(namespace), keys)) {
    const { rules, error } = roleRules(snapshot, binding.roleRef, namespace);
    if (!visit(rules, error, describeBinding(binding, keys))) return;
  }
}

/** Every rule applying to `user` in `namespace`, plus the resolution errors (SelfSubjectRulesReview, escalation checks). */
export function rulesFor(snapshot: PolicySnapshot, user: UserInfo, namespace: string): ResolvedRules {
  const rules: CompiledRule[] = [];
  const sources: string[] = [];
  const errors: string[] = [];
  visitRulesFor(snapshot, user, namespace, (r, error, source) => {
    if (r) {
      rules.push(...r);
      for (let i = 0; i < r.length; i++) sources.push(source);
    }
    if (error !== undefined) errors.push(error);
    return true;
  });
  return { rules, sources, errors };
}

/** The rules that apply, each with the binding that granted it (`sources[i]` for `rules[i]`), and resolution errors. */
export interface ResolvedRules {
  rules: CompiledRule[];
  sources: string[];
  errors: string[];
}

/** Resolved rule sets kept per (user, groups, namespace) until the policy changes; bounded. */
const RESOLVED_CACHE_LIMIT = 10_000;

export class RbacAuthorizer implements Authorizer {
  #cachedFor: PolicySnapshot | undefined;
  readonly #resolved = new Map<string, ResolvedRules>();

  constructor(readonly snapshot: () => PolicySnapshot) {}

  /** The same outcome as visiting the bindings each time: every rule that applies, then allow on the first match. */
  #rulesFor(user: Attributes['user'], namespace: string): ResolvedRules {
    const snapshot = this.snapshot();
    if (snapshot !== this.#cachedFor) {
      this.#resolved.clear();
      this.#cachedFor = snapshot;
    }
    const key = `${namespace}\0${user.name}\0${user.groups.join('\0')}`;
    let found = this.#resolved.get(key);
    if (!found) {
      if (this.#resolved.size >= RESOLVED_CACHE_LIMIT) this.#resolved.clear();
      found = rulesFor(snapshot, user, namespace);
      this.#resolved.set(key, found);
    }
    return found;
  }

  authorize(a: Attributes): AuthorizationResult {
    const { rules, sources, errors } = this.#rulesFor(a.user, a.namespace);
    for (let i = 0; i < rules.length; i++)
      if (ruleAllows(a, rules[i] as CompiledRule))
        return { decision: 'allow', reason: `RBAC: allowed by ${sources[i]}` };
    return { decision: 'noOpinion', reason: errors.length > 0 ? `RBAC: ${aggregateMessages(errors)}` : '' };
  }
}

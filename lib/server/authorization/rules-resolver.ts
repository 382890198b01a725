// The rules a user holds (SelfSubjectRulesReview, `kubectl auth can-i --list`): the union of what each configured
// authorizer can list, as kube-apiserver's rule resolvers (system:masters and AlwaysAllow hold everything).
import { SYSTEM_PRIVILEGED_GROUP } from '../../apimachinery/user';
import type { PolicyRule } from '../../apis/rbac/types';
import type { AuthorizationMode } from '../options/authorization';
import { rulesFor } from './rbac/authorizer';
import type { PolicySnapshot } from './rbac/policy-cache';
import type { RulesResolver } from './reviews';

const EVERYTHING: readonly PolicyRule[] = [
  { verbs: ['*'], apiGroups: ['*'], resources: ['*'] },
  { verbs: ['*'], nonResourceURLs: ['*'] },
];

function plain(rule: PolicyRule): PolicyRule {
  const out: PolicyRule = { verbs: rule.verbs };
  if ((rule.apiGroups ?? []).length > 0) out.apiGroups = rule.apiGroups;
  if ((rule.resources ?? []).length > 0) out.resources = rule.resources;
  if ((rule.resourceNames ?? []).length > 0) out.resourceNames = rule.resourceNames;
  if ((rule.nonResourceURLs ?? []).length > 0) out.nonResourceURLs = rule.nonResourceURLs;
  return out;
}

export function rulesResolverFor(modes: readonly AuthorizationMode[], snapshot: () => PolicySnapshot): RulesResolver {
  return {
    rulesFor(user, namespace) {
      const rules: PolicyRule[] = [];
      const errors: string[] = [];
      if (user.groups.includes(SYSTEM_PRIVILEGED_GROUP)) rules.push(...EVERYTHING);
      for (const mode of modes) {
        if (mode === 'AlwaysAllow') rules.push(...EVERYTHING);
        if (mode === 'RBAC') {
          const found = rulesFor(snapshot(), user, namespace);
          rules.push(...found.rules.map(plain));
          errors.push(...found.errors);
        }
      }
      return { rules, incomplete: false, errors };
    },
  };
}

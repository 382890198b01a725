// Authorizers and their union (k8s.io/apiserver authorizer + union): the first allow or deny wins; reasons of those
// without an opinion are kept for the 403.
import { SYSTEM_PRIVILEGED_GROUP } from '../../apimachinery/user';
import type { Attributes } from './attributes';

export type Decision = 'allow' | 'deny' | 'noOpinion';

export interface AuthorizationResult {
  decision: Decision;
  reason: string;
}

export interface Authorizer {
  authorize(a: Attributes): AuthorizationResult;
}

export const ALWAYS_ALLOW: Authorizer = { authorize: () => ({ decision: 'allow', reason: '' }) };

/** AlwaysDeny has no opinion, with its reason, as upstream's alwaysDenyAuthorizer. */
export const ALWAYS_DENY: Authorizer = {
  authorize: () => ({ decision: 'noOpinion', reason: 'Everything is forbidden.' }),
};

/** kube-apiserver puts this first: members of system:masters may do anything. */
export const PRIVILEGED_GROUPS: Authorizer = {
  authorize: (a) => ({ decision: a.user.groups.includes(SYSTEM_PRIVILEGED_GROUP) ? 'allow' : 'noOpinion', reason: '' }),
};

export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    authorize(a) {
      const reasons: string[] = [];
      for (const authorizer of authorizers) {
        const result = authorizer.authorize(a);
        if (result.decision !== 'noOpinion') return result;
        if (result.reason !== '') reasons.push(result.reason);
      }
      return { decision: 'noOpinion', reason: reasons.join('\n') };
    },
  };
}

/** Go's utilerrors.NewAggregate(...).Error(): one message as is, several deduplicated in brackets. */
export function aggregateMessages(messages: readonly string[]): string {
  if (messages.length === 1) return messages[0] ?? '';
  const unique = [...new Set(messages)];
  return unique.length === 1 ? (unique[0] ?? '') : `[${unique.join(', ')}]`;
}

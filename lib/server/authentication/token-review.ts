// TokenReview (authentication.orch.io/v1, create only): another component asks who a bearer token belongs to.
import { badRequest } from '../../apimachinery/errors';
import { isPlainObject } from '../../apimachinery/meta/types';
import { userInfoJson, ALL_AUTHENTICATED } from '../../apimachinery/user';
import type { ReviewResource } from '../../endpoints/reviews';
import { defaultStrategy } from '../../registry/rest/strategy';
import type { TokenAuthenticator } from './authenticator';
import { AUTHENTICATION_GROUP } from './token-request';

export function tokenReview(
  authenticators: readonly TokenAuthenticator[],
  audiences: readonly string[],
): ReviewResource {
  return {
    definition: {
      group: AUTHENTICATION_GROUP,
      version: 'v1',
      resource: 'tokenreviews',
      kind: 'TokenReview',
      listKind: 'TokenReviewList',
      shortNames: [],
      categories: [],
      strategy: { ...defaultStrategy, namespaced: false },
    },
    async review(obj) {
      const spec = isPlainObject(obj['spec']) ? obj['spec'] : {};
      const token = typeof spec['token'] === 'string' ? spec['token'] : '';
      if (token === '') throw badRequest('token is required for TokenReview in authentication');
      let error = '';
      for (const authenticate of authenticators) {
        try {
          const user = await authenticate(token);
          if (!user) continue;
          const groups = user.groups.includes(ALL_AUTHENTICATED) ? user.groups : [...user.groups, ALL_AUTHENTICATED];
          return {
            ...obj,
            status: { authenticated: true, user: userInfoJson({ ...user, groups }), audiences: [...audiences] },
          };
        } catch (err) {
          error = err instanceof Error ? err.message : String(err);
        }
      }
      return { ...obj, status: { user: {}, ...(error ? { error } : {}) } };
    },
  };
}

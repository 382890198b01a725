// TokenReview (authentication.orch.io/v1, create only): another component asks who a bearer token belongs to and for
// which audiences (pkg/registry/authentication/tokenreview/storage.go).
import { badRequest, internalError } from '../../apimachinery/errors';
import { isPlainObject } from '../../apimachinery/meta/types';
import { userInfoJson, ALL_AUTHENTICATED } from '../../apimachinery/user';
import type { ReviewResource } from '../../endpoints/reviews';
import { defaultStrategy } from '../../registry/rest/strategy';
import { aggregateMessages } from '../authorization/authorizer';
import type { AudienceTokenAuthenticator, AudienceTokenResult } from './authenticator';
import { intersectAudiences } from './audiences';
import { AUTHENTICATION_GROUP } from './token-request';

/** bearertoken's invalidToken: what a token nobody knows reads as (also the loopback token authenticator's word). */
const INVALID_BEARER_TOKEN = 'invalid bearer token';
/** storage.go's badAuthenticatorAuds: an authenticator answered audiences that were not asked for. */
const BAD_AUTHENTICATOR_AUDIENCES = 'error validating audiences';

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/**
 * The token authenticators' union as kube-apiserver's TokenReview sees it: the first that knows the token answers;
 * the others' errors are aggregated behind the loopback token authenticator's "invalid bearer token".
 */
async function reviewToken(
  authenticators: readonly AudienceTokenAuthenticator[],
  token: string,
  audiences: readonly string[] | undefined,
): Promise<AudienceTokenResult | { error: string }> {
  const errors: string[] = [];
  for (const authenticate of authenticators) {
    try {
      const result = await authenticate(token, audiences);
      if (result) return result;
    } catch (err) {
      errors.push(err instanceof Error ? err.message : String(err));
    }
  }
  return { error: aggregateMessages([INVALID_BEARER_TOKEN, ...(errors.length > 0 ? errors : [INVALID_BEARER_TOKEN])]) };
}

export function tokenReview(
  authenticators: readonly AudienceTokenAuthenticator[],
  apiAudiences: readonly string[],
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
      const requested = stringList(spec['audiences']);
      const audiences = requested.length > 0 ? requested : apiAudiences;
      const result = await reviewToken(authenticators, token, audiences.length > 0 ? audiences : undefined);
      if ('error' in result) return { ...obj, status: { user: {}, error: result.error } };
      if (audiences.length > 0 && intersectAudiences(result.audiences, audiences).length === 0)
        throw internalError(new Error(BAD_AUTHENTICATOR_AUDIENCES));
      const { user } = result;
      const groups = user.groups.includes(ALL_AUTHENTICATED) ? user.groups : [...user.groups, ALL_AUTHENTICATED];
      const status: Record<string, unknown> = { authenticated: true, user: userInfoJson({ ...user, groups }) };
      if (result.audiences.length > 0) status['audiences'] = [...result.audiences];
      return { ...obj, status };
    },
  };
}

// Token audiences (k8s.io/apiserver authenticator.Audiences): the intersection TokenReview and the service account
// authenticator answer, and WrapAudienceAgnosticToken for authenticators whose tokens name no audience.
import type { AudienceTokenAuthenticator, TokenAuthenticator } from './authenticator';

/** Audiences.Intersect: the `wanted` audiences `have` holds, in `wanted`'s order. */
export function intersectAudiences(have: readonly string[], wanted: readonly string[]): string[] {
  return wanted.filter((a) => have.includes(a));
}

/**
 * WrapAudienceAgnosticToken: a static token is good for the API server's audiences only; asked for others it is not
 * authenticated (no error), and answered with the audiences both name.
 */
export function audienceAgnostic(
  implicit: readonly string[],
  delegate: TokenAuthenticator,
): AudienceTokenAuthenticator {
  return async (token, requested) => {
    if (requested === undefined) {
      const user = await delegate(token);
      return user ? { user, audiences: [] } : undefined;
    }
    const audiences = intersectAudiences(implicit, requested);
    if (audiences.length === 0) return undefined;
    const user = await delegate(token);
    return user ? { user, audiences } : undefined;
  };
}

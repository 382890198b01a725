// --authorization-mode's authorizers, the access reviews answered with them and the RBAC escalation guard.
import type { RunningControllers } from '../controllers';
import type { AuthorizationMode } from '../options/authorization';
import {
  ALWAYS_ALLOW,
  ALWAYS_DENY,
  PRIVILEGED_GROUPS,
  unionAuthorizer,
  type Authorizer,
} from '../authorization/authorizer';
import { RbacAuthorizer } from '../authorization/rbac/authorizer';
import { accessReviews, type RulesResolver } from '../authorization/reviews';
import { rulesResolverFor } from '../authorization/rules-resolver';
import type { ReviewRegistry } from '../../endpoints/reviews';

/**
 * The union of --authorization-mode's authorizers behind the system:masters one (what the reviews ask), and the same
 * for the request filter unless it is AlwaysAllow alone (nothing to check); plus the union of their rule lists.
 */
export function authorizerFor(
  modes: readonly AuthorizationMode[],
  controllers: RunningControllers,
): { authorizer?: Authorizer; reviewAuthorizer: Authorizer; resolver: RulesResolver } {
  const byMode: Record<AuthorizationMode, Authorizer> = {
    AlwaysAllow: ALWAYS_ALLOW,
    AlwaysDeny: ALWAYS_DENY,
    RBAC: new RbacAuthorizer(() => controllers.rbac.snapshot),
  };
  const reviewAuthorizer = unionAuthorizer([PRIVILEGED_GROUPS, ...modes.map((m) => byMode[m])]);
  const resolver = rulesResolverFor(modes, () => controllers.rbac.snapshot);
  if (modes.length === 1 && modes[0] === 'AlwaysAllow') return { reviewAuthorizer, resolver };
  return { authorizer: reviewAuthorizer, reviewAuthorizer, resolver };
}

/** Adds SubjectAccessReview and friends, answered by `reviewAuthorizer` and its rules. */
export function addAccessReviews(reviews: ReviewRegistry, reviewAuthorizer: Authorizer, resolver: RulesResolver): void {
  for (const review of accessReviews(reviewAuthorizer, resolver)) reviews.add(review);
}

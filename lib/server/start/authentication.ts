// Who a request is: client certificates, --token-auth-file, service account tokens (with their TokenRequest
// subresource and TokenReview), then anonymous.
import type { ServerOptions } from '../options/options';
import type { RunningControllers } from '../controllers';
import type { ResourceRegistry } from '../../registry/resource-registry';
import type { ReviewRegistry } from '../../endpoints/reviews';
import { buildAuthenticator, staticTokens, type RequestAuthenticator } from '../authentication/authenticator';
import { tokenRequestHandler } from '../authentication/token-request';
import { tokenReview } from '../authentication/token-review';
import { audienceAgnostic } from '../authentication/audiences';
import type { StartFiles } from './start-files';

/** The request authenticator; also serves serviceaccounts/token and TokenReview with the same token authenticators. */
export function authentication(
  options: ServerOptions,
  files: StartFiles,
  controllers: RunningControllers,
  registry: ResourceRegistry,
  reviews: ReviewRegistry,
): RequestAuthenticator {
  const saTokens = files.serviceAccountTokens;
  const apiAudiences = saTokens?.apiAudiences ?? [];
  const lookup = (ns: string, name: string) => controllers.serviceAccounts.objects.get(`${ns}/${name}`);
  const tokenAuthenticators = [
    ...(files.tokens ? [staticTokens(files.tokens)] : []),
    ...(saTokens ? [saTokens.authenticator(lookup)] : []),
  ];
  // TokenReview's view of the same authenticators: static tokens are audience-agnostic (WrapAudienceAgnosticToken).
  const reviewAuthenticators = [
    ...(files.tokens ? [audienceAgnostic(apiAudiences, staticTokens(files.tokens))] : []),
    ...(saTokens ? [saTokens.reviewAuthenticator(lookup)] : []),
  ];
  const serviceAccountsServed = registry.lookup('', 'v1', 'serviceaccounts');
  if (saTokens && serviceAccountsServed)
    serviceAccountsServed.postSubresources = new Map([
      [
        'token',
        { handler: tokenRequestHandler(saTokens), group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' },
      ],
    ]);
  reviews.add(tokenReview(reviewAuthenticators, apiAudiences));
  return buildAuthenticator({
    anonymous: options.authentication.anonymous,
    clientCertificates: files.tlsFiles?.clientCA !== undefined,
    tokens: tokenAuthenticators,
  });
}

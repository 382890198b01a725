// Request authentication as kube-apiserver chains it: client certificate, then bearer tokens; any credential that
// fails is 401 (never anonymous); no credentials at all is system:anonymous when --anonymous-auth allows it.
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS, type UserInfo } from '../../apimachinery/user';

/** A bearer token's owner; undefined when this authenticator does not know the token. May reject (an error → 401). */
export type TokenAuthenticator = (token: string) => UserInfo | undefined | Promise<UserInfo | undefined>;

/** What a token is good for: its user and the audiences it was authenticated for (authenticator.Response). */
export interface AudienceTokenResult {
  user: UserInfo;
  audiences: readonly string[];
}

/**
 * A token authenticator that knows audiences (TokenReview): `requested` absent means none were asked for; undefined
 * when it does not know the token; a rejection when it knows it and refuses it.
 */
export type AudienceTokenAuthenticator = (
  token: string,
  requested: readonly string[] | undefined,
) => Promise<AudienceTokenResult | undefined>;

export interface AuthenticatorConfig {
  anonymous: boolean;
  /** --client-ca-file is set: the TLS server asked for a client certificate and verified it against that CA. */
  clientCertificates: boolean;
  tokens: readonly TokenAuthenticator[];
}

/** The request's user, or undefined when it must be answered 401; a promise only when an authenticator needs one. */
export type RequestAuthenticator = (req: IncomingMessage) => UserInfo | undefined | Promise<UserInfo | undefined>;

const EKU_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const EKU_ANY = '2.5.29.37.0';

type Outcome = { user: UserInfo } | 'failed' | 'absent';

/** The x509 authenticator: CN is the user, each O a group; a presented certificate that does not verify fails. */
function certificateUser(req: IncomingMessage): Outcome {
  const socket = req.socket as Partial<TLSSocket>;
  if (typeof socket.getPeerCertificate !== 'function') return 'absent';
  const cert = socket.getPeerCertificate();
  if (!cert || Object.keys(cert).length === 0) return 'absent';
  if (!socket.authorized) return 'failed';
  const usages = cert.ext_key_usage;
  if (usages && !usages.includes(EKU_CLIENT_AUTH) && !usages.includes(EKU_ANY)) return 'failed';
  // Go's pkix.Name keeps the last CommonName of the subject (FillFromRDNSequence), and the user is that name.
  const cn = cert.subject?.CN;
  const name = Array.isArray(cn) ? (cn[cn.length - 1] ?? '') : (cn ?? '');
  if (name === '') return 'absent';
  const o = cert.subject?.O;
  const groups = o === undefined ? [] : Array.isArray(o) ? o : [o];
  return { user: { name, uid: '', groups } };
}

/** The bearer token of `Authorization: Bearer <token>` (scheme case-insensitive), as Kubernetes' bearertoken reads it. */
export function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization?.trim();
  if (!header) return undefined;
  const parts = header.split(' ');
  if (parts.length < 2 || parts[0]?.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1] ?? '';
  return token === '' ? undefined : token;
}

/** bearertoken.go's warning for `Bearer  <token>`: the token after the extra space is ignored. */
export const SPACE_BEFORE_BEARER_TOKEN_WARNING =
  'the provided Authorization header contains extra space before the bearer token, and is ignored';

/** A bearer scheme followed by two or more spaces and more text: the case bearertoken.go warns about. */
export function hasSpaceBeforeBearerToken(req: IncomingMessage): boolean {
  const header = req.headers.authorization?.trim();
  if (!header) return false;
  const parts = header.split(' ');
  return parts.length >= 3 && parts[0]?.toLowerCase() === 'bearer' && parts[1] === '';
}

/** Tries the token authenticators in order from `from`; stays synchronous until one returns a promise. */
function tokenUserFrom(
  token: string,
  authenticators: readonly TokenAuthenticator[],
  from: number,
): Outcome | Promise<Outcome> {
  for (let i = from; i < authenticators.length; i++) {
    let result: ReturnType<TokenAuthenticator>;
    try {
      result = (authenticators[i] as TokenAuthenticator)(token);
    } catch {
      continue; // an authenticator's error is a failed credential; the next may still know the token
    }
    if (result instanceof Promise) {
      return result.then(
        (user) => (user ? { user } : tokenUserFrom(token, authenticators, i + 1)),
        () => tokenUserFrom(token, authenticators, i + 1),
      );
    }
    if (result) return { user: result };
  }
  return 'failed';
}

function tokenUser(req: IncomingMessage, authenticators: readonly TokenAuthenticator[]): Outcome | Promise<Outcome> {
  const token = bearerToken(req);
  return token === undefined ? 'absent' : tokenUserFrom(token, authenticators, 0);
}

/** kube-apiserver's AuthenticatedGroupAdder: every authenticated user is in system:authenticated. */
function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(ALL_AUTHENTICATED) || user.groups.includes(ALL_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED] };
}

export function buildAuthenticator(config: AuthenticatorConfig): RequestAuthenticator {
  return (req) => {
    let certFailed = false;
    if (config.clientCertificates) {
      const cert = certificateUser(req);
      if (typeof cert === 'object') return withAuthenticatedGroup(cert.user);
      certFailed = cert === 'failed';
    }
    const decide = (token: Outcome): UserInfo | undefined => {
      if (typeof token === 'object') return withAuthenticatedGroup(token.user);
      if (certFailed || token === 'failed') return undefined;
      return config.anonymous ? ANONYMOUS : undefined;
    };
    const token = tokenUser(req, config.tokens);
    return token instanceof Promise ? token.then(decide) : decide(token);
  };
}

/** The static token file's authenticator. */
export function staticTokens(tokens: ReadonlyMap<string, UserInfo>): TokenAuthenticator {
  return (token) => tokens.get(token);
}

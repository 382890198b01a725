// The authentication filter: resolves the request's user into the request context, or answers 401 Unauthorized
// in the format the client negotiates (Kubernetes' Unauthorized handler), before anything else sees the request.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { unauthorized, type StatusError } from '../../apimachinery/errors';
import type { UserInfo } from '../../apimachinery/user';
import { setRequestUser } from '../../endpoints/request-user';
import { negotiateResponse, type Negotiated } from '../../endpoints/negotiation';
import { isPretty } from '../../endpoints/resource-handler';
import { writeError } from '../../endpoints/handlers/write-status';
import {
  hasSpaceBeforeBearerToken,
  SPACE_BEFORE_BEARER_TOKEN_WARNING,
  type RequestAuthenticator,
} from '../authentication/authenticator';
import { addWarningHeader } from '../../endpoints/handlers/write-response';

/** The user, set in the request context; undefined when a 401 has been written. */
export function authenticate(
  authenticator: RequestAuthenticator,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  log: Logger,
): UserInfo | undefined | Promise<UserInfo | undefined> {
  if (hasSpaceBeforeBearerToken(req)) addWarningHeader(res, SPACE_BEFORE_BEARER_TOKEN_WARNING);
  const found = authenticator(req);
  return found instanceof Promise
    ? found.then((user) => settle(user, req, res, query, log))
    : settle(found, req, res, query, log);
}

function settle(
  user: UserInfo | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  log: Logger,
): UserInfo | undefined {
  if (user) {
    setRequestUser(req, user);
    return user;
  }
  writeFilterError(req, res, query, unauthorized(), log);
  return undefined;
}

/** A filter's error in the format the client negotiates (an unacceptable Accept still gets JSON), as ErrorNegotiated. */
export function writeFilterError(
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  err: StatusError,
  log: Logger,
): void {
  let negotiated: Negotiated | undefined;
  try {
    negotiated = negotiateResponse(req.headers.accept, false);
  } catch {
    negotiated = undefined;
  }
  writeError(res, err, log, negotiated, isPretty(req, query));
}

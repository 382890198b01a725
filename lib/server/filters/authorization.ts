// The authorization filter: every request (resource or not) is checked against the configured authorizers after
// flow-control classification; denied is 403 with Kubernetes' text and the audit annotations upstream adds.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ANONYMOUS, type UserInfo } from '../../apimachinery/user';
import { requestUser } from '../../endpoints/request-user';
import type { RequestInfo } from '../../endpoints/request-info';
import { attributesOf } from '../authorization/attributes';
import type { Authorizer } from '../authorization/authorizer';
import { forbiddenError } from '../authorization/forbidden';
import { writeFilterError } from './authentication';

const DECISION_ANNOTATION = 'authorization.k8s.io/decision';
const REASON_ANNOTATION = 'authorization.k8s.io/reason';

/** True when the request may go on; otherwise the 403 has been written. */
export function authorizeRequest(
  authorizer: Authorizer,
  user: UserInfo,
  info: RequestInfo,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  auditAnnotations: Record<string, string>,
  log: Logger,
): boolean {
  const attributes = attributesOf(user, info, query);
  const { decision, reason } = authorizer.authorize(attributes);
  if (decision === 'allow') {
    auditAnnotations[DECISION_ANNOTATION] = 'allow';
    auditAnnotations[REASON_ANNOTATION] = reason;
    return true;
  }
  auditAnnotations[DECISION_ANNOTATION] = 'forbid';
  auditAnnotations[REASON_ANNOTATION] = reason;
  writeFilterError(req, res, query, forbiddenError(attributes, reason), log);
  return false;
}

/** The same request checked as another verb (apply that creates: create); throws the 403. */
export function authorizeVerb(
  authorizer: Authorizer,
  req: IncomingMessage,
  info: RequestInfo,
  query: URLSearchParams,
  verb: string,
): void {
  const user = requestUser(req) ?? ANONYMOUS;
  const attributes = { ...attributesOf(user, info, query), verb };
  const { decision, reason } = authorizer.authorize(attributes);
  if (decision !== 'allow') throw forbiddenError(attributes, reason);
}

// The request's authenticated user, set once by the authentication filter and read by everything after it
// (audit, flow-control classification, authorization, handlers): upstream's request.WithUser / UserFrom.
import type { IncomingMessage } from 'node:http';
import type { UserInfo } from '../apimachinery/user';

const users = new WeakMap<IncomingMessage, UserInfo>();

export function setRequestUser(req: IncomingMessage, user: UserInfo): void {
  users.set(req, user);
}

/** Undefined only before authentication or when it failed (a 401 is being written). */
export function requestUser(req: IncomingMessage): UserInfo | undefined {
  return users.get(req);
}

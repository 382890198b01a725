// The impersonation filter (k8s.io/apiserver 1.26 filters.WithImpersonation): Impersonate-User, -Group, -Uid and
// -Extra-<key> headers switch the request's user after authentication, once the requestor may `impersonate` each
// part; flow control, authorization, handlers and the audit event's impersonatedUser then see the impersonated user.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS_USER, type UserInfo } from '../../apimachinery/user';
import { badRequest } from '../../apimachinery/errors';
import { isDNS1123Label, isDNS1123Subdomain } from '../../apimachinery/validation/names';
import { setRequestUser } from '../../endpoints/request-user';
import type { Attributes } from '../authorization/attributes';
import type { Authorizer } from '../authorization/authorizer';
import { forbiddenError } from '../authorization/forbidden';
import { SERVICE_ACCOUNTS_GROUP } from '../authentication/service-account-tokens';
import { writeFilterError } from './authentication';

const USER_HEADER = 'impersonate-user';
const GROUP_HEADER = 'impersonate-group';
const UID_HEADER = 'impersonate-uid';
const EXTRA_HEADER_PREFIX = 'impersonate-extra-';
const IMPERSONATE_PREFIX = /^impersonate-/i;
const SERVICE_ACCOUNT_PREFIX = 'system:serviceaccount:';
/** authenticationv1.SchemeGroupVersion: the group of uids and userextras (RBAC matches it under either spelling). */
const AUTHENTICATION_GROUP_VERSION = 'authentication.k8s.io/v1';

/** One thing asked for (upstream's v1.ObjectReference with Kind ServiceAccount, User, Group, UserExtra or UID). */
interface ImpersonationRequest {
  kind: 'ServiceAccount' | 'User' | 'Group' | 'UserExtra' | 'UID';
  namespace: string;
  name: string;
  apiVersion: string;
  /** UserExtra: the extra key (upstream keeps it in FieldPath). */
  fieldPath: string;
}

/** Who impersonated whom on a request, for its audit event (user = the requestor, impersonatedUser = the other). */
const impersonations = new WeakMap<IncomingMessage, { requestor: UserInfo; impersonated: UserInfo }>();

/** The impersonation done on this request, if any. */
export function impersonationOf(req: IncomingMessage): { requestor: UserInfo; impersonated: UserInfo } | undefined {
  return impersonations.get(req);
}

/** serviceaccount.SplitUsername: namespace and name of `system:serviceaccount:<ns>:<name>` when both are valid. */
function splitServiceAccountUsername(username: string): { namespace: string; name: string } | undefined {
  if (!username.startsWith(SERVICE_ACCOUNT_PREFIX)) return undefined;
  const parts = username.slice(SERVICE_ACCOUNT_PREFIX.length).split(':');
  if (parts.length !== 2) return undefined;
  const [namespace = '', name = ''] = parts;
  if (isDNS1123Label(namespace).length > 0 || isDNS1123Subdomain(name).length > 0) return undefined;
  return { namespace, name };
}

/** Go's url.PathUnescape; a malformed escape leaves the key as sent, as upstream records it. */
function unescapeExtraKey(encoded: string): string {
  if (!encoded.includes('%')) return encoded;
  const bytes: number[] = [];
  for (let i = 0; i < encoded.length; i++) {
    const c = encoded.charCodeAt(i);
    if (c === 0x25) {
      const hex = encoded.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) return encoded;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(encoded[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

/** Go's %v of an ObjectReference value: every field in declaration order, space-separated, in braces. */
function formatRequest(r: ImpersonationRequest): string {
  return `{${[r.kind, r.namespace, r.name, '', r.apiVersion, '', r.fieldPath].join(' ')}}`;
}

/** buildImpersonationRequests: what the headers ask for, in upstream's order; an Error when they name no user. */
function impersonationRequests(req: IncomingMessage): ImpersonationRequest[] | Error {
  const headers = req.headersDistinct;
  const requests: ImpersonationRequest[] = [];
  const request = (kind: ImpersonationRequest['kind'], name: string, more: Partial<ImpersonationRequest> = {}) =>
    requests.push({ kind, namespace: '', name, apiVersion: '', fieldPath: '', ...more });
  const wantedUser = headers[USER_HEADER]?.[0] ?? '';
  if (wantedUser !== '') {
    const sa = splitServiceAccountUsername(wantedUser);
    if (sa) request('ServiceAccount', sa.name, { namespace: sa.namespace });
    else request('User', wantedUser);
  }
  const groups = headers[GROUP_HEADER] ?? [];
  for (const group of groups) request('Group', group);
  let hasExtra = false;
  for (const [header, values] of Object.entries(headers)) {
    if (!header.startsWith(EXTRA_HEADER_PREFIX) || !values) continue;
    hasExtra = true;
    const key = unescapeExtraKey(header.slice(EXTRA_HEADER_PREFIX.length));
    for (const value of values)
      request('UserExtra', value, { apiVersion: AUTHENTICATION_GROUP_VERSION, fieldPath: key });
  }
  const uid = headers[UID_HEADER]?.[0] ?? '';
  if (uid !== '') request('UID', uid, { apiVersion: AUTHENTICATION_GROUP_VERSION });
  if ((groups.length > 0 || hasExtra || uid !== '') && wantedUser === '')
    return new Error(`requested [${requests.map(formatRequest).join(' ')}] without impersonating a user`);
  return requests;
}

const RESOURCES: Record<ImpersonationRequest['kind'], string> = {
  ServiceAccount: 'serviceaccounts',
  User: 'users',
  Group: 'groups',
  UserExtra: 'userextras',
  UID: 'uids',
};

function attributesFor(requestor: UserInfo, r: ImpersonationRequest): Attributes {
  const [group = '', version = 'v1'] = r.apiVersion === '' ? [] : r.apiVersion.split('/');
  return {
    user: requestor,
    verb: 'impersonate',
    isResourceRequest: true,
    path: '',
    apiGroup: group,
    apiVersion: version,
    namespace: r.namespace,
    resource: RESOURCES[r.kind],
    subresource: r.kind === 'UserExtra' ? r.fieldPath : '',
    name: r.name,
  };
}

/** A scan of the raw header names (no allocation): most requests impersonate nobody. */
function sendsImpersonationHeaders(req: IncomingMessage): boolean {
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (IMPERSONATE_PREFIX.test(raw[i] ?? '')) return true;
  return false;
}

/** The anonymous user gets system:unauthenticated, everyone else system:authenticated unless either is named. */
function withDefaultGroup(username: string, groups: string[]): string[] {
  if (username === ANONYMOUS_USER)
    return groups.includes(ALL_UNAUTHENTICATED) ? groups : [...groups, ALL_UNAUTHENTICATED];
  return groups.includes(ALL_AUTHENTICATED) || groups.includes(ALL_UNAUTHENTICATED)
    ? groups
    : [...groups, ALL_AUTHENTICATED];
}

/**
 * The request's user after impersonation: `requestor` when no Impersonate-* header is sent; undefined when the
 * answer (400 for parts without a user, 403 for a part the requestor may not impersonate) has been written.
 * On success the request context holds the new user and the Impersonate-* headers are removed.
 */
export function impersonate(
  authorizer: Authorizer,
  requestor: UserInfo,
  req: IncomingMessage,
  res: ServerResponse,
  query: URLSearchParams,
  log: Logger,
): UserInfo | undefined {
  if (!sendsImpersonationHeaders(req)) return requestor;
  const requests = impersonationRequests(req);
  if (requests instanceof Error) {
    // 1.26 answers a plain-text 500 (responsewriters.InternalError); it is the client's fault, so here it is the
    // 400 Status later releases answer, with the same text.
    writeFilterError(req, res, query, badRequest(requests.message), log);
    return undefined;
  }
  if (requests.length === 0) return requestor;
  // Groups sent are the authority, system:authenticated / system:unauthenticated included.
  const groupsSpecified = requests.some((r) => r.kind === 'Group');
  let username = '';
  let uid = '';
  let groups: string[] = [];
  const extra: Record<string, string[]> = {};
  for (const r of requests) {
    switch (r.kind) {
      case 'ServiceAccount':
        username = `${SERVICE_ACCOUNT_PREFIX}${r.namespace}:${r.name}`;
        if (!groupsSpecified) groups = [SERVICE_ACCOUNTS_GROUP, `${SERVICE_ACCOUNTS_GROUP}:${r.namespace}`];
        break;
      case 'User':
        username = r.name;
        break;
      case 'Group':
        groups.push(r.name);
        break;
      case 'UserExtra':
        (extra[r.fieldPath] ??= []).push(r.name);
        break;
      case 'UID':
        uid = r.name;
        break;
    }
    const attributes = attributesFor(requestor, r);
    const { decision, reason } = authorizer.authorize(attributes);
    if (decision !== 'allow') {
      writeFilterError(req, res, query, forbiddenError(attributes, reason), log);
      return undefined;
    }
  }
  const impersonated: UserInfo = { name: username, uid, groups: withDefaultGroup(username, groups), extra };
  setRequestUser(req, impersonated);
  impersonations.set(req, { requestor, impersonated });
  for (const header of Object.keys(req.headers))
    if (
      header === USER_HEADER ||
      header === GROUP_HEADER ||
      header === UID_HEADER ||
      header.startsWith(EXTRA_HEADER_PREFIX)
    )
      delete req.headers[header];
  return impersonated;
}

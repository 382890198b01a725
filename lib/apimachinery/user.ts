// Who makes a request (k8s.io/apiserver/pkg/authentication/user): what authentication decides and everything after it reads.

export interface UserInfo {
  readonly name: string;
  /** Empty when the authenticator knows none (client certificates, anonymous). */
  readonly uid: string;
  readonly groups: readonly string[];
  readonly extra?: Readonly<Record<string, readonly string[]>>;
}

export const SYSTEM_PRIVILEGED_GROUP = 'system:masters';
export const ALL_AUTHENTICATED = 'system:authenticated';
export const ALL_UNAUTHENTICATED = 'system:unauthenticated';
export const ANONYMOUS_USER = 'system:anonymous';

/** A request without credentials when --anonymous-auth is on. */
export const ANONYMOUS: UserInfo = Object.freeze({
  name: ANONYMOUS_USER,
  uid: '',
  groups: Object.freeze([ALL_UNAUTHENTICATED]),
});

/** The audit event's / review's `user` shape: absent fields omitted as Go's omitempty does. */
export function userInfoJson(user: UserInfo): Record<string, unknown> {
  const out: Record<string, unknown> = { username: user.name };
  if (user.uid !== '') out['uid'] = user.uid;
  if (user.groups.length > 0) out['groups'] = [...user.groups];
  if (user.extra && Object.keys(user.extra).length > 0) out['extra'] = user.extra;
  return out;
}

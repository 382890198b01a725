// What admission needs to know of the API request a write serves (its group/version/resource, user, where
// warnings and audit annotations go), carried with the request's async work; writes the server makes itself
// (controllers) run without one.
import { AsyncLocalStorage } from 'node:async_hooks';
import { ANONYMOUS, userInfoJson, type UserInfo as AuthenticatedUser } from '../../apimachinery/user';

/** authentication/v1 UserInfo as an AdmissionReview carries it. */
export interface UserInfo {
  username: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

export interface RequestContext {
  /** The URL's group (orch name), version, resource and subresource. */
  group: string;
  version: string;
  resource: string;
  subresource: string;
  /** Adds a `Warning` response header. */
  addWarning(text: string): void;
  /** The request's audit event annotations. */
  auditAnnotations: Record<string, string>;
  /** Who makes the request (authentication's answer). */
  user?: AuthenticatedUser;
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/** The user the current request is made by, as AdmissionReview's userInfo carries it (anonymous outside a request). */
export function requestUserInfo(): UserInfo {
  return userInfoJson(storage.getStore()?.user ?? ANONYMOUS) as unknown as UserInfo;
}

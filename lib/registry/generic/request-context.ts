// What admission needs to know of the API request a write serves (its group/version/resource, user, where
// warnings and audit annotations go), carried with the request's async work; writes the server makes itself
// (controllers) run without one.
import { AsyncLocalStorage } from 'node:async_hooks';

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
}

const storage = new AsyncLocalStorage<RequestContext>();

export function runWithRequestContext<T>(context: RequestContext, fn: () => Promise<T>): Promise<T> {
  return storage.run(context, fn);
}

export function currentRequestContext(): RequestContext | undefined {
  return storage.getStore();
}

/**
 * The user a request is made by. Until authentication is merged every request is anonymous; this is the one
 * place to return the authenticated user (AdmissionReview userInfo reads it).
 */
export function requestUserInfo(): UserInfo {
  return { username: 'system:anonymous', groups: ['system:unauthenticated'] };
}

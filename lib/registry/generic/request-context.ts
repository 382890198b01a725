// What admission needs to know of the API request a write serves (its group/version/resource, user, where
// warnings and audit annotations go). The handler chain builds it, the verb handlers pass it to the store in their
// write options, and the store hands it to admission in the attributes (no AsyncLocalStorage: its promise hooks cost
// every request CPU). Writes the server makes itself (controllers, bootstrap, the event recorder) carry none;
// admission sees them as kube-apiserver's loopback client's requests (`serverWriteContext`).
import { randomUUID } from 'node:crypto';
import {
  ALL_AUTHENTICATED,
  SYSTEM_PRIVILEGED_GROUP,
  type UserInfo as AuthenticatedUser,
} from '../../apimachinery/user';
import type { ResourceDefinition } from '../rest/resource';

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

/** kube-apiserver's loopback identity: system:apiserver in system:masters, with a uid per process. */
export const LOOPBACK_USER: AuthenticatedUser = Object.freeze({
  name: 'system:apiserver',
  uid: randomUUID(),
  groups: Object.freeze([SYSTEM_PRIVILEGED_GROUP, ALL_AUTHENTICATED]),
});

/** The request a write the server makes itself stands for: its resource (and subresource) by the loopback user. */
export function serverWriteContext(definition: ResourceDefinition, subresource = ''): RequestContext {
  return {
    group: definition.group,
    version: definition.version,
    resource: definition.resource,
    subresource,
    addWarning: () => undefined,
    auditAnnotations: {},
    user: LOOPBACK_USER,
  };
}

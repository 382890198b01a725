// What every verb handler receives: the parsed request, the resource it addresses and the server's switches.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { ServedResource } from '../../registry/resource-registry';
import type { ResourceRegistry } from '../../registry/resource-registry';
import type { GenericStore } from '../../registry/generic/store';
import type { ResourceRequestInfo } from '../request-info';
import type { Negotiated } from '../negotiation';
import type { UserInfo } from '../../apimachinery/user';
import type { RequestContext } from '../../registry/generic/request-context';
import { convertObject, hubGroupOf } from '../../apis/conversion';
import { conversionsOf } from '../../apis/conversions';

export interface Features {
  /** Feature gate APIListChunking. */
  listChunking: boolean;
  /** Feature gate ServerSideFieldValidation (on unless set false): off makes every fieldValidation Ignore. */
  serverSideFieldValidation?: boolean;
  /** Feature gate WatchList (on unless set false): watch-list requests (sendInitialEvents) and the 1.27+ ListOptions rules. */
  watchList?: boolean;
}

export interface ApiRequest {
  req: IncomingMessage;
  res: ServerResponse;
  info: ResourceRequestInfo;
  query: URLSearchParams;
  served: ServedResource;
  /** The store this path writes through (main, status or finalize). */
  store: GenericStore;
  registry: ResourceRegistry;
  log: Logger;
  features: Features;
  pretty: boolean;
  /** The authenticated user (the request context's). */
  user: UserInfo;
  /** What admission (webhooks) reads of this request; the handlers pass it to the store with their writes. */
  context?: RequestContext;
  /** Authorizes `verb` on what this request addresses for its user (throws 403); absent when everything is allowed. */
  authorize?: (verb: string) => void;
  /** Set once the response representation is chosen, so errors use it too. */
  negotiated?: Negotiated;
}

/** An object as served: converted to the URL's version (the same object when it already is, so its stored bytes can be reused). */
export function asServed(r: ApiRequest, obj: ApiObject): ApiObject {
  const def = r.served.definition;
  return convertObject(conversionsOf(def.group, def.kind), obj, def.group, def.kind, def.version);
}

/** A decoded and defaulted request object converted to the storage version, which the strategies are written against. */
export function toStorage(r: ApiRequest, obj: ApiObject): ApiObject {
  // The store's definition: a resource served under its Kubernetes group name too is stored under the served one.
  const def = r.store.definition;
  const conversions = conversionsOf(def.group, def.kind);
  return convertObject(conversions, obj, hubGroupOf(conversions, def.group), def.kind, r.served.storageVersion);
}

/** The namespace the store should use (cluster-scoped resources have none). */
export function requestNamespace(r: ApiRequest): string {
  return r.store.namespaced ? r.info.namespace : '';
}

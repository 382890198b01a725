// Routes a resource request to its verb handler, with Kubernetes' 404/405 answers for paths and methods it lacks.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { methodNotAllowed, resourceNotFound } from '../apimachinery/errors';
import type { ResourceRegistry, ServedResource } from '../registry/resource-registry';
import type { GenericStore } from '../registry/generic/store';
import type { ResourceRequestInfo } from './request-info';
import { responseMessageNameOf } from '../apimachinery/serializers/protobuf/kinds';
import { apiVersionOf } from '../apimachinery/schema/group-version';
import { requestUser } from './request-user';
import { handleReview, type ReviewRegistry, type ReviewRequest, type ReviewResource } from './reviews';
import { ANONYMOUS } from '../apimachinery/user';
import type { ApiRequest, Features } from './handlers/api-request';
import { handleGet } from './handlers/get';
import { handleList } from './handlers/list';
import { handleCreate } from './handlers/create';
import { handleUpdate } from './handlers/update';
import { handlePatch } from './handlers/patch';
import { handleDelete } from './handlers/delete';
import { handleDeleteCollection } from './handlers/delete-collection';
import { handleGetScale, handlePatchScale, handleUpdateScale } from './handlers/scale';
import { parseQueryBool } from './query-bool';
import { routesOf, subresourceOf, type SubresourceRoutes, type Verb } from './routes/route-table';
import type { RequestContext } from '../registry/generic/request-context';

type Handler = (r: ApiRequest) => Promise<void>;

/** Methods and handlers of one path shape. */
interface Route {
  store: GenericStore;
  methods: Partial<Record<string, Handler>>;
}

export interface WatchHandler {
  (r: ApiRequest): Promise<void>;
}

/** The handlers of a subresource's verbs, by what it serves. */
function subresourceHandlers(sub: SubresourceRoutes, served: ServedResource): Partial<Record<Verb, Handler>> {
  if (sub.serves === 'scale') return { get: handleGetScale, update: handleUpdateScale, patch: handlePatchScale };
  if (sub.serves === 'post') {
    const post = served.postSubresources?.get(sub.name);
    return post ? { create: post.handler } : {};
  }
  return { get: handleGet, update: handleUpdate, patch: handlePatch };
}

/** The methods of a path, in go-restful's order (the Allow header lists them so), for the verbs the table serves. */
function methodsOf(
  verbs: readonly Verb[],
  handlers: Partial<Record<Verb, Handler>>,
  order: ReadonlyArray<[string, Verb]>,
): Route['methods'] {
  const methods: Route['methods'] = {};
  for (const [method, verb] of order) {
    const handler = handlers[verb];
    if (handler && verbs.includes(verb)) methods[method] = handler;
  }
  return methods;
}

const COLLECTION_METHODS: ReadonlyArray<[string, Verb]> = [
  ['GET', 'list'],
  ['POST', 'create'],
  ['DELETE', 'deletecollection'],
];
const ITEM_METHODS: ReadonlyArray<[string, Verb]> = [
  ['GET', 'get'],
  ['PUT', 'update'],
  ['PATCH', 'patch'],
  ['DELETE', 'delete'],
];
const SUBRESOURCE_METHODS: ReadonlyArray<[string, Verb]> = [
  ['GET', 'get'],
  ['POST', 'create'],
  ['PUT', 'update'],
  ['PATCH', 'patch'],
];

/** The route of a path, or undefined when no route exists (404). */
function routeOf(served: ServedResource, info: ResourceRequestInfo, watch: WatchHandler): Route | undefined {
  const routes = routesOf(served);
  const namespaced = routes.namespaced;
  const isNamespaceObject = served.definition.group === '' && served.definition.resource === 'namespaces';
  if (info.extraParts.length > 0) return undefined;
  // A cluster-scoped resource has no /namespaces/{ns}/ form (a namespace's own path sets namespace = name).
  if (!namespaced && info.namespace !== '' && !(isNamespaceObject && info.namespace === info.name)) return undefined;
  if (namespaced && info.namespace === '' && info.name !== '') return undefined;
  if (info.watchPath) return { store: served.store, methods: { GET: watch } };
  if (info.name === '') {
    const listOrWatch: Handler = (r) => (r.info.verb === 'watch' ? watch(r) : handleList(r));
    // Across all namespaces a namespaced resource is only listed and watched.
    const verbs = namespaced && info.namespace === '' ? routes.verbs.filter((v) => v === 'list') : routes.verbs;
    return {
      store: served.store,
      methods: methodsOf(
        verbs,
        { list: listOrWatch, create: handleCreate, deletecollection: handleDeleteCollection },
        COLLECTION_METHODS,
      ),
    };
  }
  if (info.subresource === '')
    return {
      store: served.store,
      methods: methodsOf(
        routes.verbs,
        { get: handleGet, update: handleUpdate, patch: handlePatch, delete: handleDelete },
        ITEM_METHODS,
      ),
    };
  const sub = subresourceOf(routes, info.subresource);
  if (!sub) return undefined;
  return { store: sub.store, methods: methodsOf(sub.verbs, subresourceHandlers(sub, served), SUBRESOURCE_METHODS) };
}

/**
 * Whether a route serves this path and method, so the request is instrumented: kube-apiserver's metrics wrap its
 * routes, and a 404/405 for a path or method no route serves records nothing (no label values from client paths).
 */
export function hasRoute(
  registry: ResourceRegistry,
  info: ResourceRequestInfo,
  method: string,
  reviews?: ReviewRegistry,
): boolean {
  const review = reviews?.lookup(info.apiGroup, info.apiVersion, info.resource);
  if (review) return reviewRouteMatches(info, review) && method === 'POST';
  if (!registry.servesGroupVersion(info.apiGroup, info.apiVersion)) return false;
  const served = registry.lookup(info.apiGroup, info.apiVersion, info.resource);
  const route = served && routeOf(served, info, () => Promise.resolve());
  return route?.methods[method === 'HEAD' ? 'GET' : method] !== undefined;
}

/** A review is a collection path of its scope (namespaced only for LocalSubjectAccessReview) that only takes POST. */
function reviewRouteMatches(info: ResourceRequestInfo, review: ReviewResource): boolean {
  const namespaced = review.definition.strategy.namespaced;
  return (info.namespace !== '') === namespaced && info.name === '' && !info.watchPath;
}

export interface ResourceHandlerDeps {
  registry: ResourceRegistry;
  /** Create-only kinds answered without storage (access and token reviews). */
  reviews?: ReviewRegistry;
  features: Features;
  watch: WatchHandler;
  /** Checks the request's user may also `verb` what the request addresses (server-side apply creating needs create); throws 403. */
  authorizeAs?: (req: IncomingMessage, info: ResourceRequestInfo, query: URLSearchParams, verb: string) => void;
}

export async function serveResource(
  deps: ResourceHandlerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  info: ResourceRequestInfo,
  query: URLSearchParams,
  log: Logger,
  holder: { request?: Pick<ApiRequest, 'negotiated' | 'pretty'> },
  context?: RequestContext,
): Promise<void> {
  const review = deps.reviews?.lookup(info.apiGroup, info.apiVersion, info.resource);
  if (review) {
    if (!reviewRouteMatches(info, review)) throw resourceNotFound();
    if (req.method !== 'POST') {
      res.setHeader('Allow', 'POST');
      throw methodNotAllowed();
    }
    const r: ReviewRequest = {
      req,
      res,
      info,
      query,
      pretty: isPretty(req, query),
      user: requestUser(req) ?? ANONYMOUS,
    };
    holder.request = r;
    return handleReview(r, review, deps.features.serverSideFieldValidation !== false, (v, k) =>
      deps.registry.isKnownKind(v, k),
    );
  }
  const served = deps.registry.lookup(info.apiGroup, info.apiVersion, info.resource);
  if (!served) throw resourceNotFound();
  const route = routeOf(served, info, deps.watch);
  if (!route) throw resourceNotFound();
  const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
  const handler = route.methods[method];
  if (!handler) {
    res.setHeader('Allow', Object.keys(route.methods).join(', '));
    throw methodNotAllowed();
  }
  preferJsonWithoutProtobufMessage(req, served);
  const request: ApiRequest = {
    req,
    res,
    info,
    query,
    served,
    store: route.store,
    registry: deps.registry,
    log,
    features: deps.features,
    pretty: isPretty(req, query),
    user: requestUser(req) ?? ANONYMOUS,
    ...(context ? { context } : {}),
  };
  const authorizeAs = deps.authorizeAs;
  if (authorizeAs) request.authorize = (verb) => authorizeAs(req, info, query, verb);
  holder.request = request;
  await handler(request);
}

/**
 * A kind the protobuf catalog lacks (Event, the webhook configurations) is answered in the Accept header's other
 * types when it offers any (kubectl asks for protobuf first, then JSON); asked for protobuf only, it is still 406.
 */
function preferJsonWithoutProtobufMessage(req: IncomingMessage, served: ServedResource): void {
  const accept = req.headers.accept;
  if (accept === undefined || !/protobuf/i.test(accept)) return;
  const def = served.definition;
  if (responseMessageNameOf(apiVersionOf(def), def.kind) !== undefined) return;
  const others = accept.split(',').filter((clause) => !/protobuf/i.test(clause));
  if (others.some((clause) => clause.trim() !== '')) req.headers.accept = others.join(',');
}

/** `pretty` set to anything but false/0, or without it a User-Agent starting `curl`, `Wget` or `Mozilla/5.0` (isPrettyPrint). */
export function isPretty(req: IncomingMessage, query: URLSearchParams): boolean {
  const pretty = query.get('pretty');
  if (pretty !== null) return parseQueryBool(pretty);
  return /^(?:curl|Wget|Mozilla\/5\.0)/.test(req.headers['user-agent'] ?? '');
}

// The request lifecycle, in order: request info → log/metrics → audit → authentication → impersonation → APF or max-in-flight →
// authorization → resource handler or non-resource route → Status on error. Every request passes these filters here;
// resource requests then go straight to the resource handler, everything else to Express's router (./routes), so
// the router stays off the hot path.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { decodeRequestPath, parseRequestInfo } from '../endpoints/request-info';
import { hasRoute, serveResource, type ResourceHandlerDeps } from '../endpoints/resource-handler';
import type { ApiRequest } from '../endpoints/handlers/api-request';
import { writeError } from '../endpoints/handlers/write-status';
import { writeNotFound } from './healthz/healthz';
import { nonResourceRoutes, type NonResourceDeps, type NonResourceRoutes } from './routes/non-resource';
import { trackRequest } from './filters/request-log';
import type { ApiServerMetrics } from './metrics/metrics';
import type { Classifier, RequestDigest } from './flowcontrol/classifier';
import { setPriorityAndFairnessHeaders } from './flowcontrol/headers';
import { auditRequest, type AuditLog } from './filters/audit';
import { markDeprecated } from './filters/deprecation';
import { canonicalGroup } from '../apimachinery/schema/group-aliases';
import { addWarningHeader } from '../endpoints/handlers/write-response';
import { compressLargeResponses } from './filters/response-compression';
import { admitRequest, type PriorityAndFairness } from './filters/priority-and-fairness';
import type { MaxInFlight } from './filters/max-in-flight';
import { writeTooManyRequests } from './filters/too-many-requests';
import { authenticate } from './filters/authentication';
import type { RequestAuthenticator } from './authentication/authenticator';
import { authorizeRequest } from './filters/authorization';
import { impersonate } from './filters/impersonation';
import { ALWAYS_ALLOW, type Authorizer } from './authorization/authorizer';

export interface HandlerChainDeps {
  /** Who makes each request (401 when credentials fail); the user lands in the request context. */
  authenticator: RequestAuthenticator;
  /** --authorization-mode's authorizers; absent: AlwaysAllow alone (nothing to check). */
  authorizer?: Authorizer;
  /** API Priority and Fairness: every request is classified and answered with its FlowSchema / level UIDs (absent: gate off). */
  flowcontrol?: { readonly classifier: Classifier };
  /** APF dispatching (with `flowcontrol`): seats, queues, 429s. */
  priorityAndFairness?: PriorityAndFairness;
  /** --enable-priority-and-fairness=false or the gate off: the classic max-in-flight limits. */
  maxInFlight?: MaxInFlight;
  resources: ResourceHandlerDeps;
  nonResource: NonResourceDeps;
  metrics: ApiServerMetrics;
  log: Logger;
  /** Long-running responses (watches) to end when the server shuts down. */
  longRunning: Set<ServerResponse>;
  /** Responses not yet closed (any request), so shutdown knows when the remaining connections are only idle. */
  inFlight: { count: number };
  /** --audit-log-path's log; absent: no audit events (the Audit-Id header is still set). */
  audit?: AuditLog;
  /** APIResponseCompression: gzip resource responses over 128 KiB for clients that accept it. */
  compressResponses?: boolean;
}

/** The non-resource paths kube-apiserver instruments (metrics): the health endpoints' roots. */
const INSTRUMENTED_PATHS = new Set(['/healthz', '/livez', '/readyz']);

/** The listener for the HTTP(S) server. */
export function buildRequestListener(deps: HandlerChainDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const routes = nonResourceRoutes(deps.nonResource, deps.log);
  return (req, res) => {
    deps.inFlight.count++;
    res.once('close', () => deps.inFlight.count--);
    void serve(deps, routes, req, res);
  };
}

/** What Go's net/http server answers when the request URI does not parse (a bad %-escape), before any handler. */
function refuseMalformedUrl(res: ServerResponse): void {
  res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
  res.end('400 Bad Request');
}

async function serve(
  deps: HandlerChainDeps,
  routes: NonResourceRoutes,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = decodeRequestPath(q < 0 ? url : url.slice(0, q));
  if (path === undefined) return refuseMalformedUrl(res);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const holder: { request?: Pick<ApiRequest, 'negotiated' | 'pretty'> } = {};
  try {
    const info = parseRequestInfo(req.method ?? 'GET', path, query);
    const instrumented = info.isResourceRequest
      ? hasRoute(deps.resources.registry, info, req.method ?? 'GET', deps.resources.reviews)
      : INSTRUMENTED_PATHS.has(path);
    trackRequest(req, res, info, query, deps.log, deps.metrics, instrumented);
    const auditAnnotations = auditRequest(deps.audit, req, res, info);
    const authenticated = authenticate(deps.authenticator, req, res, query, deps.log);
    const authenticatedUser = authenticated instanceof Promise ? await authenticated : authenticated;
    if (!authenticatedUser) return;
    // Impersonation comes before flow control and authorization, so both see the impersonated user.
    const user = impersonate(deps.authorizer ?? ALWAYS_ALLOW, authenticatedUser, req, res, query, deps.log);
    if (!user) return;
    // Classification, dispatching and max-in-flight all read the authenticated user from this one digest;
    // authorization comes after them, as in Kubernetes' handler chain.
    const digest: RequestDigest = { user, info };
    if (deps.flowcontrol) {
      const classification = deps.flowcontrol.classifier.classify(digest);
      setPriorityAndFairnessHeaders(res, classification);
      if (deps.priorityAndFairness) {
        const admitted = admitRequest(deps.priorityAndFairness, res, classification, digest, query);
        if (admitted !== true && !(await admitted)) return;
      }
    } else if (deps.maxInFlight && !admitMaxInFlight(deps.maxInFlight, res, digest)) return;
    if (deps.authorizer && !authorizeRequest(deps.authorizer, user, info, req, res, query, auditAnnotations, deps.log))
      return;
    if (!info.isResourceRequest) return routes(req, res, path, query);
    if (
      !deps.resources.registry.servesGroupVersion(info.apiGroup, info.apiVersion) &&
      !deps.resources.reviews?.servesGroupVersion(info.apiGroup, info.apiVersion)
    )
      return writeNotFound(res);
    const served = deps.resources.registry.lookup(info.apiGroup, info.apiVersion, info.resource);
    if (served) markDeprecated(res, served, info, deps.metrics, auditAnnotations);
    if (info.verb === 'watch') {
      deps.longRunning.add(res);
      res.once('close', () => deps.longRunning.delete(res));
    } else if (deps.compressResponses) compressLargeResponses(req, res);
    // Admission (webhooks) reads the request's resource, and adds warnings and audit annotations, through this context
    // (the verb handlers pass it to the store with their writes).
    const context = {
      group: canonicalGroup(info.apiGroup),
      version: info.apiVersion,
      resource: info.resource,
      subresource: info.subresource,
      auditAnnotations,
      user,
      addWarning: (text: string) => addWarningHeader(res, text),
    };
    await serveResource(deps.resources, req, res, info, query, deps.log, holder, context);
  } catch (err) {
    writeError(res, err, deps.log, holder.request?.negotiated, holder.request?.pretty ?? false);
  }
}

/** The max-in-flight filter: false (and a 429 written) when the request's pool is full. */
function admitMaxInFlight(limits: MaxInFlight, res: ServerResponse, digest: RequestDigest): boolean {
  const slot = limits.acquire(digest.info, digest.user);
  if (slot === undefined) {
    writeTooManyRequests(res);
    return false;
  }
  if (slot !== 'unlimited') res.once('close', () => limits.release(slot));
  return true;
}

// Non-resource paths on Express's router: health, /metrics, the APF debug dumps, OpenAPI and discovery, one route
// per endpoint. The handler chain routes a request here once its filters (authentication → audit → APF or
// max-in-flight → authorization) have let it through; resource requests never come here. Anything unrouted gets the
// Go mux's plain 404, and a route's error its Status.
import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type ErrorRequestHandler } from 'express';
import type { Logger } from 'pino';
import type { ResourceRegistry } from '../../registry/resource-registry';
import { writeError } from '../../endpoints/handlers/write-status';
import { writeNotFound, type HealthCheck, type HealthEndpoint } from '../healthz/healthz';
import type { ApiServerMetrics } from '../metrics/metrics';
import type { RouteLocals } from './route';
import { healthRoutes } from './health';
import { metricsRoutes } from './metrics';
import { debugRoutes } from './debug';
import { openApiRoutes } from './openapi';
import { discoveryRoutes } from './discovery';

export interface NonResourceDeps {
  registry: ResourceRegistry;
  health: Record<HealthEndpoint, readonly HealthCheck[]>;
  metrics: ApiServerMetrics;
  /** `host:port` clients should use, for /api's serverAddressByClientCIDRs. */
  serverAddress: () => string;
  /** /debug/api_priority_and_fairness/*: the dump's text for a path it serves, else undefined (APF off: absent). */
  flowcontrolDump?: (path: string, query: URLSearchParams) => string | undefined;
}

/** Serves one non-resource request: `path` decoded (a valid one), `query` parsed. */
export type NonResourceRoutes = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
) => void;

export function nonResourceRoutes(deps: NonResourceDeps, log: Logger): NonResourceRoutes {
  const router = express.Router({ caseSensitive: true, strict: true });
  healthRoutes(router, deps.health);
  metricsRoutes(router, deps.metrics);
  debugRoutes(router, deps.flowcontrolDump);
  openApiRoutes(router, deps.registry);
  discoveryRoutes(router, deps);
  router.use((_req, res) => writeNotFound(res));
  const toStatus: ErrorRequestHandler = (err, _req, res, _next) => writeError(res, err, log, undefined, false);
  router.use(toStatus);

  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(router);
  return (req, res, path, query) => {
    const locals: RouteLocals = { path, query };
    (res as ServerResponse & { locals?: RouteLocals }).locals = locals;
    // Express matches req.url: route on the decoded segments (as parseRequestInfo splits them), each re-escaped so
    // Express's parameter decoding gives it back. A route picks its handler synchronously, so the request's own URL
    // (the audit event's requestURI) is back before anything else reads it.
    const url = req.url;
    req.url = `/${path
      .split('/')
      .filter((p) => p !== '')
      .map(encodeURIComponent)
      .join('/')}`;
    try {
      app(req, res);
    } finally {
      req.url = url;
    }
  };
}

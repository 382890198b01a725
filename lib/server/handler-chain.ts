// The request lifecycle, in order: request info → log/metrics → resource or non-resource route → Status on error.
// Express hosts one handler (etag and x-powered-by off): its router costs more than the API's own parsing.
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import type { Logger } from 'pino';
import { parseRequestInfo } from '../endpoints/request-info';
import { serveResource, type ResourceHandlerDeps } from '../endpoints/resource-handler';
import type { ApiRequest } from '../endpoints/handlers/api-request';
import { writeError } from '../endpoints/handlers/write-status';
import { writeNotFound } from './healthz/healthz';
import { serveNonResource, type NonResourceDeps } from './non-resource';
import { trackRequest } from './filters/request-log';
import type { ApiServerMetrics } from './metrics/metrics';

export interface HandlerChainDeps {
  resources: ResourceHandlerDeps;
  nonResource: NonResourceDeps;
  metrics: ApiServerMetrics;
  log: Logger;
  /** Long-running responses (watches) to end when the server shuts down. */
  longRunning: Set<ServerResponse>;
}

export function buildApp(deps: HandlerChainDeps): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req: IncomingMessage, res: ServerResponse) => {
    void serve(deps, req, res);
  });
  return app;
}

async function serve(deps: HandlerChainDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = req.url ?? '/';
  const q = url.indexOf('?');
  const path = q < 0 ? url : url.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
  const holder: { request?: ApiRequest } = {};
  try {
    const info = parseRequestInfo(req.method ?? 'GET', path, query);
    trackRequest(req, res, info, query, deps.log, deps.metrics);
    if (!info.isResourceRequest) return await serveNonResource(deps.nonResource, req, res, path, query);
    if (!deps.resources.registry.servesGroupVersion(info.apiGroup, info.apiVersion)) return writeNotFound(res);
    if (info.verb === 'watch') {
      deps.longRunning.add(res);
      res.once('close', () => deps.longRunning.delete(res));
    }
    await serveResource(deps.resources, req, res, info, query, deps.log, holder);
  } catch (err) {
    writeError(res, err, deps.log, holder.request?.negotiated, holder.request?.pretty ?? false);
  }
}

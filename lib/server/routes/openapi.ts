// /openapi/v2 and /openapi/v3[/<group-version>] (GET and HEAD): documents and caching in ../../endpoints/openapi.
import type { Request, Response, NextFunction, Router } from 'express';
import type { ResourceRegistry } from '../../registry/resource-registry';
import { serveOpenApi } from '../../endpoints/openapi/serve';
import { localsOf, wildcard } from './route';

export function openApiRoutes(router: Router, registry: ResourceRegistry): void {
  const serve = (parts: (req: Request) => string[]) => (req: Request, res: Response, next: NextFunction) => {
    if (!serveOpenApi(registry, req, res, parts(req), localsOf(res).query)) next();
  };
  router.get(
    '/openapi/v2',
    serve(() => ['openapi', 'v2']),
  );
  router.get(
    '/openapi/v3',
    serve(() => ['openapi', 'v3']),
  );
  router.get(
    '/openapi/v3/*groupVersion',
    serve((req) => ['openapi', 'v3', ...wildcard(req, 'groupVersion')]),
  );
}

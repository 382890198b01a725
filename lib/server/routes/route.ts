// What every non-resource route shares: the request's decoded path and query (res.locals), and the two guards that
// keep the Go mux's matching (GET only; the exact path for /metrics and the APF dumps).
import type { Request, RequestHandler, Response } from 'express';

/** What the handler chain hands each routed request in `res.locals`. */
export interface RouteLocals {
  /** The decoded request path, as written (empty segments kept). */
  path: string;
  query: URLSearchParams;
}

export function localsOf(res: Response): RouteLocals {
  return res.locals as RouteLocals;
}

/** Express routes HEAD to GET routes; these endpoints answer HEAD (and every other method) with the plain 404. */
export const getOnly: RequestHandler = (req, _res, next) => next(req.method === 'GET' ? undefined : 'route');

/**
 * The router sees the path with empty segments dropped (`/healthz/` and `//healthz` are /healthz); routes behind this
 * guard answer only their exact path (`/metrics/` is a 404).
 */
export const exactPath: RequestHandler = (req, res, next) =>
  next(localsOf(res).path === (req.route as { path: string }).path ? undefined : 'route');

/** A `:name` parameter (Express decodes it). */
export function param(req: Request, name: string): string {
  const value = req.params[name];
  return typeof value === 'string' ? value : '';
}

/** A `*name` wildcard's segments (Express decodes each one). */
export function wildcard(req: Request, name: string): string[] {
  const value = req.params[name];
  return Array.isArray(value) ? value : [];
}

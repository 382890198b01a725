// /healthz, /livez, /readyz and /<endpoint>/<check> (?verbose, ?exclude=): the checks are in ../healthz.
import type { Router } from 'express';
import { serveHealth, type HealthCheck, type HealthEndpoint } from '../healthz/healthz';
import { getOnly, localsOf, param } from './route';

const ENDPOINTS: readonly HealthEndpoint[] = ['healthz', 'livez', 'readyz'];

export function healthRoutes(router: Router, health: Record<HealthEndpoint, readonly HealthCheck[]>): void {
  for (const endpoint of ENDPOINTS) {
    router.get(`/${endpoint}`, getOnly, (_req, res) =>
      serveHealth(endpoint, health[endpoint], '', localsOf(res).query, res),
    );
    router.get(`/${endpoint}/:check`, getOnly, (req, res) =>
      serveHealth(endpoint, health[endpoint], param(req, 'check'), localsOf(res).query, res),
    );
  }
}

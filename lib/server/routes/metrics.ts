// /metrics: the Prometheus text of this server (a cluster worker's render() sums all workers).
import type { Router } from 'express';
import type { ApiServerMetrics } from '../metrics/metrics';
import { exactPath, getOnly } from './route';

export function metricsRoutes(router: Router, metrics: ApiServerMetrics): void {
  router.get('/metrics', getOnly, exactPath, async (_req, res) => {
    const body = await metrics.render();
    res.writeHead(200, { 'Content-Type': metrics.registry.contentType });
    res.end(body);
  });
}

// Non-resource paths: health, /version, discovery documents, /metrics and the root path list.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResourceRegistry } from '../registry/resource-registry';
import { apiGroup, apiGroupList, apiResourceList, apiVersions } from '../endpoints/discovery/documents';
import { serveOpenApi } from '../endpoints/openapi/serve';
import { negotiateResponse } from '../endpoints/negotiation';
import { writeResponse } from '../endpoints/handlers/write-response';
import { isPretty } from '../endpoints/resource-handler';
import type { HealthCheck, HealthEndpoint } from './healthz/healthz';
import { serveHealth, writeNotFound } from './healthz/healthz';
import type { ApiServerMetrics } from './metrics/metrics';
import { VERSION_INFO } from './version';

export interface NonResourceDeps {
  registry: ResourceRegistry;
  health: Record<HealthEndpoint, readonly HealthCheck[]>;
  metrics: ApiServerMetrics;
  /** `host:port` clients should use, for /api's serverAddressByClientCIDRs. */
  serverAddress: () => string;
  /** /debug/api_priority_and_fairness/*: the dump's text for a path it serves, else undefined (APF off: absent). */
  flowcontrolDump?: (path: string, query: URLSearchParams) => string | undefined;
}

const HEALTH_ENDPOINTS: readonly HealthEndpoint[] = ['healthz', 'livez', 'readyz'];

function rootPaths(registry: ResourceRegistry): string[] {
  const paths = ['/api', '/api/v1', '/apis', '/healthz', '/livez', '/metrics', '/openapi/v2', '/openapi/v3', '/readyz', '/version'];
  for (const g of registry.groups()) {
    if (g.group === '') continue;
    paths.push(`/apis/${g.group}`, ...g.versions.map((v) => `/apis/${g.group}/${v}`));
  }
  return paths.sort();
}

/** Serves a non-resource path; answers the Go mux's plain 404 for anything unknown. */
export async function serveNonResource(deps: NonResourceDeps, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<void> {
  const parts = path.split('/').filter(Boolean);
  const head = parts[0] ?? '';
  if (HEALTH_ENDPOINTS.includes(head as HealthEndpoint) && parts.length <= 2 && req.method === 'GET') {
    return serveHealth(head as HealthEndpoint, deps.health[head as HealthEndpoint], parts[1] ?? '', query, res);
  }
  if (path === '/metrics' && req.method === 'GET') {
    const body = await deps.metrics.render();
    res.writeHead(200, { 'Content-Type': deps.metrics.registry.contentType });
    res.end(body);
    return;
  }
  if (head === 'debug' && deps.flowcontrolDump && req.method === 'GET') {
    const dump = deps.flowcontrolDump(path, query);
    if (dump !== undefined) {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end(dump);
      return;
    }
  }
  if (head === 'openapi') {
    if (!serveOpenApi(deps.registry, req, res, parts, query)) writeNotFound(res);
    return;
  }
  const document = req.method === 'GET' ? discoveryDocument(deps, parts) : undefined;
  if (document === undefined) return writeNotFound(res);
  const negotiated = negotiateResponse(req.headers.accept, false);
  writeResponse(res, 200, document, negotiated, { pretty: isPretty(req, query) });
}

function discoveryDocument(deps: NonResourceDeps, parts: string[]): unknown {
  const { registry } = deps;
  const [head, second, third] = parts;
  if (parts.length === 0) return { paths: rootPaths(registry) };
  if (head === 'version' && parts.length === 1) return VERSION_INFO;
  if (head === 'api') {
    if (parts.length === 1) return apiVersions({ clientCIDR: '0.0.0.0/0', serverAddress: deps.serverAddress() });
    if (parts.length === 2 && registry.servesGroupVersion('', second ?? '')) return apiResourceList(registry, '', second ?? '');
    return undefined;
  }
  if (head === 'apis') {
    if (parts.length === 1) return apiGroupList(registry);
    if (parts.length === 2) return apiGroup(registry, second ?? '');
    if (parts.length === 3 && registry.servesGroupVersion(second ?? '', third ?? '')) return apiResourceList(registry, second ?? '', third ?? '');
  }
  return undefined;
}

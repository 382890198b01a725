// One log line and one metrics sample per finished request, with Kubernetes' metric label values.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { RequestInfo } from '../../endpoints/request-info';
import type { ApiServerMetrics, RequestLabels } from '../metrics/metrics';

const APPLY_CONTENT_TYPE = 'application/apply-patch+yaml';

function metricVerb(info: RequestInfo, req: IncomingMessage): string {
  if (!info.isResourceRequest) return (req.method ?? 'other').toUpperCase();
  switch (info.verb) {
    case 'get':
      return 'GET';
    case 'list':
      return 'LIST';
    case 'watch':
      return 'WATCH';
    case 'create':
      return 'POST';
    case 'update':
      return 'PUT';
    case 'patch':
      return (req.headers['content-type'] ?? '').startsWith(APPLY_CONTENT_TYPE) ? 'APPLY' : 'PATCH';
    case 'delete':
      return 'DELETE';
    case 'deletecollection':
      return 'DELETECOLLECTION';
    case 'proxy':
      return 'PROXY';
    case '':
      return 'other'; // metrics' cleanVerb: a method outside its known set
  }
}

function scopeOf(info: RequestInfo): string {
  if (!info.isResourceRequest) return '';
  if (info.name !== '' || info.verb === 'create') return 'resource';
  return info.namespace !== '' ? 'namespace' : 'cluster';
}

/** cleanDryRun: the sorted distinct values, or `invalid` when one is not `All` (clients must not choose label values). */
function dryRunLabel(values: string[]): string {
  if (values.some((v) => v !== 'All')) return 'invalid';
  return [...new Set(values)].sort().join(',');
}

export function requestLabels(info: RequestInfo, req: IncomingMessage, query: URLSearchParams): RequestLabels {
  const dryRun = query.has('dryRun') ? dryRunLabel(query.getAll('dryRun').filter(Boolean)) : '';
  if (!info.isResourceRequest) {
    // Only the health endpoints are instrumented among non-resource paths, with an empty component (healthz.InstallPathHandler).
    return {
      verb: metricVerb(info, req),
      dry_run: dryRun,
      group: '',
      version: '',
      resource: '',
      subresource: info.path,
      scope: '',
      component: '',
    };
  }
  return {
    verb: metricVerb(info, req),
    dry_run: dryRun,
    group: info.apiGroup,
    version: info.apiVersion,
    resource: info.resource,
    subresource: info.subresource,
    scope: scopeOf(info),
    component: 'apiserver',
  };
}

function longRunningLabels(labels: RequestLabels): Omit<RequestLabels, 'dry_run'> {
  const { dry_run: _dryRun, ...rest } = labels;
  return rest;
}

/**
 * Like kube-apiserver (whose httplog writes every request only at -v=3, and whose handlers' traces report
 * requests slower than 500 ms): at the default level a request line is written only for a failure (5xx, level
 * error) or a slow request (≥ SLOW_REQUEST_SECONDS, watches excluded, level info); every request at debug.
 */
export const SLOW_REQUEST_SECONDS = 0.5;

export function requestLogLevel(code: number, seconds: number, verb: string): 'error' | 'info' | 'debug' {
  if (code >= 500) return 'error';
  if (seconds >= SLOW_REQUEST_SECONDS && verb !== 'WATCH') return 'info';
  return 'debug';
}

/**
 * Call when a request arrives; logs when its response finishes or its connection closes, and records metrics when
 * `instrumented` (a route serves it: paths no route serves would make label values unbounded).
 */
export function trackRequest(
  req: IncomingMessage,
  res: ServerResponse,
  info: RequestInfo,
  query: URLSearchParams,
  log: Logger,
  metrics: ApiServerMetrics,
  instrumented: boolean,
): void {
  const started = performance.now();
  const labels = requestLabels(info, req, query);
  const gaugeLabels = instrumented && labels.verb === 'WATCH' ? longRunningLabels(labels) : undefined;
  const body =
    instrumented && info.isResourceRequest && (labels.verb === 'GET' || labels.verb === 'LIST')
      ? countBodyBytes(res)
      : undefined;
  if (gaugeLabels) metrics.longRunning.inc(gaugeLabels);
  let done = false;
  const finish = (): void => {
    if (done) return;
    done = true;
    if (gaugeLabels) metrics.longRunning.dec(gaugeLabels);
    const seconds = (performance.now() - started) / 1000;
    if (instrumented) metrics.observe(labels, res.statusCode, seconds);
    if (body) metrics.observeResponseSize(labels, body.bytes);
    const level = requestLogLevel(res.statusCode, seconds, labels.verb);
    if (!log.isLevelEnabled(level)) return;
    const entry = {
      verb: labels.verb,
      path: info.path,
      resource: info.isResourceRequest ? info.resource : undefined,
      namespace: info.isResourceRequest && info.namespace !== '' ? info.namespace : undefined,
      name: info.isResourceRequest && info.name !== '' ? info.name : undefined,
      code: res.statusCode,
      latencyMs: Math.round(seconds * 1e6) / 1e3,
      userAgent: req.headers['user-agent'],
    };
    log[level](entry, 'request completed');
  };
  // 'close' follows 'finish' on every response (and alone when the client goes away), so one listener does.
  res.once('close', finish);
}

/** Counts the body bytes the handler writes (after compression, which writes into the response), as Go's delegator does. */
function countBodyBytes(res: ServerResponse): { bytes: number } {
  const counted = { bytes: 0 };
  const size = (chunk: unknown, encoding: unknown): number =>
    typeof chunk === 'string'
      ? Buffer.byteLength(chunk, typeof encoding === 'string' ? (encoding as BufferEncoding) : 'utf8')
      : chunk instanceof Uint8Array
        ? chunk.byteLength
        : 0;
  const write = res.write;
  const end = res.end;
  res.write = function (this: ServerResponse, chunk: unknown, ...rest: unknown[]): boolean {
    counted.bytes += size(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as ServerResponse['write'];
  res.end = function (this: ServerResponse, chunk?: unknown, ...rest: unknown[]): ServerResponse {
    if (typeof chunk !== 'function') counted.bytes += size(chunk, rest[0]);
    return (end as (...args: unknown[]) => ServerResponse).call(this, chunk, ...rest);
  } as ServerResponse['end'];
  return counted;
}

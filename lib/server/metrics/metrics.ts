// Prometheus metrics of one server instance (own registry, so several servers can share a process in tests).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ResourceRegistry } from '../../registry/resource-registry';
import { etcdRequestDuration, setEtcdKeyTypeResolver } from '../../storage/etcd/metrics';
import { annotatedHelp } from './stability';
import { registerWatchMetrics, resourceLabel } from './watch-metrics';

const REQUEST_LABELS = [
  'verb',
  'dry_run',
  'group',
  'version',
  'resource',
  'subresource',
  'scope',
  'component',
  'code',
] as const;
const DURATION_LABELS = [
  'verb',
  'dry_run',
  'group',
  'version',
  'resource',
  'subresource',
  'scope',
  'component',
] as const;
/** Bound on cached label children (label values come from served routes, so this is a safety net). */
const MAX_CACHED_LABEL_SETS = 10_000;
/** kube-apiserver's request duration buckets (seconds). */
const DURATION_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

export interface RequestLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  /** `apiserver`; empty for the health endpoints. */
  component: 'apiserver' | '';
}

export interface MetricsOptions {
  /** --show-hidden-metrics-for-version was given (validated): register metrics deprecated before this release. */
  showHidden?: boolean;
}

export class ApiServerMetrics {
  readonly registry = new Registry();
  readonly #showHidden: boolean;
  readonly requestTotal = new Counter({
    name: 'apiserver_request_total',
    help: annotatedHelp(
      'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.',
      { stability: 'STABLE' },
    ),
    labelNames: REQUEST_LABELS,
    registers: [this.registry],
  });
  readonly requestDuration = new Histogram({
    name: 'apiserver_request_duration_seconds',
    help: annotatedHelp(
      'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.',
      { stability: 'STABLE' },
    ),
    labelNames: DURATION_LABELS,
    buckets: DURATION_BUCKETS,
    registers: [this.registry],
  });
  readonly longRunning = new Gauge({
    name: 'apiserver_longrunning_requests',
    help: annotatedHelp(
      'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component. Not all requests are tracked this way.',
      { stability: 'STABLE' },
    ),
    labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
    registers: [this.registry],
  });
  readonly deprecatedApis = new Gauge({
    name: 'apiserver_requested_deprecated_apis',
    help: annotatedHelp(
      'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.',
      { stability: 'STABLE' },
    ),
    labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'],
    registers: [this.registry],
  });

  readonly responseSizes = new Histogram({
    name: 'apiserver_response_sizes',
    help: annotatedHelp(
      'Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.',
      { stability: 'STABLE' },
    ),
    labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'],
    // 1.26's ExponentialBuckets(1000, 10, 7): 1 KB to 1 GB.
    buckets: [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9],
    registers: [this.registry],
  });

  /** What /metrics serves; a cluster worker replaces it with the primary's sum over all workers. */
  render: () => Promise<string> = () => this.registry.metrics();

  constructor(options: MetricsOptions = {}) {
    this.#showHidden = options.showHidden === true;
    collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(etcdRequestDuration);
  }

  /** Watch, watch-cache and storage figures per resource, and the `type` label of etcd request metrics. */
  watchCaches(resources: ResourceRegistry): void {
    registerWatchMetrics(this.registry, resources, this.#showHidden);
    labelEtcdRequestsByResource(resources.all().map((served) => served.definition));
  }

  /** Label children by label values, so a request does not hash its labels twice (prom-client's costly part). */
  readonly #children = new Map<
    string,
    { total: ReturnType<Counter['labels']>; duration: ReturnType<Histogram['labels']> }
  >();

  /** The bytes of a GET or LIST response body (1.26's MonitorRequest records read requests' sizes only). */
  observeResponseSize(labels: RequestLabels, bytes: number): void {
    const { dry_run: _dryRun, ...sizeLabels } = labels;
    this.responseSizes.observe(sizeLabels, bytes);
  }

  observe(labels: RequestLabels, code: number, seconds: number): void {
    const key = `${labels.verb}|${labels.dry_run}|${labels.group}|${labels.version}|${labels.resource}|${labels.subresource}|${labels.scope}|${labels.component}|${code}`;
    let child = this.#children.get(key);
    if (!child) {
      if (this.#children.size >= MAX_CACHED_LABEL_SETS) this.#children.clear();
      child = {
        total: this.requestTotal.labels({ ...labels, code: String(code) }),
        duration: this.requestDuration.labels(labels),
      };
      this.#children.set(key, child);
    }
    child.total.inc();
    child.duration.observe(seconds);
  }
}

/**
 * Installs the `type` label of etcd_request_duration_seconds (1.26's groupResourceString: `deployments.apps`); the
 * server calls it before its first etcd request, so no call is labelled with a raw key.
 */
export function labelEtcdRequestsByResource(definitions: ReadonlyArray<{ group: string; resource: string }>): void {
  const labelBySegments = new Map<string, string>();
  for (const definition of definitions) {
    const { group, resource } = definition;
    labelBySegments.set(group === '' ? resource : `${group}/${resource}`, resourceLabel({ definition }));
  }
  setEtcdKeyTypeResolver((key) => resourceOfKey(labelBySegments, key));
}

/** `deployments.apps` for `/registry/apps/deployments/ns/web`: the first `group/resource` (core: `resource`) segment pair; else the key. */
function resourceOfKey(labelBySegments: ReadonlyMap<string, string>, key: string): string {
  const segments = key.split('/');
  for (let i = 0; i < segments.length; i++) {
    const label =
      labelBySegments.get(`${segments[i]}/${segments[i + 1] ?? ''}`) ?? labelBySegments.get(segments[i] ?? '');
    if (label !== undefined) return label;
  }
  return key;
}

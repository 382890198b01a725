// Prometheus metrics of one server instance (own registry, so several servers can share a process in tests).
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { ResourceRegistry, ServedResource } from '../../registry/resource-registry';
import type { CacherStats } from '../../storage/cacher/cacher';

/** `resource.group` as kube-apiserver labels storage metrics (core resources without a group). */
function resourceLabel(served: ServedResource): string {
  const { group, resource } = served.definition;
  return group === '' ? resource : `${resource}.${group}`;
}

const REQUEST_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component', 'code'] as const;
const DURATION_LABELS = ['verb', 'dry_run', 'group', 'version', 'resource', 'subresource', 'scope', 'component'] as const;
/** Bound on cached label children (non-resource paths are labels too, and clients choose paths). */
const MAX_CACHED_LABEL_SETS = 10_000;
/** kube-apiserver's request duration buckets (seconds). */
const DURATION_BUCKETS = [0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60];

export interface RequestLabels {
  verb: string;
  dry_run: string;
  group: string;
  version: string;
  resource: string;
  subresource: string;
  scope: string;
  component: 'apiserver';
}

export class ApiServerMetrics {
  readonly registry = new Registry();
  readonly requestTotal = new Counter({ name: 'apiserver_request_total', help: 'Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.', labelNames: REQUEST_LABELS, registers: [this.registry] });
  readonly requestDuration = new Histogram({ name: 'apiserver_request_duration_seconds', help: 'Response latency distribution in seconds for each verb, dry run value, group, version, resource, subresource, scope and component.', labelNames: DURATION_LABELS, buckets: DURATION_BUCKETS, registers: [this.registry] });
  readonly longRunning = new Gauge({ name: 'apiserver_longrunning_requests', help: 'Gauge of all active long-running apiserver requests broken out by verb, group, version, resource, scope and component.', labelNames: ['verb', 'group', 'version', 'resource', 'subresource', 'scope', 'component'], registers: [this.registry] });
  readonly deprecatedApis = new Gauge({ name: 'apiserver_requested_deprecated_apis', help: 'Gauge of deprecated APIs that have been requested, broken out by API group, version, resource, subresource, and removed_release.', labelNames: ['group', 'version', 'resource', 'subresource', 'removed_release'], registers: [this.registry] });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Watch and watch-cache figures, read from each resource's cacher at scrape time. */
  watchCaches(resources: ResourceRegistry): void {
    const perResource = (read: (stats: CacherStats) => number) =>
      function collect(this: Gauge<'resource'>): void {
        for (const served of resources.all()) {
          if (!served.cacher) continue;
          this.set({ resource: resourceLabel(served) }, read(served.cacher.stats()));
        }
      };
    const perKind = (read: (stats: CacherStats) => number) =>
      function collect(this: Gauge<'group' | 'version' | 'kind'>): void {
        for (const served of resources.all()) {
          if (!served.cacher) continue;
          const { group, version, kind } = served.definition;
          this.set({ group, version, kind }, read(served.cacher.stats()));
        }
      };
    const registers = [this.registry];
    new Gauge({ name: 'apiserver_registered_watchers', help: 'Number of currently registered watchers for a given resources', labelNames: ['group', 'version', 'kind'], registers, collect: perKind((s) => s.watchers) });
    // Counters kept by the cachers, exposed as their running totals.
    new Gauge({ name: 'apiserver_watch_events_total', help: 'Number of events sent in watch clients', labelNames: ['group', 'version', 'kind'], registers, collect: perKind((s) => s.eventsSent) });
    new Gauge({ name: 'apiserver_watch_cache_capacity', help: 'Total capacity of watch cache broken by resource type.', labelNames: ['resource'], registers, collect: perResource((s) => s.capacity) });
    new Gauge({ name: 'apiserver_watch_cache_window_events', help: 'Events currently held in the watch cache window (the history resuming watches are served from), by resource type.', labelNames: ['resource'], registers, collect: perResource((s) => s.windowEvents) });
    new Gauge({ name: 'apiserver_watch_cache_initializations_total', help: 'Counter of watch cache initializations broken by resource type.', labelNames: ['resource'], registers, collect: perResource((s) => s.initializations) });
    new Gauge({ name: 'apiserver_watch_cache_terminated_watchers_total', help: 'Counter of watchers closed due to unresponsiveness broken by resource type.', labelNames: ['resource'], registers, collect: perResource((s) => s.slowWatchersClosed) });
    new Gauge({ name: 'apiserver_storage_objects', help: 'Number of stored objects at the time of last check split by kind.', labelNames: ['resource'], registers, collect: perResource((s) => s.objects) });
  }

  /** Label children by label values, so a request does not hash its labels twice (prom-client's costly part). */
  readonly #children = new Map<string, { total: ReturnType<Counter['labels']>; duration: ReturnType<Histogram['labels']> }>();

  observe(labels: RequestLabels, code: number, seconds: number): void {
    const key = `${labels.verb}|${labels.dry_run}|${labels.group}|${labels.version}|${labels.resource}|${labels.subresource}|${labels.scope}|${code}`;
    let child = this.#children.get(key);
    if (!child) {
      if (this.#children.size >= MAX_CACHED_LABEL_SETS) this.#children.clear();
      child = { total: this.requestTotal.labels({ ...labels, code: String(code) }), duration: this.requestDuration.labels(labels) };
      this.#children.set(key, child);
    }
    child.total.inc();
    child.duration.observe(seconds);
  }
}

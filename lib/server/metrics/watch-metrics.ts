// Watch and watch-cache metrics, read from each resource's cacher at scrape time (pkg/storage/cacher/metrics, endpoints/metrics).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ResourceRegistry, ServedResource } from '../../registry/resource-registry';
import type { CacherStats } from '../../storage/cacher/cacher';
import { annotatedHelp, isHiddenByDefault, type MetricStability } from './stability';

/** `resource.group` as kube-apiserver labels storage metrics (core resources without a group). */
export function resourceLabel(served: { definition: { group: string; resource: string } }): string {
  const { group, resource } = served.definition;
  return group === '' ? resource : `${resource}.${group}`;
}

interface SnapshotMetric {
  name: string;
  help: string;
  type: 'counter' | 'gauge';
  stability: MetricStability;
  /** `resource` labels per resource, or `group, version, kind` per served kind. */
  by: 'resource' | 'kind';
  read: (stats: CacherStats) => number;
  /** Several samples per resource, told apart by these extra labels (each with its own reading); `read` unused. */
  variants?: readonly { labels: Record<string, string>; read: (stats: CacherStats) => number }[];
}

/** Kubernetes 1.26 names; `apiserver_registered_watchers` (deprecated 1.23.0) is hidden unless shown. */
const SNAPSHOT_METRICS: readonly SnapshotMetric[] = [
  {
    name: 'apiserver_registered_watchers',
    help: 'Number of currently registered watchers for a given resources',
    type: 'gauge',
    stability: { stability: 'ALPHA', deprecatedVersion: '1.23.0' },
    by: 'kind',
    read: (s) => s.watchers,
  },
  {
    name: 'apiserver_watch_events_total',
    help: 'Number of events sent in watch clients',
    type: 'counter',
    stability: { stability: 'ALPHA' },
    by: 'kind',
    read: (s) => s.eventsSent,
  },
  {
    name: 'watch_cache_capacity',
    help: 'Total capacity of watch cache broken by resource type.',
    type: 'gauge',
    stability: { stability: 'ALPHA' },
    by: 'resource',
    read: (s) => s.capacity,
  },
  {
    name: 'apiserver_watch_cache_initializations_total',
    help: 'Counter of watch cache initializations broken by resource type.',
    type: 'counter',
    stability: { stability: 'ALPHA' },
    by: 'resource',
    read: (s) => s.initializations,
  },
  {
    name: 'apiserver_terminated_watchers_total',
    help: 'Counter of watchers closed due to unresponsiveness broken by resource type.',
    type: 'counter',
    stability: { stability: 'ALPHA' },
    by: 'resource',
    read: (s) => s.slowWatchersClosed,
  },
  {
    name: 'apiserver_storage_objects',
    help: 'Number of stored objects at the time of last check split by kind.',
    type: 'gauge',
    stability: { stability: 'STABLE' },
    by: 'resource',
    read: (s) => s.objects,
  },
  // orch only: the history resuming watches are served from.
  {
    name: 'apiserver_watch_cache_window_events',
    help: 'Events currently held in the watch cache window (the history resuming watches are served from), by resource type.',
    type: 'gauge',
    stability: { stability: 'ALPHA' },
    by: 'resource',
    read: (s) => s.windowEvents,
  },
  // Kubernetes 1.31's name and labels (KEP-2340): consistent reads served from the cache, or fallen back to etcd.
  {
    name: 'apiserver_watch_cache_consistent_read_total',
    help: 'Counter for consistent reads from cache.',
    type: 'counter',
    stability: { stability: 'ALPHA' },
    by: 'resource',
    read: () => 0,
    variants: [
      { labels: { success: 'true', fallback: 'false' }, read: (s) => s.consistentReadsFromCache },
      { labels: { success: 'false', fallback: 'true' }, read: (s) => s.consistentReadsFellBack },
    ],
  },
];

function labelsOf(served: ServedResource, by: SnapshotMetric['by']): Record<string, string> {
  if (by === 'resource') return { resource: resourceLabel(served) };
  const { group, version, kind } = served.definition;
  return { group, version, kind };
}

/** Registers the snapshot metrics; hidden ones only when `showHidden`. */
export function registerWatchMetrics(registry: Registry, resources: ResourceRegistry, showHidden: boolean): void {
  for (const metric of SNAPSHOT_METRICS) {
    if (isHiddenByDefault(metric.stability.deprecatedVersion) && !showHidden) continue;
    const labelNames = metric.by === 'resource' ? ['resource'] : ['group', 'version', 'kind'];
    const variants = metric.variants ?? [{ labels: {}, read: metric.read }];
    labelNames.push(...Object.keys(variants[0]?.labels ?? {}));
    const collect = function collect(this: Gauge | Counter): void {
      this.reset();
      // Served versions of one resource share a cacher: one sample per label set.
      const samples = new Map<string, { labels: Record<string, string>; value: number }>();
      for (const served of resources.all()) {
        if (!served.cacher) continue;
        const stats = served.cacher.stats();
        for (const variant of variants) {
          const labels = { ...labelsOf(served, metric.by), ...variant.labels };
          samples.set(Object.values(labels).join('|'), { labels, value: variant.read(stats) });
        }
      }
      for (const { labels, value } of samples.values()) {
        if (this instanceof Gauge) this.set(labels, value);
        else this.inc(labels, value);
      }
    };
    const config = {
      name: metric.name,
      help: annotatedHelp(metric.help, metric.stability),
      labelNames,
      registers: [registry],
      collect,
    };
    if (metric.type === 'gauge') new Gauge(config);
    else new Counter(config);
  }
}

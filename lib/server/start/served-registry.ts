// The registry of served resources with its admission chain (namespace lifecycle, then admission webhooks) and
// started watch caches.
import type { Logger } from 'pino';
import type { Storage } from '../../storage/storage';
import { buildRegistry } from '../../registry/install';
import type { ResourceRegistry } from '../../registry/resource-registry';
import type { GenericStore } from '../../registry/generic/store';
import { NamespaceLifecycle } from '../../registry/core/namespaces/lifecycle-admission';
import { chainAdmission } from '../../registry/generic/admission';
import { DeferredWriteGuard } from '../../registry/generic/write-guard';
import { WebhookAdmission } from '../admission/webhooks/dispatcher';
import type { WebhookMetrics } from '../admission/webhooks/metrics';
import { WebhookSource, lazyWebhookStores } from '../admission/webhooks/source';
import type { ServerOptions } from '../options/options';
import { featureEnabled } from '../options/feature-gates';
import { isVersionEnabled } from '../options/runtime-config';
import { RevisionLedger } from '../../storage/cacher/revision-ledger';

export interface ServedRegistry {
  registry: ResourceRegistry;
  admission: NamespaceLifecycle;
  /** Guards RBAC writes against escalation once the authorizer exists. */
  rbacGuard: DeferredWriteGuard;
  /** The webhook metrics, registered later with the server's metrics. */
  setWebhookMetrics(metrics: WebhookMetrics): void;
}

/** Builds the registry, starts its watch caches and the webhook configuration source; `undo` gets their stops. */
export async function buildServedRegistry(
  storage: Storage,
  options: ServerOptions,
  log: Logger,
  undo: Array<() => unknown>,
): Promise<ServedRegistry> {
  let namespacesStore: () => GenericStore = () => {
    throw new Error('registry not built yet');
  };
  const admission = new NamespaceLifecycle(() => namespacesStore());
  // Built later than the closures that read them (the webhook plugin is part of the admission the registry is built with).
  const late: { registry?: ResourceRegistry; webhookMetrics?: WebhookMetrics } = {};
  const webhookLog = log.child({ component: 'admission-webhooks' });
  const webhookSource = new WebhookSource(
    lazyWebhookStores(() => late.registry),
    webhookLog,
  );
  const webhooks = new WebhookAdmission({
    source: webhookSource,
    registry: () => {
      if (!late.registry) throw new Error('registry not built yet');
      return late.registry;
    },
    metrics: () => late.webhookMetrics,
    serviceUrlTemplate: options.webhookServiceUrlTemplate,
    log: webhookLog,
  });
  const watchCache = options.watchCache
    ? {
        capacity: options.watchCache.capacity,
        minAgeMs: options.watchCache.windowMs,
        bookmarkIntervalMs: options.watchCache.bookmarkIntervalMs,
        consistentReads: featureEnabled(options.featureGates, 'ConsistentListFromCache'),
        ledger: new RevisionLedger(),
        log: log.child({ component: 'watch-cache' }),
      }
    : undefined;
  const rbacGuard = new DeferredWriteGuard();
  const registry = buildRegistry(
    storage,
    options.etcdPrefix,
    options.featureGates,
    chainAdmission(admission, webhooks),
    watchCache,
    (group, version, resource) => isVersionEnabled(options.runtimeConfig, group, version, resource),
    { eventSeconds: Math.max(1, Math.round(options.eventTtlMs / 1000)) },
    rbacGuard,
  );
  late.registry = registry;
  for (const cacher of registry.cachers()) cacher.start();
  undo.push(() => Promise.all(registry.cachers().map((c) => c.stop())));
  await webhookSource.start();
  undo.push(() => webhookSource.stop());
  const namespaces = registry.lookup('', 'v1', 'namespaces');
  if (!namespaces) throw new Error('namespaces are not served');
  namespacesStore = () => namespaces.store;
  return {
    registry,
    admission,
    rbacGuard,
    setWebhookMetrics: (metrics) => {
      late.webhookMetrics = metrics;
    },
  };
}

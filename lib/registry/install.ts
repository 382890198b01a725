// The served resources: every resource's registration (its storage.ts), in kube-apiserver's discovery order of
// groups, each built generically into its served versions on one storage, behind admission.
/** Whether --runtime-config serves a group/version/resource; absent: everything is served. */
export type VersionEnabled = (group: string, version: string, resource: string) => boolean;
import { conversionsOf } from '../apis/conversions';
import { EncodingStorage } from './generic/encoding-storage';
import type { Logger } from 'pino';
import type { Storage } from '../storage/storage';
import { CachedStorage } from '../storage/cacher/cached-storage';
import type { RevisionLedger } from '../storage/cacher/revision-ledger';
import { GenericStore } from './generic/store';
import { TtlStorage } from './generic/ttl-storage';
import type { Admission } from './generic/admission';
import type { WriteGuard } from './generic/write-guard';
import type { ResourceDefinition } from './rest/resource';
import { ResourceRegistry, type ServedResource } from './resource-registry';
import { DEFAULT_SELECTOR_SUPPORT } from './rest/selector-support';
import {
  DEFAULT_TTLS,
  versionDefinition,
  type ExtraVersion,
  type Registrar,
  type RegistrationOptions,
  type RegistryFeatureGates,
  type ResourceRegistration,
  type Ttls,
} from './rest/registration';
import { kubernetesGroupOf } from '../apimachinery/schema/group-aliases';
import { namespaceRegistration } from './core/namespaces/storage';
import { serviceAccountRegistration } from './core/serviceaccounts/storage';
import { deploymentRegistration } from './apps/deployments/storage';
import { horizontalPodAutoscalerRegistration } from './autoscaling/horizontalpodautoscalers/storage';
import { roleRegistration } from './rbac/roles/storage';
import { clusterRoleRegistration } from './rbac/clusterroles/storage';
import { roleBindingRegistration } from './rbac/rolebindings/storage';
import { clusterRoleBindingRegistration } from './rbac/clusterrolebindings/storage';
import { flowSchemaRegistration } from './flowcontrol/flowschemas/storage';
import { priorityLevelConfigurationRegistration } from './flowcontrol/prioritylevelconfigurations/storage';
import { eventRegistration } from './core/events/storage';
import { validatingWebhookConfigurationRegistration } from './admissionregistration/validatingwebhookconfigurations/storage';
import { mutatingWebhookConfigurationRegistration } from './admissionregistration/mutatingwebhookconfigurations/storage';

export { DEFAULT_TTLS, type Ttls } from './rest/registration';

/** Every served resource, in the order their versions are registered (discovery lists groups in GROUP_ORDER). */
const REGISTRARS: readonly Registrar[] = [
  namespaceRegistration,
  serviceAccountRegistration,
  deploymentRegistration,
  horizontalPodAutoscalerRegistration,
  roleRegistration,
  clusterRoleRegistration,
  roleBindingRegistration,
  clusterRoleBindingRegistration,
  flowSchemaRegistration,
  priorityLevelConfigurationRegistration,
  eventRegistration,
  validatingWebhookConfigurationRegistration,
  mutatingWebhookConfigurationRegistration,
];

function registrations(options: RegistrationOptions): ResourceRegistration[] {
  return REGISTRARS.map((register) => register(options));
}

/** Every served version of every resource: storage versions first, then the extra versions. */
export function resourceDefinitions(features: RegistryFeatureGates): ResourceDefinition[] {
  const all = registrations({ features, ttls: DEFAULT_TTLS });
  return [
    ...all.map((r) => r.definition),
    ...all.flatMap((r) => (r.extraVersions ?? []).map((extra) => versionDefinition(r.definition, extra))),
  ];
}

/** Every served group with its versions (for --runtime-config validation). */
export function servedVersions(): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const def of resourceDefinitions({}))
    groups.set(def.group, [...new Set([...(groups.get(def.group) ?? []), def.version])]);
  return groups;
}

/** `{prefix}/{group}/{resource}/` (the core group has no group segment). */
export function keyPrefixOf(etcdPrefix: string, def: ResourceDefinition): string {
  return def.group === '' ? `${etcdPrefix}/${def.resource}/` : `${etcdPrefix}/${def.group}/${def.resource}/`;
}

/** Watch cache settings; without them every watch and read goes to etcd. */
export interface WatchCacheConfig {
  capacity: number;
  minAgeMs: number;
  bookmarkIntervalMs: number;
  /** Feature gate ConsistentListFromCache: Most Recent reads served from the cache once it caught up with etcd. */
  consistentReads?: boolean;
  /** The revisions the caches of this etcd applied (one per registry: see revision-ledger.ts). */
  ledger?: RevisionLedger;
  log: Logger;
}

/** The resource's storage with its watch cache in front: reads by resourceVersion served from memory where they can. */
function cachedStorageFor(
  storage: Storage,
  definition: ResourceDefinition,
  keyPrefix: string,
  config: WatchCacheConfig,
  onLedger: boolean,
): CachedStorage {
  const namespaced = definition.strategy.namespaced;
  return new CachedStorage(storage, {
    prefix: keyPrefix,
    keyOf: (obj) =>
      namespaced
        ? `${keyPrefix}${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`
        : `${keyPrefix}${obj.metadata.name ?? ''}`,
    capacity: config.capacity,
    minAgeMs: config.minAgeMs,
    bookmarkIntervalMs: config.bookmarkIntervalMs,
    consistentReads: config.consistentReads ?? false,
    ...(config.ledger && onLedger ? { ledger: config.ledger } : {}),
    log: config.log.child({
      resource: definition.group === '' ? definition.resource : `${definition.resource}.${definition.group}`,
    }),
  });
}

/** The version written to etcd when it is not the hub (Kubernetes 1.26's storage version). */
const encodedAs = (registration: ResourceRegistration): ExtraVersion | undefined =>
  registration.extraVersions?.find((extra) => extra.writtenToEtcd);

/** The storage of one resource: expiring through leases, converting to and from the version written to etcd when that is not the hub. */
function storageFor(storage: Storage, registration: ResourceRegistration): Storage {
  const { definition } = registration;
  if (registration.ttlSeconds !== undefined) storage = new TtlStorage(storage, registration.ttlSeconds);
  const encoding = encodedAs(registration);
  const conversions = conversionsOf(definition.group, definition.kind);
  if (!encoding || !conversions) return storage;
  return new EncodingStorage(storage, {
    group: definition.group,
    kind: definition.kind,
    conversions,
    version: encoding.version,
  });
}

/** Where every resource's stores are made: its served versions over one storage and one watch cache. */
function servedResourcesOf(
  registration: ResourceRegistration,
  storage: Storage,
  etcdPrefix: string,
  admission: Admission,
  watchCache?: WatchCacheConfig,
): ServedResource[] {
  const { definition, guard } = registration;
  const keyPrefix = keyPrefixOf(etcdPrefix, definition);
  const plainStorage = storageFor(storage, registration);
  // Expiring objects share leases: one lease's expiry deletes keys of several resources at one revision, so their
  // caches stay off the revision ledger (which needs one prefix per revision).
  const onLedger = registration.ttlSeconds === undefined;
  const cached = watchCache ? cachedStorageFor(plainStorage, definition, keyPrefix, watchCache, onLedger) : undefined;
  const resourceStorage = cached ?? plainStorage;
  const store = new GenericStore({
    definition,
    strategy: definition.strategy,
    storage: resourceStorage,
    keyPrefix,
    admission,
    ...(guard ? { guard } : {}),
  });
  const statusStore = definition.statusStrategy ? store.withStrategy(definition.statusStrategy, 'status') : undefined;
  const servedAs = (def: ResourceDefinition, extra?: ExtraVersion): ServedResource => {
    const otherGroup = def.group !== definition.group;
    const served: ServedResource = {
      definition: def,
      // A version with its own validation writes through a store with its strategy (same storage and cache);
      // another group's store names its own group in errors.
      store: otherGroup
        ? new GenericStore({
            definition: def,
            strategy: def.strategy,
            storage: resourceStorage,
            keyPrefix,
            admission,
          })
        : def.strategy.validate === definition.strategy.validate
          ? store
          : store.withStrategy(def.strategy),
      putSubresources: new Map(
        Object.entries(registration.putSubresources ?? {}).map(([name, strategy]) => [
          name,
          store.withStrategy(strategy, name),
        ]),
      ),
      selectors: (otherGroup ? extra?.selectors : undefined) ?? registration.selectors ?? DEFAULT_SELECTOR_SUPPORT,
      returnDeletedObject: registration.returnDeletedObject ?? false,
      deleteCollection: registration.deleteCollection ?? true,
      storageVersion: definition.version,
      encodingVersion: encodedAs(registration)?.version ?? definition.version,
    };
    if (cached) served.cacher = cached.cacher;
    if (otherGroup) served.storageGroup = definition.group;
    if (registration.scale) served.scale = registration.scale;
    if (statusStore) served.statusStore = statusStore;
    if (extra?.deprecation) served.deprecation = extra.deprecation;
    return served;
  };
  const versions = [servedAs(definition)];
  for (const extra of registration.extraVersions ?? []) {
    const other = servedAs(versionDefinition(definition, extra), extra);
    if (extra.preferred) versions.unshift(other);
    else versions.push(other);
  }
  return versions;
}

/** `rbacGuard`: escalation prevention of the RBAC kinds' writes (needs the authorizer, built after the registry). */
export function buildRegistry(
  storage: Storage,
  etcdPrefix: string,
  features: RegistryFeatureGates,
  admission: Admission,
  watchCache?: WatchCacheConfig,
  isEnabled?: VersionEnabled,
  ttls: Ttls = DEFAULT_TTLS,
  rbacGuard?: WriteGuard,
): ResourceRegistry {
  const registry = new ResourceRegistry();
  for (const registration of registrations({ features, ttls, ...(rbacGuard ? { rbacGuard } : {}) })) {
    for (const served of servedResourcesOf(registration, storage, etcdPrefix, admission, watchCache)) {
      const { group, version, resource } = served.definition;
      if (isEnabled !== undefined && !isEnabled(group, version, resource)) continue;
      registry.add(served);
      const k8sGroup = kubernetesGroupOf(group);
      if (k8sGroup !== undefined) registry.addAlias(k8sGroup, served);
    }
  }
  return registry;
}

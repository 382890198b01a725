// Builds the served resources: each ResourceDefinition with its strategies, on one storage, behind admission.
/** Feature gate states by name (--feature-gates), as plain values: the registry does not parse flags. */
type FeatureGates = Readonly<Record<string, boolean>>;
/** Whether --runtime-config serves a group/version/resource; absent: everything is served. */
export type VersionEnabled = (group: string, version: string, resource: string) => boolean;
import { conversionsOf } from '../apis/conversions';
import { EncodingStorage } from './generic/encoding-storage';
import type { Logger } from 'pino';
import type { Storage } from '../storage/storage';
import { Cacher } from '../storage/cacher/cacher';
import { GenericStore } from './generic/store';
import { TtlStorage } from './generic/ttl-storage';
import type { Admission } from './generic/admission';
import type { WriteGuard } from './generic/write-guard';
import type { ResourceDefinition } from './rest/resource';
import { ResourceRegistry, type Deprecation, type ServedResource } from './resource-registry';
import { DEFAULT_SELECTOR_SUPPORT, type SelectorSupport } from './rest/selector-support';
import { namespaceFinalizeStrategy as finalizeStrategy, namespaceStatusStrategy as statusStrategy, namespaceStrategy as mainStrategy } from './core/namespaces/strategy';
import { namespaceDeletionHooks } from './core/namespaces/deletion';
import { deploymentStatusStrategy, deploymentStrategy } from './apps/deployments/strategy';
import { deploymentScale } from './apps/deployments/scale';
import { horizontalPodAutoscalerStrategies } from './autoscaling/horizontalpodautoscalers/strategy';
import { flowSchemaStatusStrategy, flowSchemaStrategy } from './flowcontrol/flowschemas/strategy';
import { priorityLevelConfigurationStatusStrategy, priorityLevelConfigurationStrategy, priorityLevelConfigurationV1beta2Overrides } from './flowcontrol/prioritylevelconfigurations/strategy';
import { applyHorizontalPodAutoscalerDefaults } from '../apis/autoscaling/v1/defaults';
import { applyPriorityLevelConfigurationDefaults as applyV1beta2PriorityLevelDefaults } from '../apis/flowcontrol/v1beta2/defaults';
import type { Strategy } from './rest/strategy';
import { eventStrategy, eventsV1Validation } from './core/events/strategy';
import { CORE_EVENT_SELECTORS, EVENTS_V1_SELECTORS } from './core/events/selectors';
import { mutatingWebhookConfigurationStrategy, validatingWebhookConfigurationStrategy } from './admissionregistration/webhookconfigurations/strategy';
import { roleStrategy } from './rbac/roles/strategy';
import { serviceAccountStrategy } from './core/serviceaccounts/strategy';
import { clusterRoleStrategy } from './rbac/clusterroles/strategy';
import { roleBindingStrategy } from './rbac/rolebindings/strategy';
import { clusterRoleBindingStrategy } from './rbac/clusterrolebindings/strategy';
import { RBAC_GROUP } from '../apis/rbac/types';
import { FLOWCONTROL_GROUP } from '../apis/flowcontrol/register';
import { EVENTS_GROUP } from '../apis/events/register';
import { ADMISSIONREGISTRATION_GROUP } from '../apis/admissionregistration/register';
import { kubernetesGroupOf } from '../apimachinery/schema/group-aliases';

const namespaceStrategy = { ...mainStrategy, ...namespaceDeletionHooks };
const namespaceStatusStrategy = { ...statusStrategy, ...namespaceDeletionHooks };
const namespaceFinalizeStrategy = { ...finalizeStrategy, ...namespaceDeletionHooks };


/** Namespaces select on metadata.name and status.phase (no metadata.namespace), as in Kubernetes. */
const NAMESPACE_SELECTORS: SelectorSupport = {
  fields: ['metadata.name', 'status.phase'],
  fieldSet: (obj) => {
    const status = obj['status'] as { phase?: unknown } | undefined;
    return { 'metadata.name': obj.metadata.name ?? '', 'status.phase': typeof status?.phase === 'string' ? status.phase : '' };
  },
};

/** Another served version of a stored resource: its own defaults on top of the storage version's strategy. */
interface ExtraVersion {
  version: string;
  applyDefaults: Strategy['applyDefaults'];
  /** Listed before the storage version in discovery (the group's preferred version). */
  preferred: boolean;
  deprecation?: Deprecation;
  /** The version written to etcd (the strategies still work on the hub version): Kubernetes 1.26's storage version. */
  writtenToEtcd?: boolean;
  /** Validation of writes through this version, when its error paths differ (Kubernetes validates with the request's version). */
  validation?: Pick<Strategy, 'validate' | 'validateUpdate'>;
  /** Set when another group serves the same storage (events.orch.io/v1 Event over core v1 events). */
  group?: string;
  /** Field selectors of this version, when its labels differ from the storage version's. */
  selectors?: SelectorSupport;
}

/** Versions served besides the storage version, by `group/resource` (Kubernetes 1.26). */
const EXTRA_VERSIONS: Readonly<Record<string, ExtraVersion>> = {
  'autoscaling/horizontalpodautoscalers': { version: 'v1', applyDefaults: applyHorizontalPodAutoscalerDefaults, preferred: false },
  [`${FLOWCONTROL_GROUP}/flowschemas`]: {
    version: 'v1beta2', applyDefaults: flowSchemaStrategy.applyDefaults, preferred: true, writtenToEtcd: true,
    deprecation: { deprecatedIn: '1.26', removedIn: '1.29', replacement: { group: FLOWCONTROL_GROUP, version: 'v1beta3', kind: 'FlowSchema' } },
  },
  [`${FLOWCONTROL_GROUP}/prioritylevelconfigurations`]: {
    version: 'v1beta2', applyDefaults: applyV1beta2PriorityLevelDefaults, preferred: true, writtenToEtcd: true, validation: priorityLevelConfigurationV1beta2Overrides,
    deprecation: { deprecatedIn: '1.26', removedIn: '1.29', replacement: { group: FLOWCONTROL_GROUP, version: 'v1beta3', kind: 'PriorityLevelConfiguration' } },
  },
  '/events': { group: EVENTS_GROUP, version: 'v1', applyDefaults: () => {}, preferred: false, validation: eventsV1Validation, selectors: EVENTS_V1_SELECTORS },
};

/** Field selectors of storage versions beyond metadata.name/namespace, by `group/resource`. */
const SELECTORS: Readonly<Record<string, SelectorSupport>> = {
  '/namespaces': NAMESPACE_SELECTORS,
  '/events': CORE_EVENT_SELECTORS,
};

/** A served version's definition: the storage definition with its version and defaults. */
function versionDefinition(storage: ResourceDefinition, extra: ExtraVersion): ResourceDefinition {
  const strategy = { ...storage.strategy, applyDefaults: extra.applyDefaults, ...extra.validation };
  const statusStrategy = storage.statusStrategy ? { ...storage.statusStrategy, applyDefaults: extra.applyDefaults } : undefined;
  return { ...storage, group: extra.group ?? storage.group, version: extra.version, strategy, ...(statusStrategy ? { statusStrategy } : {}) };
}

/** Every served version of every resource: storage versions first, then the extra versions. */
export function resourceDefinitions(features: FeatureGates): ResourceDefinition[] {
  const storage = storageDefinitions(features);
  return [...storage, ...storage.flatMap((def) => {
    const extra = EXTRA_VERSIONS[`${def.group}/${def.resource}`];
    return extra ? [versionDefinition(def, extra)] : [];
  })];
}

/** Every served group with its versions (for --runtime-config validation). */
export function servedVersions(): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const def of resourceDefinitions({})) groups.set(def.group, [...new Set([...(groups.get(def.group) ?? []), def.version])]);
  return groups;
}

/** In kube-apiserver's discovery order of groups (its aggregator's group priorities). */
function storageDefinitions(features: FeatureGates): ResourceDefinition[] {
  const hpa = horizontalPodAutoscalerStrategies({ hpaScaleToZero: features['HPAScaleToZero'] === true });
  return [
    { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', listKind: 'NamespaceList', shortNames: ['ns'], categories: [], strategy: namespaceStrategy, statusStrategy: namespaceStatusStrategy },
    { group: '', version: 'v1', resource: 'serviceaccounts', kind: 'ServiceAccount', listKind: 'ServiceAccountList', shortNames: ['sa'], categories: [], strategy: serviceAccountStrategy },
    { group: 'apps', version: 'v1', resource: 'deployments', kind: 'Deployment', listKind: 'DeploymentList', shortNames: ['deploy'], categories: ['all'], strategy: deploymentStrategy, statusStrategy: deploymentStatusStrategy },
    { group: 'autoscaling', version: 'v2', resource: 'horizontalpodautoscalers', kind: 'HorizontalPodAutoscaler', listKind: 'HorizontalPodAutoscalerList', shortNames: ['hpa'], categories: ['all'], strategy: hpa.main, statusStrategy: hpa.status },
    { group: RBAC_GROUP, version: 'v1', resource: 'roles', kind: 'Role', listKind: 'RoleList', shortNames: [], categories: [], strategy: roleStrategy },
    { group: RBAC_GROUP, version: 'v1', resource: 'clusterroles', kind: 'ClusterRole', listKind: 'ClusterRoleList', shortNames: [], categories: [], strategy: clusterRoleStrategy },
    { group: RBAC_GROUP, version: 'v1', resource: 'rolebindings', kind: 'RoleBinding', listKind: 'RoleBindingList', shortNames: [], categories: [], strategy: roleBindingStrategy },
    { group: RBAC_GROUP, version: 'v1', resource: 'clusterrolebindings', kind: 'ClusterRoleBinding', listKind: 'ClusterRoleBindingList', shortNames: [], categories: [], strategy: clusterRoleBindingStrategy },
    { group: FLOWCONTROL_GROUP, version: 'v1beta3', resource: 'flowschemas', kind: 'FlowSchema', listKind: 'FlowSchemaList', shortNames: [], categories: [], strategy: flowSchemaStrategy, statusStrategy: flowSchemaStatusStrategy },
    { group: FLOWCONTROL_GROUP, version: 'v1beta3', resource: 'prioritylevelconfigurations', kind: 'PriorityLevelConfiguration', listKind: 'PriorityLevelConfigurationList', shortNames: [], categories: [], strategy: priorityLevelConfigurationStrategy, statusStrategy: priorityLevelConfigurationStatusStrategy },
    { group: '', version: 'v1', resource: 'events', kind: 'Event', listKind: 'EventList', shortNames: ['ev'], categories: [], strategy: eventStrategy },
    { group: ADMISSIONREGISTRATION_GROUP, version: 'v1', resource: 'validatingwebhookconfigurations', kind: 'ValidatingWebhookConfiguration', listKind: 'ValidatingWebhookConfigurationList', shortNames: [], categories: ['api-extensions'], strategy: validatingWebhookConfigurationStrategy },
    { group: ADMISSIONREGISTRATION_GROUP, version: 'v1', resource: 'mutatingwebhookconfigurations', kind: 'MutatingWebhookConfiguration', listKind: 'MutatingWebhookConfigurationList', shortNames: [], categories: ['api-extensions'], strategy: mutatingWebhookConfigurationStrategy },
  ];
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
  log: Logger;
}

function cacherFor(storage: Storage, definition: ResourceDefinition, keyPrefix: string, config: WatchCacheConfig): Cacher {
  const namespaced = definition.strategy.namespaced;
  return new Cacher({
    storage,
    prefix: keyPrefix,
    keyOf: (obj) => (namespaced ? `${keyPrefix}${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}` : `${keyPrefix}${obj.metadata.name ?? ''}`),
    capacity: config.capacity,
    minAgeMs: config.minAgeMs,
    bookmarkIntervalMs: config.bookmarkIntervalMs,
    consistentReads: config.consistentReads ?? false,
    log: config.log.child({ resource: definition.group === '' ? definition.resource : `${definition.resource}.${definition.group}` }),
  });
}

/** Resources whose objects expire, with the flag setting their TTL (events: --event-ttl). */
const EXPIRING: Readonly<Record<string, keyof Ttls>> = { '/events': 'eventSeconds' };

export interface Ttls {
  eventSeconds: number;
}

/** Kubernetes' default --event-ttl (1h). */
export const DEFAULT_TTLS: Ttls = { eventSeconds: 3600 };

/** The storage of one resource: expiring through leases, converting to and from the version written to etcd when that is not the hub. */
function storageFor(storage: Storage, definition: ResourceDefinition, extra: ExtraVersion | undefined, ttls: Ttls): Storage {
  const ttl = EXPIRING[`${definition.group}/${definition.resource}`];
  if (ttl !== undefined) storage = new TtlStorage(storage, ttls[ttl]);
  const conversions = conversionsOf(definition.group, definition.kind);
  if (!extra?.writtenToEtcd || !conversions) return storage;
  return new EncodingStorage(storage, { group: definition.group, kind: definition.kind, conversions, version: extra.version });
}

/** `rbacGuard`: escalation prevention of the RBAC kinds' writes (needs the authorizer, built after the registry). */
export function buildRegistry(storage: Storage, etcdPrefix: string, features: FeatureGates, admission: Admission, watchCache?: WatchCacheConfig, isEnabled?: VersionEnabled, ttls: Ttls = DEFAULT_TTLS, rbacGuard?: WriteGuard): ResourceRegistry {
  const registry = new ResourceRegistry();
  for (const definition of storageDefinitions(features)) {
    const keyPrefix = keyPrefixOf(etcdPrefix, definition);
    const extra = EXTRA_VERSIONS[`${definition.group}/${definition.resource}`];
    const resourceStorage = storageFor(storage, definition, extra, ttls);
    const cacher = watchCache ? cacherFor(resourceStorage, definition, keyPrefix, watchCache) : undefined;
    const guard = definition.group === RBAC_GROUP ? rbacGuard : undefined;
    const store = new GenericStore({ definition, strategy: definition.strategy, storage: resourceStorage, keyPrefix, admission, ...(cacher ? { cacher } : {}), ...(guard ? { guard } : {}) });
    const isNamespaces = definition.group === '' && definition.resource === 'namespaces';
    const statusStore = definition.statusStrategy ? store.withStrategy(definition.statusStrategy) : undefined;
    const servedAs = (def: ResourceDefinition, deprecation?: Deprecation): ServedResource => {
      const otherGroup = def.group !== definition.group;
      const served: ServedResource = {
        definition: def,
        // A version with its own validation writes through a store with its strategy (same storage and cache);
        // another group's store names its own group in errors.
        store: otherGroup
          ? new GenericStore({ definition: def, strategy: def.strategy, storage: resourceStorage, keyPrefix, admission, ...(cacher ? { cacher } : {}) })
          : def.strategy.validate === definition.strategy.validate ? store : store.withStrategy(def.strategy),
        putSubresources: new Map(isNamespaces ? [['finalize', store.withStrategy(namespaceFinalizeStrategy)]] : []),
        selectors: (otherGroup ? extra?.selectors : undefined) ?? SELECTORS[`${definition.group}/${definition.resource}`] ?? DEFAULT_SELECTOR_SUPPORT,
        returnDeletedObject: isNamespaces,
        deleteCollection: !isNamespaces,
        storageVersion: definition.version,
        encodingVersion: extra?.writtenToEtcd ? extra.version : definition.version,
      };
      if (cacher) served.cacher = cacher;
      if (otherGroup) served.storageGroup = definition.group;
      if (definition.group === 'apps' && definition.resource === 'deployments') served.scale = deploymentScale;
      if (statusStore) served.statusStore = statusStore;
      if (deprecation) served.deprecation = deprecation;
      return served;
    };
    const versions = [servedAs(definition)];
    if (extra) {
      const other = servedAs(versionDefinition(definition, extra), extra.deprecation);
      if (extra.preferred) versions.unshift(other);
      else versions.push(other);
    }
    for (const served of versions) {
      const { group, version, resource } = served.definition;
      if (isEnabled !== undefined && !isEnabled(group, version, resource)) continue;
      registry.add(served);
      const k8sGroup = kubernetesGroupOf(group);
      if (k8sGroup !== undefined) registry.addAlias(k8sGroup, served);
    }
  }
  return registry;
}

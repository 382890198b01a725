// ResourceRegistration: everything one resource says about how it is served (its storage/storage.go in Kubernetes);
// each lib/registry/<group>/<resource>/storage.ts exports one, install.ts lists them and builds the served resources.
import type { Deprecation } from '../resource-registry';
import type { WriteGuard } from '../generic/write-guard';
import type { ResourceDefinition } from './resource';
import type { ScaleAdapter } from './scale';
import type { SelectorSupport } from './selector-support';
import type { Strategy } from './strategy';

/** Feature gate states the registry reads (--feature-gates), as plain values: the registry does not parse flags. */
export interface RegistryFeatureGates {
  readonly HPAScaleToZero?: boolean;
}

/** Object lifetimes of expiring resources (events: --event-ttl). */
export interface Ttls {
  eventSeconds: number;
}

/** Kubernetes' default --event-ttl (1h). */
export const DEFAULT_TTLS: Ttls = { eventSeconds: 3600 };

/** What a registration may depend on: flags and guards the server hands the registry. */
export interface RegistrationOptions {
  features: RegistryFeatureGates;
  ttls: Ttls;
  /** Escalation prevention of the RBAC kinds' writes (needs the authorizer, built after the registry). */
  rbacGuard?: WriteGuard;
}

/** Another served version of a stored resource: its own defaults on top of the storage version's strategy. */
export interface ExtraVersion {
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

export interface ResourceRegistration {
  /** The storage (hub) version: the strategies work on it, every other version converts to and from it. */
  definition: ResourceDefinition;
  /** Versions served besides the storage version (Kubernetes 1.26's). */
  extraVersions?: ExtraVersion[];
  /** Field selectors beyond metadata.name/namespace (default: those two). */
  selectors?: SelectorSupport;
  /** Subresources updated with PUT only, by name, with their strategies (namespaces' `finalize`). */
  putSubresources?: Readonly<Record<string, Strategy>>;
  /** The `scale` subresource. */
  scale?: ScaleAdapter;
  /** Delete answers with the deleted object instead of a Status (namespaces). */
  returnDeletedObject?: boolean;
  /** DELETE on the collection is served unless false (Kubernetes' namespace REST has no DeleteCollection). */
  deleteCollection?: boolean;
  /** Objects expire this many seconds after their last write (events). */
  ttlSeconds?: number;
  /** Checks a write before it is stored (RBAC escalation prevention). */
  guard?: WriteGuard;
}

/** A resource's registration for the server's options (a storage.ts's export). */
export type Registrar = (options: RegistrationOptions) => ResourceRegistration;

/** A served version's definition: the storage definition with its version and defaults. */
export function versionDefinition(storage: ResourceDefinition, extra: ExtraVersion): ResourceDefinition {
  const strategy = { ...storage.strategy, applyDefaults: extra.applyDefaults, ...extra.validation };
  const statusStrategy = storage.statusStrategy
    ? { ...storage.statusStrategy, applyDefaults: extra.applyDefaults }
    : undefined;
  return {
    ...storage,
    group: extra.group ?? storage.group,
    version: extra.version,
    strategy,
    ...(statusStrategy ? { statusStrategy } : {}),
  };
}

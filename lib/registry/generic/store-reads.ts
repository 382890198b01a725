// The reads of GenericStore (get, list, watch) and what every verb shares: the keys of a resource's objects and
// its storage. How a resourceVersion is served (watch cache or etcd) is the storage's decision, not the store's.
import { badRequest } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { isValidPathSegmentName } from '../../apimachinery/validation/names';
import { goQuote } from '../../apimachinery/field/errors';
import type { RawItem, Storage, StartedWatch, WatchHandle, WatchSink } from '../../storage/storage';
import { decodeStoredValue } from '../../apimachinery/serializers/served-json';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';
import type { ResourceDefinition } from '../rest/resource';
import { groupResource } from '../rest/resource';
import type { Strategy } from '../rest/strategy';
import { toStatusError } from './storage-errors';
import type { Admission } from './admission';
import type { WriteGuard } from './write-guard';
import type { ListParams, ListOutcome } from './list';

export interface GenericStoreOptions {
  definition: ResourceDefinition;
  /** Strategy for writes through this store (main or status). */
  strategy: Strategy;
  /** The resource's storage: with its watch cache in front (cacher/cached-storage.ts) unless --watch-cache=false. */
  storage: Storage;
  /** Storage key prefix of this resource, ending in `/`. */
  keyPrefix: string;
  admission?: Admission;
  /** The subresource this store writes (admission tells webhooks), when it is not the main resource. */
  subresource?: string;
  /** Who may write what (RBAC escalation prevention). */
  guard?: WriteGuard;
}

export class GenericStoreReads {
  readonly definition: ResourceDefinition;
  readonly strategy: Strategy;
  readonly keyPrefix: string;
  protected readonly storage: Storage;

  constructor(options: GenericStoreOptions) {
    this.definition = options.definition;
    this.strategy = options.strategy;
    this.keyPrefix = options.keyPrefix;
    this.storage = options.storage;
  }

  get namespaced(): boolean {
    return this.strategy.namespaced;
  }

  /** The object's etcd key; a name that cannot be a path segment is 400 (registry NamespaceKeyFunc / NoNamespaceKeyFunc). */
  keyFor(namespace: string, name: string): string {
    const problems = isValidPathSegmentName(name);
    if (problems.length > 0) throw badRequest(`Name parameter invalid: ${goQuote(name)}: ${problems.join(';')}`);
    return this.strategy.namespaced ? `${this.keyPrefix}${namespace}/${name}` : `${this.keyPrefix}${name}`;
  }

  /** Prefix of a collection: one namespace, or every object when `namespace` is empty. */
  collectionPrefix(namespace: string): string {
    return this.strategy.namespaced && namespace !== '' ? `${this.keyPrefix}${namespace}/` : this.keyPrefix;
  }

  async get(namespace: string, name: string, revision?: number): Promise<ApiObject> {
    try {
      return await this.storage.get(this.keyFor(namespace, name), revision === undefined ? {} : { revision });
    } catch (err) {
      throw this.statusError(err, name, 'get');
    }
  }

  /** An object's stored JSON and resourceVersion, undecoded (plain JSON GETs serve the bytes as they are). */
  async getJson(namespace: string, name: string): Promise<{ json: string; resourceVersion: string }> {
    try {
      return await this.storage.getJson(this.keyFor(namespace, name));
    } catch (err) {
      throw this.statusError(err, name, 'get');
    }
  }

  /**
   * The latest object from the watch cache when it has caught up with etcd (consistent reads); undefined when the
   * caller must read etcd (getJson).
   */
  async latestFromCache(namespace: string, name: string): Promise<ApiObject | undefined> {
    try {
      return await this.storage.latestFromCache(this.keyFor(namespace, name));
    } catch (err) {
      throw this.statusError(err, name, 'get');
    }
  }

  /**
   * The latest object as getJson read it: the watch cache's object when it holds the same version (what is kept with
   * it, protobuf bytes, is reused instead of decoding and encoding again), else the stored value decoded.
   */
  latestObject(namespace: string, name: string, stored: { json: string; resourceVersion: string }): ApiObject {
    return (
      this.storage.knownObject(this.keyFor(namespace, name), stored.resourceVersion) ??
      decodeStoredValue(stored.json, stored.resourceVersion)
    );
  }

  /** A listed object, or the watch cache's object of the same version (decoded once, its encodings kept). */
  cachedVersionOf(obj: ApiObject): ApiObject {
    return (
      this.storage.knownObject(
        this.keyFor(obj.metadata.namespace ?? '', obj.metadata.name ?? ''),
        obj.metadata.resourceVersion ?? '',
      ) ?? obj
    );
  }

  /** A raw list item as an object: the watch cache's when it holds that version, else the stored value decoded. */
  rawItemObject(item: RawItem): ApiObject {
    return (
      this.storage.knownObject(item.key, item.resourceVersion) ?? decodeStoredValue(item.value, item.resourceVersion)
    );
  }

  /** `raw`: the caller can serve etcd's stored bytes as they are (plain JSON lists). */
  async list(namespace: string, params: ListParams, raw = false): Promise<ListOutcome> {
    try {
      return await this.storage.getList(this.collectionPrefix(namespace), raw ? { ...params, raw } : params);
    } catch (err) {
      throw this.statusError(err, '', 'list');
    }
  }

  /** A client watch by the resourceVersion table; a start the storage refuses as expired is a 410 ERROR event. */
  async startWatch(
    namespace: string,
    params: Pick<ListParams, 'predicate' | 'resourceVersion' | 'sendInitialEvents'>,
    delivery: WatchDelivery,
  ): Promise<StartedWatch> {
    const request = {
      resourceVersion: params.resourceVersion,
      delivery,
      ...(params.predicate ? { predicate: params.predicate } : {}),
      ...(params.sendInitialEvents !== undefined ? { sendInitialEvents: params.sendInitialEvents } : {}),
    };
    try {
      const started = await this.storage.startWatch(this.collectionPrefix(namespace), request);
      if (started.expired === undefined) return started;
      return { ...started, expired: toStatusError(started.expired, { operation: 'watch' }) };
    } catch (err) {
      throw this.statusError(err, '', 'list');
    }
  }

  /**
   * get by resourceVersion: unset reads etcd (Most Recent); `0` reads the watch cache (Any); N reads the cache
   * once it has reached N, else etcd, waiting up to 3 s for etcd to reach N (then 504).
   */
  async getAtVersion(namespace: string, name: string, resourceVersion: number | undefined): Promise<ApiObject> {
    const key = this.keyFor(namespace, name);
    try {
      return await this.storage.getAtResourceVersion(key, resourceVersion);
    } catch (err) {
      throw this.statusError(err, name, 'get');
    }
  }

  /** Changes in a namespace (or everywhere) after a revision (controllers), from the watch cache where it can. */
  watch(namespace: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle> {
    return this.storage.watch(this.collectionPrefix(namespace), afterRevision, sink);
  }

  protected statusError(
    err: unknown,
    name: string,
    operation: Parameters<typeof toStatusError>[1]['operation'],
  ): Error {
    return toStatusError(err, { resource: groupResource(this.definition), name, operation });
  }
}

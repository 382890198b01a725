// CachedStorage: a resource's storage with its watch cache in front, as upstream's cacher is a storage.Interface.
// Reads by resourceVersion (get, list, client and controller watches) are answered from the cache where Kubernetes'
// cacher would answer them, and from the wrapped storage otherwise; writes, and the reads inside writes, go to the
// wrapped storage unchanged.
import type { ApiObject } from '../../apimachinery/meta/types';
import { ForwardingStorage } from '../forwarding-storage';
import type { ListPage, ListRequest, StartedWatch, Storage, WatchHandle, WatchRequest, WatchSink } from '../storage';
import { StorageError } from '../storage-error';
import { getFromStorage, listFromStorage } from '../versioned-reads';
import { Cacher, type CacherOptions } from './cacher';
import { startCachedWatch } from './cached-watch';
import { sinkDelivery } from './sink-delivery';

/**
 * Whether the watch cache answers this list, as kube-apiserver's cacher decides: `resourceVersion=0` (limit
 * ignored) and Not-older-than without limit; Most Recent, Exact and continuations read etcd.
 */
function servedFromCache(request: ListRequest): boolean {
  if (request.continueToken !== '' || request.resourceVersion === undefined) return false;
  if (request.resourceVersion === 0) return true;
  return request.resourceVersionMatch !== 'Exact' && request.limit === 0;
}

/** A Most Recent list the cache may answer consistently (ConsistentListFromCache: limits and continuations read etcd). */
function consistentFromCache(request: ListRequest): boolean {
  return request.resourceVersion === undefined && request.continueToken === '' && request.limit === 0;
}

export class CachedStorage extends ForwardingStorage {
  /** The watch cache (started and stopped by the server; metrics and APF read its counts). */
  readonly cacher: Cacher;

  /** `storage` is the resource's plain storage: the cache is filled from it and it answers what the cache cannot. */
  constructor(storage: Storage, options: Omit<CacherOptions, 'storage'>) {
    super(storage);
    this.cacher = new Cacher({ ...options, storage });
  }

  /**
   * get by resourceVersion: unset reads etcd (Most Recent) unless consistent reads from the cache are on and it has
   * caught up; `0` reads the cache (Any); N reads the cache once it has reached N, else etcd, waiting for N there.
   */
  override async getAtResourceVersion(key: string, resourceVersion: number | undefined): Promise<ApiObject> {
    const cacher = this.cacher;
    const fromCache =
      resourceVersion === undefined
        ? await cacher.caughtUpWithEtcd()
        : (await cacher.waitReady()) && cacher.revision >= resourceVersion;
    if (!fromCache) return getFromStorage(this.inner, key, resourceVersion);
    const cached = cacher.get(key);
    if (cached === undefined) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
    return cached;
  }

  override async latestFromCache(key: string): Promise<ApiObject | undefined> {
    if (!(await this.cacher.caughtUpWithEtcd())) return undefined;
    const cached = this.cacher.get(key);
    if (cached === undefined) throw new StorageError('KeyNotFound', key, `key not found: ${key}`);
    return cached;
  }

  override async getList(prefix: string, request: ListRequest): Promise<ListPage> {
    const cacher = this.cacher;
    // Most Recent without limit or continue: from the cache once it has caught up with etcd (KEP-2340).
    if (consistentFromCache(request) && (await cacher.caughtUpWithEtcd())) return this.#listCache(prefix, request);
    // A cache behind the requested revision leaves it to etcd (which waits for it, then answers 504).
    if (servedFromCache(request) && (await cacher.waitReady()) && cacher.revision >= (request.resourceVersion ?? 0))
      return this.#listCache(prefix, request);
    return listFromStorage(
      this.inner,
      prefix,
      request,
      cacher.ready ? (key, resourceVersion) => this.knownObject(key, resourceVersion) : undefined,
    );
  }

  async #listCache(prefix: string, request: ListRequest): Promise<ListPage> {
    await this.cacher.decoded(prefix);
    const listed = this.cacher.list(prefix, request.predicate);
    return { items: listed.items, resourceVersion: String(listed.revision), fromCache: true };
  }

  override startWatch(prefix: string, request: WatchRequest): Promise<StartedWatch> {
    return startCachedWatch({ storage: this.inner, cacher: this.cacher, prefix }, request);
  }

  /**
   * Changes under `prefix` after a revision (controllers): from the watch cache when its window reaches back to
   * `afterRevision`, else straight from etcd.
   */
  override async watch(prefix: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle> {
    if (await this.cacher.waitReady()) {
      const started = this.cacher.watch({ prefix, delivery: sinkDelivery(sink), internal: true }, afterRevision);
      if (started.kind === 'started') return { cancel: async () => started.watch.stop() };
    }
    return this.inner.watch(prefix, afterRevision, sink);
  }

  /** The watch cache's object at `key` when it is exactly `resourceVersion` (same stored bytes, decoded once). */
  override knownObject(key: string, resourceVersion: string): ApiObject | undefined {
    const cached = this.cacher.get(key);
    return cached?.metadata.resourceVersion === resourceVersion ? cached : undefined;
  }
}

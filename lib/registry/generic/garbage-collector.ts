// The garbage collector, in-process: the `orphan` finalizer (dependents lose their ownerReference to the object),
// `foregroundDeletion` (dependents are deleted first, the owner waits for those with blockOwnerDeletion), and background
// collection (a dependent none of whose owners exists any more, checked live, is deleted).
import type { Logger } from 'pino';
import { StatusError } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { WatchHandle } from '../../storage/storage';
import { WorkQueue } from '../rest/work-queue';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from './deletion';
import { attemptToDelete, DependentsIndex } from './dependents';
import { LIST_EVERYTHING } from './list';
import type { GenericStore } from './store';

const RESYNC_INTERVAL_MS = 10_000;
const DEPENDENTS_REMAINING_RECHECK_MS = 1000;

function isGcPending(obj: ApiObject): boolean {
  const finalizers = obj.metadata.finalizers ?? [];
  return Boolean(obj.metadata.deletionTimestamp) && (finalizers.includes(FINALIZER_ORPHAN) || finalizers.includes(FINALIZER_FOREGROUND));
}

function ownedBy(obj: ApiObject, uid: string): boolean {
  return (obj.metadata.ownerReferences ?? []).some((ref) => ref.uid === uid);
}

function blocksOwner(obj: ApiObject, uid: string): boolean {
  return (obj.metadata.ownerReferences ?? []).some((ref) => ref.uid === uid && ref.blockOwnerDeletion === true);
}

/** Queue keys: `owner:` syncs an owner's finalizers, `dependent:` checks a dependent's owners. */
const OWNER = 'owner:';
const DEPENDENT = 'dependent:';

function ignoreNotFound(err: unknown): void {
  if (!(err instanceof StatusError && err.code === 404)) throw err;
}

export class GarbageCollector {
  readonly #stores: GenericStore[];
  readonly #log: Logger;
  /** The watch of each store (by index) while it runs; a store without one is listed at the next resync. */
  readonly #watches = new Map<number, WatchHandle>();
  #timer: NodeJS.Timeout | undefined;
  #stopped = false;
  #resyncing = false;
  readonly #index = new DependentsIndex();
  /** Indexes of the first store of each storage (versions of one kind share it): the ones the graph follows. */
  readonly #primary: Set<number>;
  readonly #queue = new WorkQueue(
    (key) => this.#sync(key),
    (key, err) => this.#log.warn({ err, object: key }, 'garbage collection failed; will retry'),
    () => this.#stopped,
  );

  /** `stores` are the main stores of every served resource (owners and dependents may be of any kind). */
  constructor(stores: GenericStore[], log: Logger) {
    this.#stores = stores;
    this.#log = log;
    const seen = new Set<string>();
    this.#primary = new Set(stores.flatMap((store, i) => (seen.has(store.keyPrefix) ? [] : (seen.add(store.keyPrefix), [i]))));
  }

  start(): void {
    this.#timer = setInterval(() => void this.#resync(), RESYNC_INTERVAL_MS);
    this.#timer.unref();
    void this.#resync();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    const watches = [...this.#watches.values()];
    this.#watches.clear();
    await Promise.all(watches.map((w) => w.cancel()));
  }

  /**
   * Lists each resource without a running watch for pending objects, then watches it (both through the watch
   * cache when there is one), like an informer: a resource is listed again only after its watch ended.
   */
  async #resync(): Promise<void> {
    if (this.#resyncing) return;
    this.#resyncing = true;
    try {
      await this.#listAndWatchUnwatched();
    } finally {
      this.#resyncing = false;
    }
  }

  async #listAndWatchUnwatched(): Promise<void> {
    for (const [index, store] of this.#stores.entries()) {
      if (this.#watches.has(index) || this.#stopped) continue;
      try {
        const { items, resourceVersion } = await store.list('', { ...LIST_EVERYTHING, resourceVersion: 0 });
        this.#queue.add(...items.filter(isGcPending).map((o) => OWNER + this.#key(index, o)));
        for (const item of items) this.#observe(index, item, false);
        let ended = false;
        const watch = await store.watch('', Number(resourceVersion), {
          event: (event) => {
            if (event.type !== 'DELETED' && isGcPending(event.object)) this.#queue.add(OWNER + this.#key(index, event.object));
            if (event.type === 'ADDED' || event.type === 'MODIFIED' || event.type === 'DELETED') this.#observe(index, event.object, event.type === 'DELETED');
          },
          error: (err) => {
            this.#log.warn({ err }, 'garbage collector watch ended; the next resync lists and watches again');
            ended = true;
            this.#watches.delete(index);
          },
        });
        if (this.#stopped) await watch.cancel();
        else if (!ended) this.#watches.set(index, watch);
      } catch (err) {
        this.#log.warn({ err }, 'garbage collector resync failed');
      }
    }
  }

  #key(index: number, obj: ApiObject): string {
    return `${index}/${obj.metadata.namespace ?? ''}/${obj.metadata.name ?? ''}`;
  }

  /** Feeds the dependents graph: a dependent is checked when seen; a deleted owner's dependents are checked. */
  #observe(index: number, obj: ApiObject, deleted: boolean): void {
    if (!this.#primary.has(index)) return;
    const key = this.#key(index, obj);
    this.#index.observe(key, deleted ? undefined : obj);
    if (!deleted && (obj.metadata.ownerReferences ?? []).length > 0) this.#queue.add(DEPENDENT + key);
    if (deleted && obj.metadata.uid) this.#queue.add(...this.#index.dependentsOf(obj.metadata.uid).map((k) => DEPENDENT + k));
  }

  async #sync(queued: string): Promise<void> {
    if (queued.startsWith(DEPENDENT)) return this.#syncDependent(queued.slice(DEPENDENT.length));
    return this.#syncOwner(queued.slice(OWNER.length));
  }

  async #syncDependent(key: string): Promise<void> {
    const [indexText, namespace = '', name = ''] = key.split('/');
    const store = this.#stores[Number(indexText)];
    if (!store) return;
    const outcome = await attemptToDelete(this.#stores, store, namespace, name);
    if (outcome !== 'kept') this.#log.info({ name, namespace, resource: store.definition.resource, outcome }, 'garbage collector collected a dependent whose owner is gone');
  }

  async #syncOwner(key: string): Promise<void> {
    const [indexText, namespace = '', name = ''] = key.split('/');
    const store = this.#stores[Number(indexText)];
    if (!store) return;
    let owner: ApiObject;
    try {
      owner = await store.get(namespace, name);
    } catch (err) {
      return ignoreNotFound(err);
    }
    if (!isGcPending(owner) || !owner.metadata.uid) return;
    const uid = owner.metadata.uid;
    // Dependents share the owner's namespace; a cluster-scoped owner may own objects anywhere.
    const scope = store.namespaced ? namespace : '';
    const finalizers = owner.metadata.finalizers ?? [];
    if (finalizers.includes(FINALIZER_ORPHAN)) {
      await this.#forEachDependent(scope, uid, (dep, depStore) =>
        depStore.patch(dep.metadata.namespace ?? '', dep.metadata.name ?? '', (cur) => ({ ...cur, metadata: { ...cur.metadata, ownerReferences: (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid) } }), { dryRun: false }),
      );
      await this.#removeFinalizer(store, owner, FINALIZER_ORPHAN);
      return;
    }
    let remaining = 0;
    await this.#forEachDependent(scope, uid, async (dep, depStore) => {
      // the owner waits only for dependents whose reference has blockOwnerDeletion (as upstream)
      if (blocksOwner(dep, uid)) remaining++;
      if (!dep.metadata.deletionTimestamp) await depStore.delete(dep.metadata.namespace ?? '', dep.metadata.name ?? '', { propagationPolicy: 'Foreground' }, { dryRun: false });
    });
    if (remaining > 0) {
      setTimeout(() => this.#queue.add(OWNER + key), DEPENDENTS_REMAINING_RECHECK_MS).unref();
      return;
    }
    await this.#removeFinalizer(store, owner, FINALIZER_FOREGROUND);
  }

  async #forEachDependent(namespace: string, uid: string, action: (dep: ApiObject, store: GenericStore) => Promise<unknown>): Promise<void> {
    for (const depStore of this.#stores) {
      const { items } = await depStore.list(depStore.namespaced ? namespace : '', LIST_EVERYTHING);
      for (const dep of items.filter((o) => ownedBy(o, uid))) await action(dep, depStore).catch(ignoreNotFound);
    }
  }

  async #removeFinalizer(store: GenericStore, owner: ApiObject, finalizer: string): Promise<void> {
    await store
      .patch(owner.metadata.namespace ?? '', owner.metadata.name ?? '', (cur) => ({ ...cur, metadata: { ...cur.metadata, finalizers: (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer) } }), { dryRun: false })
      .catch(ignoreNotFound);
    this.#log.info({ name: owner.metadata.name, namespace: owner.metadata.namespace, finalizer }, 'garbage collector finalizer removed');
  }
}

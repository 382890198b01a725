// The garbage collector, in-process: the `orphan` finalizer (dependents lose their ownerReference to the object),
// `foregroundDeletion` (dependents are deleted first, the owner waits for those with blockOwnerDeletion), and background
// collection (a dependent none of whose owners exists any more, checked live, is deleted).
import type { Logger } from 'pino';
import { StatusError } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { WorkQueue } from '../../controllers/work-queue';
import { Informer } from '../../controllers/informer';
import { FINALIZER_FOREGROUND, FINALIZER_ORPHAN } from './deletion';
import { attemptToDelete, DependentsIndex } from './dependents';
import { LIST_EVERYTHING } from './list';
import type { GenericStore } from './store';

const DEPENDENTS_REMAINING_RECHECK_MS = 1000;

/** (deletionTimestamp first: an object not being deleted, nearly every one, needs no finalizers decoded.) */
function isGcPending(obj: ApiObject): boolean {
  if (!obj.metadata.deletionTimestamp) return false;
  const finalizers = obj.metadata.finalizers ?? [];
  return finalizers.includes(FINALIZER_ORPHAN) || finalizers.includes(FINALIZER_FOREGROUND);
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
  /** One informer per store (by index), listing through the watch cache. */
  readonly #informers: Informer[];
  #stopped = false;
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
    this.#primary = new Set(
      stores.flatMap((store, i) => (seen.has(store.keyPrefix) ? [] : (seen.add(store.keyPrefix), [i]))),
    );
    this.#informers = stores.map((store, index) => {
      const informer = new Informer(store, { log, resource: store.definition.resource, listResourceVersion: 0 });
      const present = (obj: ApiObject): void => {
        if (isGcPending(obj)) this.#queue.add(OWNER + this.#key(index, obj));
        this.#observe(index, obj, false);
      };
      informer.addHandler({
        add: present,
        update: (_old, obj) => present(obj),
        delete: (obj) => this.#observe(index, obj, true),
      });
      return informer;
    });
  }

  /** Starts the informers one resource at a time (each lists, then watches; a watch that ends is resumed or re-listed). */
  start(): void {
    void (async () => {
      for (const informer of this.#informers) {
        if (this.#stopped) return;
        await informer.start();
      }
    })();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#informers.map((informer) => informer.stop()));
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
    if (deleted && obj.metadata.uid)
      this.#queue.add(...this.#index.dependentsOf(obj.metadata.uid).map((k) => DEPENDENT + k));
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
    if (outcome !== 'kept')
      this.#log.info(
        { name, namespace, resource: store.definition.resource, outcome },
        'garbage collector collected a dependent whose owner is gone',
      );
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
        depStore.patch(
          dep.metadata.namespace ?? '',
          dep.metadata.name ?? '',
          (cur) => ({
            ...cur,
            metadata: {
              ...cur.metadata,
              ownerReferences: (cur.metadata.ownerReferences ?? []).filter((r) => r.uid !== uid),
            },
          }),
          { dryRun: false },
        ),
      );
      await this.#removeFinalizer(store, owner, FINALIZER_ORPHAN);
      return;
    }
    let remaining = 0;
    await this.#forEachDependent(scope, uid, async (dep, depStore) => {
      // the owner waits only for dependents whose reference has blockOwnerDeletion (as upstream)
      if (blocksOwner(dep, uid)) remaining++;
      if (!dep.metadata.deletionTimestamp)
        await depStore.delete(
          dep.metadata.namespace ?? '',
          dep.metadata.name ?? '',
          { propagationPolicy: 'Foreground' },
          { dryRun: false },
        );
    });
    if (remaining > 0) {
      setTimeout(() => this.#queue.add(OWNER + key), DEPENDENTS_REMAINING_RECHECK_MS).unref();
      return;
    }
    await this.#removeFinalizer(store, owner, FINALIZER_FOREGROUND);
  }

  async #forEachDependent(
    namespace: string,
    uid: string,
    action: (dep: ApiObject, store: GenericStore) => Promise<unknown>,
  ): Promise<void> {
    for (const depStore of this.#stores) {
      const { items } = await depStore.list(depStore.namespaced ? namespace : '', LIST_EVERYTHING);
      for (const dep of items.filter((o) => ownedBy(o, uid))) await action(dep, depStore).catch(ignoreNotFound);
    }
  }

  async #removeFinalizer(store: GenericStore, owner: ApiObject, finalizer: string): Promise<void> {
    await store
      .patch(
        owner.metadata.namespace ?? '',
        owner.metadata.name ?? '',
        (cur) => ({
          ...cur,
          metadata: { ...cur.metadata, finalizers: (cur.metadata.finalizers ?? []).filter((f) => f !== finalizer) },
        }),
        { dryRun: false },
      )
      .catch(ignoreNotFound);
    this.#log.info(
      { name: owner.metadata.name, namespace: owner.metadata.namespace, finalizer },
      'garbage collector finalizer removed',
    );
  }
}

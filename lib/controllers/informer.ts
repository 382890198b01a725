// The shared informer of the in-process controllers and caches (client-go's Reflector + SharedIndexInformer, in our
// words): lists a resource, then watches it from the list's revision (through the watch cache where the store has
// one), keeps the current objects by key, tells registered handlers about each add, update and delete, replays the
// store to them periodically (resync), and after a watch ends re-watches from the last revision seen, or re-lists
// with backoff when that revision is compacted (410 Gone) or the watch cannot start.
import type { Logger } from 'pino';
import { StatusError } from '../apimachinery/errors';
import type { ApiObject } from '../apimachinery/meta/types';
import { LIST_EVERYTHING, type ListOutcome, type ListParams } from '../registry/generic/list';
import { isStorageError } from '../storage/storage-error';
import type { WatchHandle, WatchSink } from '../storage/storage';

const RELIST_MIN_DELAY_MS = 100;
const RELIST_MAX_DELAY_MS = 2000;

/** What an informer needs of a resource: list and watch everywhere (GenericStore has both). */
export interface ListerWatcher {
  list(namespace: string, params: ListParams): Promise<ListOutcome>;
  watch(namespace: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle>;
}

/** Told about changes of the informer's objects; the store already holds the new state when a handler runs. */
export interface InformerHandler {
  add?(obj: ApiObject): void;
  /** Also called at each resync with `old === obj` for every stored object. */
  update?(old: ApiObject, obj: ApiObject): void;
  delete?(obj: ApiObject): void;
  /** Called once, after the adds of the first list (also when it was empty). */
  synced?(): void;
}

export interface InformerOptions {
  log: Logger;
  /** For logs. */
  resource?: string;
  /** `0`: the list is served by the watch cache (resourceVersion=0); unset: read from etcd. */
  listResourceVersion?: 0;
  /** Every this often, each handler's update is called for every stored object (0 or unset: never). */
  resyncPeriodMs?: number;
  /** Longest wait between attempts after failures (doubling from 100 ms); default 2 s. */
  maxBackoffMs?: number;
}

/** `name`, or `namespace/name` for a namespaced object. */
export function objectKey(obj: ApiObject): string {
  const ns = obj.metadata.namespace ?? '';
  return ns === '' ? (obj.metadata.name ?? '') : `${ns}/${obj.metadata.name ?? ''}`;
}

/** A handler calling `changed` on any change (caches that rebuild a derived view). */
export function onAnyChange(changed: () => void): InformerHandler {
  return { add: changed, update: (old, obj) => old !== obj && changed(), delete: changed, synced: changed };
}

function isGone(err: unknown): boolean {
  return isStorageError(err, 'Compacted') || (err instanceof StatusError && err.code === 410);
}

export class Informer {
  readonly #objects = new Map<string, ApiObject>();
  readonly #handlers = new Set<InformerHandler>();
  /** The handlers as an array (#notify's snapshot), made again after one is added or removed. */
  #handlerList: InformerHandler[] | undefined;
  readonly #source: ListerWatcher;
  readonly #options: InformerOptions;
  #synced = false;
  #started: Promise<void> | undefined;
  #watch: WatchHandle | undefined;
  /** The revision the store reflects (list revision, then each event's): a re-watch resumes after it. */
  #revision = 0;
  #generation = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #resyncTimer: NodeJS.Timeout | undefined;
  #failures = 0;
  #stopped = false;

  constructor(source: ListerWatcher, options: InformerOptions) {
    this.#source = source;
    this.#options = options;
  }

  /** The current objects by key (`name`, or `namespace/name`), as last listed or watched. */
  get objects(): ReadonlyMap<string, ApiObject> {
    return this.#objects;
  }

  get(key: string): ApiObject | undefined {
    return this.#objects.get(key);
  }

  /** True once the first list was stored and handed to the handlers. */
  hasSynced(): boolean {
    return this.#synced;
  }

  /** Registers a handler (a synced informer tells it about the stored objects as adds first); returns its removal. */
  addHandler(handler: InformerHandler): () => void {
    this.#handlers.add(handler);
    this.#handlerList = undefined;
    if (this.#synced) {
      for (const obj of this.#objects.values()) handler.add?.(obj);
      handler.synced?.();
    }
    return () => {
      this.#handlers.delete(handler);
      this.#handlerList = undefined;
    };
  }

  /** Lists and watches (once); resolves after the first attempt, whose failure is retried with backoff. */
  start(): Promise<void> {
    if (this.#started) return this.#started;
    const period = this.#options.resyncPeriodMs ?? 0;
    if (period > 0) {
      this.#resyncTimer = setInterval(() => this.resync(), period);
      this.#resyncTimer.unref();
    }
    this.#started = this.#relist();
    return this.#started;
  }

  /** Calls every handler's update for every stored object now (what the periodic resync does). */
  resync(): void {
    if (this.#stopped || !this.#synced) return;
    for (const obj of [...this.#objects.values()]) this.#notify((h) => h.update?.(obj, obj));
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#generation++;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    if (this.#resyncTimer) clearInterval(this.#resyncTimer);
    await this.#cancelWatch();
  }

  async #relist(): Promise<void> {
    if (this.#stopped) return;
    const generation = ++this.#generation;
    void this.#cancelWatch();
    try {
      const params =
        this.#options.listResourceVersion === 0 ? { ...LIST_EVERYTHING, resourceVersion: 0 } : LIST_EVERYTHING;
      const { items, resourceVersion } = await this.#source.list('', params);
      if (this.#stale(generation)) return;
      this.#replace(items);
      this.#revision = Number(resourceVersion);
      await this.#startWatch(generation);
    } catch (err) {
      if (this.#stale(generation)) return;
      this.#options.log.warn({ err, resource: this.#options.resource }, 'informer list failed; retrying');
      this.#retry(() => this.#relist());
    }
  }

  /** Stores a fresh list: adds, updates (changed resourceVersion only) and deletes against what was stored. */
  #replace(items: ApiObject[]): void {
    const listed = new Map(items.map((item) => [objectKey(item), item]));
    const previous = new Map(this.#objects);
    this.#objects.clear();
    for (const [key, obj] of listed) this.#objects.set(key, obj);
    const wasSynced = this.#synced;
    this.#synced = true;
    for (const [key, obj] of listed) {
      const old = previous.get(key);
      if (!old) this.#notify((h) => h.add?.(obj));
      else if (old.metadata.resourceVersion !== obj.metadata.resourceVersion) this.#notify((h) => h.update?.(old, obj));
    }
    for (const [key, old] of previous) if (!listed.has(key)) this.#notify((h) => h.delete?.(old));
    if (!wasSynced) this.#notify((h) => h.synced?.());
  }

  async #startWatch(generation: number): Promise<void> {
    const watch = await this.#source.watch('', this.#revision, {
      event: (event) => {
        if (this.#stale(generation)) return;
        this.#revision = Math.max(this.#revision, event.revision);
        const key = objectKey(event.object);
        const old = this.#objects.get(key);
        if (event.type === 'DELETED') {
          this.#objects.delete(key);
          const last = old ?? event.object;
          this.#notify((h) => h.delete?.(last));
          return;
        }
        this.#objects.set(key, event.object);
        if (old) this.#notify((h) => h.update?.(old, event.object));
        else this.#notify((h) => h.add?.(event.object));
      },
      error: (err) => {
        if (this.#stale(generation)) return;
        this.#watch = undefined;
        const gone = isGone(err);
        this.#options.log.warn(
          { err, resource: this.#options.resource },
          gone ? 'informer watch too old; re-listing' : 'informer watch ended; watching again',
        );
        this.#retry(() => (gone ? this.#relist() : this.#rewatch()));
      },
    });
    if (this.#stale(generation)) {
      await watch.cancel().catch(() => undefined);
      return;
    }
    this.#watch = watch;
    this.#failures = 0;
  }

  /** Resumes after the last revision seen; a watch that cannot start is replaced by a re-list. */
  async #rewatch(): Promise<void> {
    if (this.#stopped) return;
    const generation = ++this.#generation;
    try {
      await this.#startWatch(generation);
    } catch (err) {
      if (this.#stale(generation)) return;
      this.#options.log.warn({ err, resource: this.#options.resource }, 'informer watch could not start; re-listing');
      this.#retry(() => this.#relist());
    }
  }

  #notify(call: (handler: InformerHandler) => void): void {
    for (const handler of (this.#handlerList ??= [...this.#handlers])) {
      try {
        call(handler);
      } catch (err) {
        this.#options.log.error({ err, resource: this.#options.resource }, 'informer handler failed');
      }
    }
  }

  #stale(generation: number): boolean {
    return this.#stopped || generation !== this.#generation;
  }

  async #cancelWatch(): Promise<void> {
    const watch = this.#watch;
    this.#watch = undefined;
    await watch?.cancel().catch(() => undefined);
  }

  #retry(attempt: () => Promise<void>): void {
    if (this.#stopped || this.#retryTimer) return;
    const delay = Math.min(
      this.#options.maxBackoffMs ?? RELIST_MAX_DELAY_MS,
      RELIST_MIN_DELAY_MS * 2 ** this.#failures++,
    );
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void attempt();
    }, delay);
    this.#retryTimer.unref();
  }
}

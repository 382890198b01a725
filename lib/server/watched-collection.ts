// A resource kept in memory from a list and then an etcd watch (re-listing with backoff when the watch ends):
// the informer of the in-process consumers (APF classifier, RBAC authorizer).
import type { Logger } from 'pino';
import type { ApiObject } from '../apimachinery/meta/types';
import type { GenericStore } from '../registry/generic/store';
import { LIST_EVERYTHING } from '../registry/generic/list';
import type { WatchHandle } from '../storage/storage';

const RELIST_MIN_DELAY_MS = 100;
const RELIST_MAX_DELAY_MS = 2000;

/** `name`, or `namespace/name` for a namespaced object. */
export function objectKey(obj: ApiObject): string {
  const ns = obj.metadata.namespace ?? '';
  return ns === '' ? (obj.metadata.name ?? '') : `${ns}/${obj.metadata.name ?? ''}`;
}

/** One watched resource: its objects by key (`name`, or `namespace/name` for namespaced kinds), and the list+watch that keeps them. */
export class WatchedCollection {
  readonly objects = new Map<string, ApiObject>();
  loaded = false;
  #watch: WatchHandle | undefined;
  #generation = 0;
  #retryTimer: NodeJS.Timeout | undefined;
  #failures = 0;
  #stopped = false;

  readonly #store: GenericStore;
  readonly #log: Logger;
  readonly #changed: () => void;

  constructor(store: GenericStore, log: Logger, changed: () => void) {
    this.#store = store;
    this.#log = log;
    this.#changed = changed;
  }

  /** Lists, then watches from the list's revision; on failure retries with backoff. Resolves after the first attempt. */
  async sync(): Promise<void> {
    if (this.#stopped) return;
    const generation = ++this.#generation;
    void this.#cancelWatch();
    try {
      const { items, resourceVersion } = await this.#store.list('', LIST_EVERYTHING);
      if (this.#stale(generation)) return;
      this.objects.clear();
      for (const item of items) this.objects.set(objectKey(item), item);
      this.loaded = true;
      this.#changed();
      const watch = await this.#store.watch('', Number(resourceVersion), {
        event: (event) => {
          if (this.#stale(generation)) return;
          const key = objectKey(event.object);
          if (event.type === 'DELETED') this.objects.delete(key);
          else this.objects.set(key, event.object);
          this.#changed();
        },
        error: (err) => {
          if (this.#stale(generation)) return;
          this.#log.warn({ err, resource: this.#store.definition.resource }, 'cached collection watch ended; re-listing');
          void this.#cancelWatch();
          this.#scheduleRetry();
        },
      });
      if (this.#stale(generation)) {
        await watch.cancel().catch(() => undefined);
        return;
      }
      this.#watch = watch;
      this.#failures = 0;
    } catch (err) {
      if (this.#stale(generation)) return;
      this.#log.warn({ err, resource: this.#store.definition.resource }, 'cached collection list failed; retrying');
      this.#scheduleRetry();
    }
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    this.#generation++;
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    await this.#cancelWatch();
  }

  #stale(generation: number): boolean {
    return this.#stopped || generation !== this.#generation;
  }

  async #cancelWatch(): Promise<void> {
    const watch = this.#watch;
    this.#watch = undefined;
    await watch?.cancel().catch(() => undefined);
  }

  #scheduleRetry(): void {
    if (this.#stopped || this.#retryTimer) return;
    const delay = Math.min(RELIST_MAX_DELAY_MS, RELIST_MIN_DELAY_MS * 2 ** this.#failures++);
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      void this.sync();
    }, delay);
    this.#retryTimer.unref();
  }
}

// One client watch registered on a Cacher: what it selects, from which revision, and where events go.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { CachedEvent } from '../../apimachinery/watch/cached-event';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';
import { filterEvent } from '../../apimachinery/watch/transitions';

export class CacheWatcher {
  #sent = 0;

  constructor(
    readonly prefix: string,
    readonly predicate: ((obj: ApiObject) => boolean) | undefined,
    /** Events at or below this revision are already reflected in what the client has. */
    readonly fromRevision: number,
    readonly delivery: WatchDelivery,
    /** An in-process consumer, left out of the client watch metrics. */
    readonly internal = false,
  ) {}

  /** Events delivered so far (metrics). */
  get sent(): number {
    return this.#sent;
  }

  /** A grouped watcher skips batch events up to here (those it got from the window when it started). */
  batchAfter = 0;

  /** The key of the group this watcher can join, or undefined when it must be offered each event itself. */
  get groupKey(): string | undefined {
    const key = this.delivery.shareKey;
    return this.predicate === undefined && key !== undefined && this.delivery.sendBatch !== undefined
      ? `${this.prefix}\n${key}`
      : undefined;
  }

  /** Hands a grouped watcher a batch of events under its prefix (in revision order). */
  offerBatch(events: readonly CachedEvent[]): void {
    const after = Math.max(this.fromRevision, this.batchAfter);
    const first = events[0];
    if (first === undefined) return;
    const fresh = first.revision > after ? events : events.filter((e) => e.revision > after);
    if (fresh.length === 0) return;
    try {
      this.delivery.sendBatch?.(fresh);
    } catch (err) {
      // An event whose stored value cannot be decoded (it is decoded when first read) ends this watch as a read of it
      // fails; the other watchers and the cache go on.
      this.delivery.fail(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    this.#sent += fresh.length;
  }

  /** Queues the event if this watcher selects it; true when something was queued. */
  offer(event: CachedEvent): boolean {
    if (event.revision <= this.fromRevision || !event.key.startsWith(this.prefix)) return false;
    try {
      const out = filterEvent(event, this.predicate);
      if (out === undefined) return false;
      this.delivery.send(out.type, out.object, out.object === event.object ? event : undefined);
    } catch (err) {
      this.delivery.fail(err instanceof Error ? err : new Error(String(err)));
      return false;
    }
    this.#sent++;
    return true;
  }
}

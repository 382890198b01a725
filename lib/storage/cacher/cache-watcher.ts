// One client watch registered on a Cacher: what it selects, from which revision, and where events go.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { CachedEvent } from './cached-event';
import { filterEvent } from './transitions';

/** Implemented by the watch endpoint: writes events to one client. Calls never block. */
export interface WatchDelivery {
  /** One event; `source` is the cached event it came from (its encodings are shared by all watchers). */
  send(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: ApiObject, source: CachedEvent | undefined): void;
  /** The end of a batch: write what `send` queued. */
  flush(): void;
  /** A BOOKMARK at `revision` when the client asked for bookmarks (all events up to it were offered). */
  bookmark(revision: number): void;
  /** Ends the stream with an ERROR event carrying this error's Status. */
  fail(err: Error): void;
  /** Ends the stream cleanly, after a BOOKMARK at `revision` when the client asked for bookmarks. */
  end(revision: number): void;
}

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

  /** Queues the event if this watcher selects it; true when something was queued. */
  offer(event: CachedEvent): boolean {
    if (event.revision <= this.fromRevision || !event.key.startsWith(this.prefix)) return false;
    const out = filterEvent(event, this.predicate);
    if (out === undefined) return false;
    this.delivery.send(out.type, out.object, out.object === event.object ? event : undefined);
    this.#sent++;
    return true;
  }
}

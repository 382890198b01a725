// Where a watch's events go: implemented by the watch endpoint (one client's stream) and by in-process consumers;
// the watch cache's fan-out and the direct etcd watch both deliver through it.
import type { ApiObject } from '../meta/types';
import type { CachedEvent } from './cached-event';

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
  /**
   * Deliveries whose bytes for an event depend on the event alone (same form, same version) carry the same key;
   * unfiltered watchers with equal keys form a group that the cacher hands whole batches (`sendBatch`), so a
   * busy fan-out costs one encoding per batch and one write per watcher instead of work per watcher per event.
   */
  readonly shareKey?: string;
  /** The events of one batch, in order, written at once (shared bytes); only called when `shareKey` is set. */
  sendBatch?(events: readonly CachedEvent[]): void;
}

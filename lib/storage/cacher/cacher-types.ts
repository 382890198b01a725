// The cacher's public shapes: client watches on the cache and its statistics.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';

export interface CacheWatchRequest {
  /** Only keys under this prefix (a namespace or the whole resource). */
  prefix: string;
  predicate?: (obj: ApiObject) => boolean;
  delivery: WatchDelivery;
  /** An in-process consumer (controller): not counted as a client watch in the metrics. */
  internal?: boolean;
}

export type CacheWatchStart =
  | { kind: 'started'; watch: CacheWatch; initial: ApiObject[] }
  /** The window no longer holds every event after the requested revision. */
  | { kind: 'too-old'; oldest: number };

export interface CacheWatch {
  /** The cache's revision: every event up to it has been offered to this watch (for bookmarks). */
  readonly revision: number;
  /** Unregisters; `cutOff` when the client was closed for falling behind (metrics). */
  stop(cutOff?: boolean): void;
}

export interface CacherStats {
  watchers: number;
  eventsSent: number;
  windowEvents: number;
  capacity: number;
  initializations: number;
  objects: number;
  slowWatchersClosed: number;
  /** Consistent reads (no resourceVersion) answered from the cache, and those that fell back to etcd. */
  consistentReadsFromCache: number;
  consistentReadsFellBack: number;
}

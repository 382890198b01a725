// Starting a client watch by the resourceVersion table: unset = consistent state then changes, 0 = the cache's
// state then changes, N = changes after N (410 when N is compacted or older than the cache's window).
// Without a watch cache (--watch-cache=false) the same contract is served by a direct etcd watch.
import { resourceExpired } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { Cacher, CacheWatch } from '../../storage/cacher/cacher';
import type { CachedEvent } from '../../storage/cacher/cached-event';
import type { WatchDelivery } from '../../storage/cacher/cache-watcher';
import { filterEvent } from '../../storage/cacher/transitions';
import type { Storage } from '../../storage/storage';
import { isStorageError } from '../../storage/storage-error';

/** How long a Most Recent watch waits for the cache to reach the quorum revision before reading etcd instead. */
const CATCH_UP_WAIT_MS = 50;

export const WATCH_TOO_OLD_TEXT = 'The resourceVersion for the provided watch is too old.';

export interface ClientWatchRequest {
  /** Collection prefix (a namespace or the whole resource). */
  prefix: string;
  predicate?: (obj: ApiObject) => boolean;
  /** undefined: unset; 0: any; N: after N. */
  resourceVersion: number | undefined;
  delivery: WatchDelivery;
}

export interface StartedWatch {
  /** Synthetic ADDED events to write before anything the delivery queued. */
  initial: ApiObject[];
  watch: CacheWatch;
  /**
   * The requested resourceVersion is gone (compacted, or older than the cache's window): like Kubernetes,
   * the answer is a 200 stream with this one ERROR event (410 Expired), not an HTTP error.
   */
  expired?: Error;
}

const NO_WATCH: CacheWatch = { revision: 0, stop: () => undefined };

/** A start that is a 410 Expired ERROR event. */
export function expiredStart(err: Error): StartedWatch {
  return { initial: [], watch: NO_WATCH, expired: err };
}

function tooOld(from: number, oldest: number): Error {
  return resourceExpired(`too old resource version: ${from} (${oldest})`);
}

/** False when etcd has compacted `revision` (compaction is what makes an old resourceVersion expire). */
async function notCompacted(storage: Storage, prefix: string, revision: number): Promise<boolean> {
  try {
    await storage.list(prefix, { revision, limit: 1 });
    return true;
  } catch (err) {
    if (isStorageError(err, 'Compacted')) return false;
    if (isStorageError(err, 'FutureRevision')) return true;
    throw err;
  }
}

export async function startCachedWatch(storage: Storage, cacher: Cacher, request: ClientWatchRequest): Promise<StartedWatch> {
  const rv = request.resourceVersion;
  if (rv !== undefined && rv > 0) {
    if (!(await cacher.waitReady())) throw new Error('watch cache stopped');
    if (rv < cacher.revision && !(await notCompacted(storage, request.prefix, rv))) return expiredStart(resourceExpired(WATCH_TOO_OLD_TEXT));
    const start = cacher.watch(request, rv);
    if (start.kind === 'too-old') return expiredStart(tooOld(rv, start.oldest));
    return { initial: [], watch: start.watch };
  }
  // Most Recent needs a state at least as new as a quorum read; the cache serves it when it is that fresh.
  const quorumRevision = rv === undefined ? await storage.currentRevision() : 0;
  if (!(await cacher.waitReady())) throw new Error('watch cache stopped');
  // Events of this resource up to the quorum revision are usually in flight for a few milliseconds.
  if (cacher.revision < quorumRevision) await cacher.waitForRevision(quorumRevision, CATCH_UP_WAIT_MS);
  if (cacher.revision < quorumRevision) {
    const listed = await storage.list(request.prefix, request.predicate ? { predicate: request.predicate } : {});
    const start = cacher.watch(request, listed.revision);
    if (start.kind === 'started') return { initial: listed.items, watch: start.watch };
    // The cache re-listed after our read: its own state is newer still, so serve that.
  }
  const start = cacher.watch(request, undefined);
  if (start.kind === 'too-old') throw tooOld(0, start.oldest); // not reached: a state start has no history to miss
  return { initial: start.initial, watch: start.watch };
}

/** The same contract straight from an etcd watch (no cache). */
export async function startDirectWatch(storage: Storage, request: ClientWatchRequest): Promise<StartedWatch> {
  let initial: ApiObject[] = [];
  let revision: number;
  if (request.resourceVersion === undefined || request.resourceVersion === 0) {
    const listed = await storage.list(request.prefix, request.predicate ? { predicate: request.predicate } : {});
    initial = listed.items;
    revision = listed.revision;
  } else {
    revision = request.resourceVersion;
  }
  let latest = revision;
  const delivery = request.delivery;
  const handle = await storage
    .watch(request.prefix, revision, {
      event: (event) => {
        latest = event.revision;
        const cached: CachedEvent = { ...event, key: '', time: 0 };
        const out = filterEvent(cached, request.predicate);
        if (out === undefined) return;
        delivery.send(out.type, out.object, undefined);
        delivery.flush();
      },
      error: (err) => delivery.fail(isStorageError(err, 'Compacted') ? resourceExpired(WATCH_TOO_OLD_TEXT) : err),
    })
    .catch((err: unknown) => {
      if (isStorageError(err, 'Compacted')) return undefined;
      throw err;
    });
  if (handle === undefined) return expiredStart(resourceExpired(WATCH_TOO_OLD_TEXT));
  return {
    initial,
    watch: {
      get revision() {
        return latest;
      },
      stop: () => void handle.cancel().catch(() => undefined),
    },
  };
}

// Starting a client watch by the resourceVersion table: unset = consistent state then changes, 0 = the cache's
// state then changes, N = changes after N (410 when N is compacted or older than the cache's window).
// Without a watch cache (--watch-cache=false) the same contract is served by a direct etcd watch.
import { resourceExpired } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { Cacher, CacheWatch } from '../../storage/cacher/cacher';
import type { CachedEvent } from '../../apimachinery/watch/cached-event';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';
import { filterEvent } from '../../apimachinery/watch/transitions';
import type { Storage } from '../../storage/storage';
import { isStorageError, StorageError } from '../../storage/storage-error';
import { toStatusError } from './storage-errors';
import { waitForStorageRevision } from './list';

/** How long a Most Recent watch waits for the cache to reach the quorum revision before reading etcd instead. */
const CATCH_UP_WAIT_MS = 50;

const WATCH_TOO_OLD_TEXT = 'The resourceVersion for the provided watch is too old.';

export interface ClientWatchRequest {
  /** Collection prefix (a namespace or the whole resource). */
  prefix: string;
  predicate?: (obj: ApiObject) => boolean;
  /** undefined: unset; 0: any; N: after N. */
  resourceVersion: number | undefined;
  /** Watch-list (KEP-3157): true streams a state at least as new as `resourceVersion` first; false never does. */
  sendInitialEvents?: boolean;
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
  /** Watch-list: the revision of the initial state, announced by a BOOKMARK marking the end of the initial events. */
  initialEventsEnd?: number;
}

/** A watch ended by the storage (the cache re-listed after a compaction): 410 Expired with the storage's message. */
export function watchFailure(err: Error): Error {
  return isStorageError(err, 'Compacted') ? toStatusError(err, { operation: 'watch', expired: err.message }) : err;
}

const NO_WATCH: CacheWatch = { revision: 0, stop: () => undefined };

/** A start that is a 410 Expired ERROR event. */
export function expiredStart(err: Error): StartedWatch {
  return { initial: [], watch: NO_WATCH, expired: err };
}

function tooOld(from: number, oldest: number): Error {
  return resourceExpired(`too old resource version: ${from} (${oldest})`);
}

/** A watch from a compacted revision: 410 Expired. */
function watchExpired(err: StorageError): Error {
  return toStatusError(err, { operation: 'watch', expired: WATCH_TOO_OLD_TEXT });
}

/** Etcd's Compacted error when it has compacted `revision` (compaction is what makes an old resourceVersion expire). */
async function compaction(storage: Storage, prefix: string, revision: number): Promise<StorageError | undefined> {
  try {
    await storage.list(prefix, { revision, limit: 1 });
    return undefined;
  } catch (err) {
    if (isStorageError(err, 'Compacted')) return err;
    if (isStorageError(err, 'FutureRevision')) return undefined;
    throw err;
  }
}

export async function startCachedWatch(
  storage: Storage,
  cacher: Cacher,
  request: ClientWatchRequest,
): Promise<StartedWatch> {
  const rv = request.resourceVersion;
  if (request.sendInitialEvents !== undefined) return startCachedWatchList(storage, cacher, request);
  if (rv !== undefined && rv > 0) return watchAfter(storage, cacher, request, rv);
  const started = await startFromState(storage, cacher, request, rv === undefined);
  return { initial: started.initial, watch: started.watch };
}

/** Changes after `rv`, replayed from the cache's window (410 Expired when it is compacted or no longer held). */
async function watchAfter(
  storage: Storage,
  cacher: Cacher,
  request: ClientWatchRequest,
  rv: number,
): Promise<StartedWatch> {
  if (!(await cacher.waitReady())) throw new Error('watch cache stopped');
  const compacted = rv < cacher.revision ? await compaction(storage, request.prefix, rv) : undefined;
  if (compacted !== undefined) return expiredStart(watchExpired(compacted));
  const start = cacher.watch(request, rv);
  if (start.kind === 'too-old') return expiredStart(tooOld(rv, start.oldest));
  return { initial: [], watch: start.watch };
}

/**
 * The current state as ADDED events, then changes. `atLeast`: the state is at least as new as this revision
 * (a quorum read's when `consistent`); the cache serves it when it is that fresh, etcd otherwise.
 */
async function startFromState(
  storage: Storage,
  cacher: Cacher,
  request: ClientWatchRequest,
  consistent: boolean,
  atLeast = 0,
): Promise<{ initial: ApiObject[]; watch: CacheWatch; revision: number }> {
  // Most Recent needs a state at least as new as a quorum read; the cache serves it when it is that fresh.
  const quorumRevision = consistent ? await storage.currentRevision() : atLeast;
  if (!(await cacher.waitReady())) throw new Error('watch cache stopped');
  // A revision etcd has not reached is waited for (up to ~3 s), then a 504 Too large resource version.
  if (!consistent && cacher.revision < quorumRevision) await waitForStorageRevision(storage, quorumRevision);
  // Events of this resource up to the quorum revision are usually in flight for a few milliseconds.
  if (cacher.revision < quorumRevision) await cacher.waitForRevision(quorumRevision, CATCH_UP_WAIT_MS);
  if (cacher.revision < quorumRevision) {
    const listed = await storage.list(request.prefix, request.predicate ? { predicate: request.predicate } : {});
    const start = cacher.watch(request, listed.revision);
    if (start.kind === 'started') return { initial: listed.items, watch: start.watch, revision: listed.revision };
    // The cache re-listed after our read: its own state is newer still, so serve that.
  }
  const revision = cacher.revision;
  const start = cacher.watch(request, undefined);
  if (start.kind === 'too-old') throw tooOld(0, start.oldest); // not reached: a state start has no history to miss
  return { initial: start.initial, watch: start.watch, revision };
}

/**
 * Watch-list (sendInitialEvents with resourceVersionMatch=NotOlderThan), as the 1.27+ cacher serves it: true sends
 * a state at least as new as the resourceVersion (unset: a consistent one) then an end-of-initial-events
 * BOOKMARK at that state's revision; false starts at that revision without a state.
 */
async function startCachedWatchList(
  storage: Storage,
  cacher: Cacher,
  request: ClientWatchRequest,
): Promise<StartedWatch> {
  const rv = request.resourceVersion;
  if (request.sendInitialEvents === true) {
    const started = await startFromState(storage, cacher, request, rv === undefined, rv ?? 0);
    return { initial: started.initial, watch: started.watch, initialEventsEnd: started.revision };
  }
  if (rv !== undefined && rv > 0) return watchAfter(storage, cacher, request, rv);
  // Like the cacher, "now" is the cache's revision: no state, every change after it.
  if (!(await cacher.waitReady())) throw new Error('watch cache stopped');
  return watchAfter(storage, cacher, request, cacher.revision);
}

/** The same contract straight from an etcd watch (no cache). */
export async function startDirectWatch(storage: Storage, request: ClientWatchRequest): Promise<StartedWatch> {
  let initial: ApiObject[] = [];
  let revision: number;
  let initialEventsEnd: number | undefined;
  const rv = request.resourceVersion;
  const withState = request.sendInitialEvents ?? (rv === undefined || rv === 0);
  if (withState) {
    if (rv !== undefined && rv > 0) await waitForStorageRevision(storage, rv);
    const listed = await storage.list(request.prefix, request.predicate ? { predicate: request.predicate } : {});
    initial = listed.items;
    revision = listed.revision;
    if (request.sendInitialEvents === true) initialEventsEnd = revision;
  } else {
    revision = rv !== undefined && rv > 0 ? rv : await storage.currentRevision();
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
      error: (err) => delivery.fail(isStorageError(err, 'Compacted') ? watchExpired(err) : err),
    })
    .catch((err: unknown) => {
      if (isStorageError(err, 'Compacted')) return err;
      throw err;
    });
  if (handle instanceof StorageError) return expiredStart(watchExpired(handle));
  return {
    initial,
    ...(initialEventsEnd !== undefined ? { initialEventsEnd } : {}),
    watch: {
      get revision() {
        return latest;
      },
      stop: () => void handle.cancel().catch(() => undefined),
    },
  };
}

// Starting a client watch from the watch cache by the resourceVersion table: unset = consistent state then changes,
// 0 = the cache's state then changes, N = changes after N (410 when N is compacted or older than the cache's window).
import type { ApiObject } from '../../apimachinery/meta/types';
import type { ClientWatch, StartedWatch, Storage, WatchRequest } from '../storage';
import { StorageError } from '../storage-error';
import { NO_WATCH } from '../direct-watch';
import { compactionOf, waitForStorageRevision } from '../versioned-reads';
import type { Cacher } from './cacher';

/** How long a Most Recent watch waits for the cache to reach the quorum revision before reading etcd instead. */
const CATCH_UP_WAIT_MS = 50;

/** The cache's window no longer holds every event after `from` (Kubernetes' cacher text). */
function tooOld(prefix: string, from: number, oldest: number): StorageError {
  return new StorageError('Compacted', prefix, `too old resource version: ${from} (${oldest})`, {
    revision: from,
    currentRevision: oldest,
  });
}

function expiredStart(err: StorageError): StartedWatch {
  return { initial: [], watch: NO_WATCH, expired: err };
}

/** A watch under `prefix`: `storage` is the one the cache is filled from (etcd), read where the cache cannot answer. */
export interface CachedWatchSource {
  storage: Storage;
  cacher: Cacher;
  prefix: string;
}

export async function startCachedWatch(source: CachedWatchSource, request: WatchRequest): Promise<StartedWatch> {
  const rv = request.resourceVersion;
  if (request.sendInitialEvents !== undefined) return startCachedWatchList(source, request);
  if (rv !== undefined && rv > 0) return watchAfter(source, request, rv);
  const started = await startFromState(source, request, rv === undefined);
  return { initial: started.initial, watch: started.watch };
}

/** Changes after `rv`, replayed from the cache's window (410 Expired when it is compacted or no longer held). */
async function watchAfter(source: CachedWatchSource, request: WatchRequest, rv: number): Promise<StartedWatch> {
  const { storage, cacher, prefix } = source;
  if (!(await cacher.waitReady())) throw new Error('watch cache stopped');
  const compacted = rv < cacher.revision ? await compactionOf(storage, prefix, rv) : undefined;
  if (compacted !== undefined) return expiredStart(compacted);
  const start = cacher.watch({ ...request, prefix }, rv);
  if (start.kind === 'too-old') return expiredStart(tooOld(prefix, rv, start.oldest));
  return { initial: [], watch: start.watch };
}

/**
 * The current state as ADDED events, then changes. `atLeast`: the state is at least as new as this revision
 * (a quorum read's when `consistent`); the cache serves it when it is that fresh, etcd otherwise.
 */
async function startFromState(
  source: CachedWatchSource,
  request: WatchRequest,
  consistent: boolean,
  atLeast = 0,
): Promise<{ initial: ApiObject[]; watch: ClientWatch; revision: number }> {
  const { storage, cacher, prefix } = source;
  // Most Recent needs a state at least as new as a quorum read; the cache serves it when it is that fresh.
  const quorumRevision = consistent ? await storage.currentRevision() : atLeast;
  if (!(await cacher.waitReady())) throw new Error('watch cache stopped');
  // A revision etcd has not reached is waited for (up to ~3 s), then a 504 Too large resource version.
  if (!consistent && cacher.revision < quorumRevision) await waitForStorageRevision(storage, quorumRevision);
  // Events of this resource up to the quorum revision are usually in flight for a few milliseconds (or those of the
  // other resources that account for the revisions in between).
  if (cacher.revision < quorumRevision) await cacher.reach(quorumRevision, CATCH_UP_WAIT_MS);
  const cacheRequest = { ...request, prefix };
  if (cacher.revision < quorumRevision) {
    const listed = await storage.list(prefix, request.predicate ? { predicate: request.predicate } : {});
    const start = cacher.watch(cacheRequest, listed.revision);
    if (start.kind === 'started') return { initial: listed.items, watch: start.watch, revision: listed.revision };
    // The cache re-listed after our read: its own state is newer still, so serve that.
  }
  await cacher.decoded(prefix);
  const revision = cacher.revision;
  const start = cacher.watch(cacheRequest, undefined);
  if (start.kind === 'too-old') throw tooOld(prefix, 0, start.oldest); // not reached: a state start has no history to miss
  return { initial: start.initial, watch: start.watch, revision };
}

/**
 * Watch-list (sendInitialEvents with resourceVersionMatch=NotOlderThan), as the 1.27+ cacher serves it: true sends
 * a state at least as new as the resourceVersion (unset: a consistent one) then an end-of-initial-events
 * BOOKMARK at that state's revision; false starts at that revision without a state.
 */
async function startCachedWatchList(source: CachedWatchSource, request: WatchRequest): Promise<StartedWatch> {
  const rv = request.resourceVersion;
  if (request.sendInitialEvents === true) {
    const started = await startFromState(source, request, rv === undefined, rv ?? 0);
    return { initial: started.initial, watch: started.watch, initialEventsEnd: started.revision };
  }
  if (rv !== undefined && rv > 0) return watchAfter(source, request, rv);
  // Like the cacher, "now" is the cache's revision: no state, every change after it.
  if (!(await source.cacher.waitReady())) throw new Error('watch cache stopped');
  return watchAfter(source, request, source.cacher.revision);
}

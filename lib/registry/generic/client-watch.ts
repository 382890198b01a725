// A client watch's failures as the client sees them: storage starts the watch (storage/direct-watch.ts, or the watch
// cache's cacher/cached-watch.ts) and reports a resourceVersion it no longer has as a Compacted StorageError.
import { isStorageError } from '../../storage/storage-error';
import { toStatusError } from './storage-errors';

/** A watch ended or refused by the storage (compacted, or the cache re-listed): 410 Expired with Kubernetes' text. */
export function watchFailure(err: Error): Error {
  return isStorageError(err, 'Compacted') ? toStatusError(err, { operation: 'watch' }) : err;
}

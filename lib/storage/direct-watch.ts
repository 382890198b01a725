// A client watch by the resourceVersion table straight from an etcd watch (no watch cache, --watch-cache=false):
// unset and 0 = the current state then changes, N = changes after N; a compacted N is a 410 ERROR event.
import type { ApiObject } from '../apimachinery/meta/types';
import type { CachedEvent } from '../apimachinery/watch/cached-event';
import { filterEvent } from '../apimachinery/watch/transitions';
import type { StartedWatch, WatchRequest } from './storage';
import { isStorageError, StorageError } from './storage-error';
import { waitForStorageRevision, type PlainReads } from './versioned-reads';

export async function startDirectWatch(
  storage: PlainReads,
  prefix: string,
  request: WatchRequest,
): Promise<StartedWatch> {
  let initial: ApiObject[] = [];
  let revision: number;
  let initialEventsEnd: number | undefined;
  const rv = request.resourceVersion;
  const withState = request.sendInitialEvents ?? (rv === undefined || rv === 0);
  if (withState) {
    if (rv !== undefined && rv > 0) await waitForStorageRevision(storage, rv);
    const listed = await storage.list(prefix, request.predicate ? { predicate: request.predicate } : {});
    initial = listed.items;
    revision = listed.revision;
    if (request.sendInitialEvents === true) initialEventsEnd = revision;
  } else {
    revision = rv !== undefined && rv > 0 ? rv : await storage.currentRevision();
  }
  let latest = revision;
  const delivery = request.delivery;
  const handle = await storage
    .watch(prefix, revision, {
      event: (event) => {
        latest = event.revision;
        const cached: CachedEvent = { ...event, key: '', time: 0 };
        const out = filterEvent(cached, request.predicate);
        if (out === undefined) return;
        delivery.send(out.type, out.object, undefined);
        delivery.flush();
      },
      error: (err) => delivery.fail(err),
    })
    .catch((err: unknown) => {
      if (isStorageError(err, 'Compacted')) return err;
      throw err;
    });
  if (handle instanceof StorageError) return { initial: [], watch: NO_WATCH, expired: handle };
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

/** The watch of a start that is only a 410 Expired ERROR event. */
export const NO_WATCH: StartedWatch['watch'] = { revision: 0, stop: () => undefined };

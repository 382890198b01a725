// Reads by Kubernetes' resourceVersion semantics answered from etcd (no watch cache): Most Recent is a quorum read,
// Not older than N waits for etcd to reach N (504 after ~3 s), Exact and continuations read at their revision.
import type { ApiObject } from '../apimachinery/meta/types';
import { decodeContinueToken, encodeContinueToken } from './continue-token';
import type { ListOptions, ListPage, ListRequest, Storage } from './storage';

/** What the reads by resourceVersion need of a plain storage. */
export type PlainReads = Pick<Storage, 'get' | 'list' | 'watch' | 'currentRevision'>;
import { isStorageError, StorageError } from './storage-error';

/** How long a read waits for a resourceVersion newer than etcd's head before answering 504. */
const TOO_LARGE_RV_WAIT_MS = 3000;
const TOO_LARGE_RV_POLL_MS = 100;

const CONTINUE_WITH_RV_TEXT = 'specifying resource version is not allowed when using continue';

/** Objects already decoded elsewhere (the watch cache), by key and resourceVersion (see ListOptions.known). */
export type KnownObjects = NonNullable<ListOptions['known']>;

/** A list from etcd; `known`: objects etcd names that are already decoded (raw lists take them instead of bytes). */
export async function listFromStorage(
  storage: PlainReads,
  prefix: string,
  request: ListRequest,
  known?: KnownObjects,
): Promise<ListPage> {
  const options: ListOptions = {};
  if (request.limit > 0) options.limit = request.limit;
  if (request.predicate) options.predicate = request.predicate;
  else if (request.raw === true) options.raw = true;
  // Serving paths (raw: nothing changes the items) take the values etcd names from the watch cache's objects.
  if (request.raw === true && known !== undefined) options.known = known;
  const rv = request.resourceVersion;

  if (request.continueToken !== '') {
    const position = decodeContinueToken(request.continueToken, prefix);
    // Checked after decoding, as etcd3's GetList does: a bad token is reported first.
    if (rv !== undefined && rv > 0) throw new StorageError('InvalidRequest', prefix, CONTINUE_WITH_RV_TEXT);
    options.startKey = position.startKey;
    if (position.revision > 0) options.revision = position.revision;
    return readPage(storage, prefix, options, request, position.revision > 0);
  }
  if (rv !== undefined && rv > 0) {
    const exact =
      request.resourceVersionMatch === 'Exact' || (request.resourceVersionMatch === '' && request.limit > 0);
    if (exact) {
      options.revision = rv;
      return readPage(storage, prefix, options, request, false);
    }
    return untilRevision(
      rv,
      () => readPage(storage, prefix, options, request, false),
      (page) => Number(page.resourceVersion),
    );
  }
  return readPage(storage, prefix, options, request, false);
}

async function readPage(
  storage: PlainReads,
  prefix: string,
  options: ListOptions,
  request: ListRequest,
  fromToken: boolean,
): Promise<ListPage> {
  try {
    const result = await storage.list(prefix, options);
    const page: ListPage = { items: result.items, resourceVersion: String(result.revision) };
    if (options.known) page.cacheConsulted = true;
    if (result.raw) page.raw = result.raw;
    if (result.lastKey !== undefined) {
      page.continue = encodeContinueToken(prefix, result.lastKey, result.revision);
      if (!request.hasSelector && result.remainingItemCount !== undefined)
        page.remainingItemCount = result.remainingItemCount;
    }
    return page;
  } catch (err) {
    if (isStorageError(err, 'FutureRevision') && options.revision !== undefined) {
      // A revision etcd has not reached yet (Exact, or a token's): wait for it like Not-older-than reads, then 504.
      await waitForStorageRevision(storage, options.revision);
      return readPage(storage, prefix, options, request, fromToken);
    }
    if (fromToken && isStorageError(err, 'Compacted') && options.startKey !== undefined) {
      // Offer to continue from the same key at the latest revision, as Kubernetes does.
      const continueToken = encodeContinueToken(
        prefix,
        options.startKey.endsWith('\u0000') ? options.startKey.slice(0, -1) : options.startKey,
        -1,
      );
      throw new StorageError('Compacted', err.key, err.message, {
        cause: err,
        ...(err.revision !== undefined ? { revision: err.revision } : {}),
        continueToken,
      });
    }
    throw err;
  }
}

/** get by resourceVersion from etcd: unset and 0 read the latest state; N first waits for etcd to reach N. */
export async function getFromStorage(
  storage: PlainReads,
  key: string,
  resourceVersion: number | undefined,
): Promise<ApiObject> {
  if (resourceVersion !== undefined && resourceVersion > 0) await waitForStorageRevision(storage, resourceVersion);
  return storage.get(key);
}

/** Polls `read` until its revision reaches `rv`; TooLargeResourceVersion after ~3 s. */
async function untilRevision<T>(rv: number, read: () => Promise<T>, revisionOf: (t: T) => number): Promise<T> {
  const deadline = Date.now() + TOO_LARGE_RV_WAIT_MS;
  for (;;) {
    const result = await read();
    const current = revisionOf(result);
    if (current >= rv) return result;
    if (Date.now() >= deadline)
      throw new StorageError('TooLargeResourceVersion', '', `Too large resource version: ${rv}, current: ${current}`, {
        revision: rv,
        currentRevision: current,
      });
    await new Promise((r) => setTimeout(r, TOO_LARGE_RV_POLL_MS));
  }
}

/** Waits (up to ~3 s, then TooLargeResourceVersion) until the backing store has reached revision `rv`. */
export async function waitForStorageRevision(storage: PlainReads, rv: number): Promise<void> {
  await untilRevision(
    rv,
    () => storage.currentRevision(),
    (revision) => revision,
  );
}

/** Etcd's Compacted error when it has compacted `revision` (compaction is what makes an old resourceVersion expire). */
export async function compactionOf(
  storage: PlainReads,
  prefix: string,
  revision: number,
): Promise<StorageError | undefined> {
  try {
    await storage.list(prefix, { revision, limit: 1 });
    return undefined;
  } catch (err) {
    if (isStorageError(err, 'Compacted')) return err;
    if (isStorageError(err, 'FutureRevision')) return undefined;
    throw err;
  }
}

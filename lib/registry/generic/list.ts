// List reads: resourceVersion semantics, paging with continue tokens, selectors as a predicate.
import { badRequest, timeout } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import { decodeContinueToken, encodeContinueToken } from '../../storage/continue-token';
import type { ListOptions, RawItem, Storage } from '../../storage/storage';
import { isStorageError } from '../../storage/storage-error';
import type { Cacher } from '../../storage/cacher/cacher';
import { toStatusError } from './storage-errors';

/** How long a list waits for a resourceVersion newer than etcd's head before answering 504. */
const TOO_LARGE_RV_WAIT_MS = 3000;
const TOO_LARGE_RV_POLL_MS = 100;
const TOO_LARGE_RV_RETRY_AFTER_SECONDS = 1;

const CONTINUE_WITH_RV_TEXT = 'specifying resource version is not allowed when using continue';
const CONTINUE_TOO_OLD_INCONSISTENT_TEXT = `The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.`;

/** Already-validated list options (see endpoints/handlers/list-options.ts). */
export interface ListParams {
  predicate?: (obj: ApiObject) => boolean;
  /** A label or field selector was given: no remainingItemCount. */
  hasSelector: boolean;
  limit: number;
  continueToken: string;
  /** Parsed resourceVersion; undefined when unset. */
  resourceVersion?: number;
  resourceVersionMatch: '' | 'Exact' | 'NotOlderThan';
  /** Watch-list (feature gate WatchList): set when the watch carried sendInitialEvents. */
  sendInitialEvents?: boolean;
}

/** Every object, latest state, one page: what controllers list. */
export const LIST_EVERYTHING: Readonly<ListParams> = {
  hasSelector: false,
  limit: 0,
  continueToken: '',
  resourceVersionMatch: '',
};

export interface ListOutcome {
  items: ApiObject[];
  /** The items are the watch cache's objects (not decoded for this request). */
  fromCache?: boolean;
  /** Each item was taken from the watch cache where it held the key at etcd's revision (decoded only where not). */
  cacheConsulted?: boolean;
  /** Stored bytes instead of `items`, when the caller asked for raw items and etcd answered. */
  raw?: RawItem[];
  resourceVersion: string;
  continue?: string;
  remainingItemCount?: number;
}

/**
 * Whether the watch cache answers this list, as kube-apiserver's cacher decides: `resourceVersion=0` (limit
 * ignored) and Not-older-than without limit; Most Recent, Exact and continuations read etcd.
 */
function servedFromCache(params: ListParams): boolean {
  if (params.continueToken !== '' || params.resourceVersion === undefined) return false;
  if (params.resourceVersion === 0) return true;
  return params.resourceVersionMatch !== 'Exact' && params.limit === 0;
}

/** A Most Recent list the cache may answer consistently (ConsistentListFromCache: limits and continuations read etcd). */
function consistentFromCache(params: ListParams): boolean {
  return params.resourceVersion === undefined && params.continueToken === '' && params.limit === 0;
}

/** `raw`: the caller writes JSON and can take etcd's bytes undecoded (only used when nothing needs decoding). */
export async function listObjects(
  storage: Storage,
  prefix: string,
  params: ListParams,
  cacher?: Cacher,
  raw = false,
): Promise<ListOutcome> {
  // Most Recent without limit or continue: from the cache once it has caught up with etcd (KEP-2340).
  if (cacher !== undefined && consistentFromCache(params) && (await cacher.caughtUpWithEtcd())) {
    const listed = cacher.list(prefix, params.predicate);
    return { items: listed.items, resourceVersion: String(listed.revision), fromCache: true };
  }
  if (cacher !== undefined && servedFromCache(params) && (await cacher.waitReady())) {
    // A cache behind the requested revision leaves it to etcd (which waits for it, then answers 504).
    if (cacher.revision >= (params.resourceVersion ?? 0)) {
      const listed = cacher.list(prefix, params.predicate);
      return { items: listed.items, resourceVersion: String(listed.revision), fromCache: true };
    }
  }
  const options: ListOptions = {};
  if (params.limit > 0) options.limit = params.limit;
  if (params.predicate) options.predicate = params.predicate;
  else if (raw) options.raw = true;
  // Serving paths (raw: nothing changes the items) take the values etcd names from the watch cache's objects.
  if (raw && cacher?.ready)
    options.known = (key, resourceVersion) => {
      const cached = cacher.get(key);
      return cached?.metadata.resourceVersion === resourceVersion ? cached : undefined;
    };
  const rv = params.resourceVersion;

  if (params.continueToken !== '') {
    const position = decodeContinueToken(params.continueToken, prefix);
    // Checked after decoding, as etcd3's GetList does: a bad token is reported first.
    if (rv !== undefined && rv > 0) throw badRequest(CONTINUE_WITH_RV_TEXT);
    options.startKey = position.startKey;
    if (position.revision > 0) options.revision = position.revision;
    return readPage(storage, prefix, options, params, position.revision > 0);
  }
  if (rv !== undefined && rv > 0) {
    const exact = params.resourceVersionMatch === 'Exact' || (params.resourceVersionMatch === '' && params.limit > 0);
    if (exact) {
      options.revision = rv;
      return readPage(storage, prefix, options, params, false);
    }
    return waitForRevision(storage, prefix, options, params, rv);
  }
  return readPage(storage, prefix, options, params, false);
}

async function readPage(
  storage: Storage,
  prefix: string,
  options: ListOptions,
  params: ListParams,
  fromToken: boolean,
): Promise<ListOutcome> {
  try {
    const result = await storage.list(prefix, options);
    const outcome: ListOutcome = { items: result.items, resourceVersion: String(result.revision) };
    if (options.known) outcome.cacheConsulted = true;
    if (result.raw) outcome.raw = result.raw;
    if (result.lastKey !== undefined) {
      outcome.continue = encodeContinueToken(prefix, result.lastKey, result.revision);
      if (!params.hasSelector && result.remainingItemCount !== undefined)
        outcome.remainingItemCount = result.remainingItemCount;
    }
    return outcome;
  } catch (err) {
    if (isStorageError(err, 'FutureRevision') && options.revision !== undefined) {
      // A revision etcd has not reached yet (Exact, or a token's): wait for it like Not-older-than reads, then 504.
      await waitForStorageRevision(storage, options.revision);
      return readPage(storage, prefix, options, params, fromToken);
    }
    if (fromToken && isStorageError(err, 'Compacted') && options.startKey !== undefined) {
      // Offer to continue from the same key at the latest revision, as Kubernetes does.
      const inconsistent = encodeContinueToken(
        prefix,
        options.startKey.endsWith('\u0000') ? options.startKey.slice(0, -1) : options.startKey,
        -1,
      );
      throw toStatusError(err, {
        operation: 'list',
        expired: CONTINUE_TOO_OLD_INCONSISTENT_TEXT,
        continueToken: inconsistent,
      });
    }
    throw err;
  }
}

function tooLargeResourceVersion(rv: number, current: number): Error {
  return timeout(`Too large resource version: ${rv}, current: ${current}`, TOO_LARGE_RV_RETRY_AFTER_SECONDS, [
    { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
  ]);
}

/** Polls `read` until its revision reaches `rv`; 504 Too large resource version after ~3 s. */
async function untilRevision<T>(rv: number, read: () => Promise<T>, revisionOf: (t: T) => number): Promise<T> {
  const deadline = Date.now() + TOO_LARGE_RV_WAIT_MS;
  for (;;) {
    const result = await read();
    const current = revisionOf(result);
    if (current >= rv) return result;
    if (Date.now() >= deadline) throw tooLargeResourceVersion(rv, current);
    await new Promise((r) => setTimeout(r, TOO_LARGE_RV_POLL_MS));
  }
}

function waitForRevision(
  storage: Storage,
  prefix: string,
  options: ListOptions,
  params: ListParams,
  rv: number,
): Promise<ListOutcome> {
  return untilRevision(
    rv,
    () => readPage(storage, prefix, options, params, false),
    (outcome) => Number(outcome.resourceVersion),
  );
}

/** Waits (up to ~3 s, then 504) until the backing store has reached revision `rv`. */
export async function waitForStorageRevision(storage: Storage, rv: number): Promise<void> {
  await untilRevision(
    rv,
    () => storage.currentRevision(),
    (revision) => revision,
  );
}

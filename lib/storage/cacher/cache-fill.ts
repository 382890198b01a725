// The watch cache's fill: every object under a prefix read from etcd in pages at the first page's revision (the next
// page is read while one is added), with progress logged after each page. Pages are read undecoded and each value is
// kept as it came (a PendingObject: a view of the page's response and its resourceVersion), decoded by the watch cache
// when first read or after ready (watch-cache.ts); the fill only checks that each value's stored prefix names the
// apiVersion/kind the storage reads it as. When the storage reads a value as another version than its bytes
// (EncodingStorage), or the bytes are in another layout, the fill starts over with objects the storage decoded.
import type { Logger } from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import { compactObject } from '../../apimachinery/serializers/compact-object';
import { storedType } from '../../apimachinery/serializers/served-json';
import type { ListResult, Storage } from '../storage';
import { PendingObject, type FillMap } from './pending-object';

export { fillsSettled } from './watch-cache';

export interface FillRequest {
  storage: Storage;
  prefix: string;
  keyOf: (obj: ApiObject) => string;
  pageSize: number;
  log: Logger;
  /** Checked after each page: true ends the fill early (undefined result). */
  stopped: () => boolean;
}

/** The objects by key as of `revision`, or undefined when stopped meanwhile. */
export async function fillFromStorage(
  request: FillRequest,
  into: FillMap,
  raw = true,
): Promise<{ revision: number; ms: number } | undefined> {
  const started = performance.now();
  const { storage, prefix, keyOf, log } = request;
  const read = (revision?: number, startKey?: string): Promise<ListResult> => {
    const reading = storage.list(prefix, {
      limit: request.pageSize,
      raw,
      ...(revision === undefined ? {} : { revision }),
      ...(startKey === undefined ? {} : { startKey }),
    });
    reading.catch(() => undefined); // a read ahead that fails after the fill ended is nobody's error
    return reading;
  };
  let next = read();
  let asRead: string | undefined;
  for (;;) {
    const page = await next;
    if (request.stopped()) return undefined;
    asRead ??= await typeAsRead(storage, page);
    const revision = page.revision;
    const more = page.lastKey !== undefined;
    if (more) next = read(revision, `${page.lastKey}\u0000`);
    // Bytes of another version than the storage reads them as: decoded and converted by the storage instead.
    if (!addPage(page, keyOf, into, asRead)) {
      if (more) await next.catch(() => undefined);
      into.clear();
      return fillFromStorage(request, into, false);
    }
    if (!more) {
      const ms = Math.round(performance.now() - started);
      return { revision, ms };
    }
    const elapsedMs = Math.round(performance.now() - started);
    const remaining = page.remainingItemCount ?? 0;
    log.info({ prefix, objects: into.size, remaining, revision, elapsedMs }, 'watch cache filling');
  }
}

/**
 * Adds a page's objects, raw values undecoded; false when a raw value's stored prefix does not name `asRead` (the
 * apiVersion/kind the storage reads it as).
 */
function addPage(
  page: ListResult,
  keyOf: (obj: ApiObject) => string,
  into: FillMap,
  asRead: string | undefined,
): boolean {
  for (const object of page.items) {
    const compact = compactObject(object);
    into.set(keyOf(compact), compact);
  }
  for (const { key, value, resourceVersion } of page.raw ?? []) {
    if (storedType(value) !== asRead) return false;
    into.set(key, new PendingObject(value, resourceVersion));
  }
  return true;
}

function typeOf(obj: ApiObject): string {
  return `${obj.apiVersion}/${obj.kind}`;
}

/**
 * The apiVersion/kind the storage reads the first raw value of a page as (undefined without raw values): a storage
 * that converts between versions (EncodingStorage) reads what it stored in another version than its bytes say.
 */
async function typeAsRead(storage: Storage, page: ListResult): Promise<string | undefined> {
  const first = page.raw?.[0];
  return first === undefined ? undefined : typeOf(await storage.get(first.key, { revision: page.revision }));
}

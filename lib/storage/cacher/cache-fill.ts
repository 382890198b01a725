// The watch cache's fill: every object under a prefix read from etcd in pages at the first page's revision (the next
// page is read while one is added: two pages' responses in memory at most), with progress logged after each page. Pages are read undecoded and each
// value becomes a compact object (its bytes plus decoded metadata, compact-object.ts); when the storage reads a
// value as another version than its bytes (EncodingStorage), the fill starts over with objects the storage decoded.
import type { Logger } from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import { compactFromStored, compactObject } from '../../apimachinery/serializers/compact-object';
import type { ListResult, Storage } from '../storage';

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
  into: Map<string, ApiObject>,
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
    if (!more) return { revision, ms: Math.round(performance.now() - started) };
    const elapsedMs = Math.round(performance.now() - started);
    const remaining = page.remainingItemCount ?? 0;
    log.info({ prefix, objects: into.size, remaining, revision, elapsedMs }, 'watch cache filling');
  }
}

/** Adds a page's objects; false when a raw value is not of `asRead` (the apiVersion/kind the storage reads it as). */
function addPage(
  page: ListResult,
  keyOf: (obj: ApiObject) => string,
  into: Map<string, ApiObject>,
  asRead: string | undefined,
): boolean {
  for (const object of page.items) {
    const compact = compactObject(object);
    into.set(keyOf(compact), compact);
  }
  for (const { key, value, resourceVersion } of page.raw ?? []) {
    const compact = compactFromStored(value, resourceVersion);
    if (compact === undefined || typeOf(compact) !== asRead) return false;
    into.set(key, compact);
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

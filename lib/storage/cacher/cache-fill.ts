// The watch cache's fill: every object under a prefix read from etcd in pages at the first page's revision (the next
// page is read while one is added), with progress logged after each page. Pages are read undecoded and each value
// becomes a compact object (its bytes, rewritten in place in the page's response, plus decoded metadata:
// compact-object.ts), moved onto bytes of its own after the fill (ownBytesInBackground); when the storage reads a
// value as another version than its bytes (EncodingStorage), the fill starts over with objects the storage decoded.
import type { Logger } from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import { compactFromStored, compactObject, ownBytes } from '../../apimachinery/serializers/compact-object';
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
    if (!more) {
      const ms = Math.round(performance.now() - started);
      if (raw) ownBytesInBackground(into, request);
      return { revision, ms };
    }
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
    const compact = compactFromStored(value, resourceVersion, true); // the page's response is the fill's alone
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

/** Objects moved onto bytes of their own per turn of the event loop. */
const OWN_BYTES_SLICE = 1_000;
let moving: Promise<void> = Promise.resolve();

/**
 * After a fill, its objects (views of the pages' range responses, made in place: no copy on the way to ready) are
 * moved onto bytes of their own in slices between other work, in page order, so each page's response is freed once
 * its objects have moved and later updates of a few objects do not keep whole pages alive.
 */
function ownBytesInBackground(objects: Map<string, ApiObject>, request: FillRequest): void {
  const started = performance.now();
  const entries = objects.values();
  const done = new Promise<void>((resolve) => {
    const slice = (): void => {
      for (let n = 0; n < OWN_BYTES_SLICE; n++) {
        const next = entries.next();
        if (next.done === true || request.stopped()) {
          const elapsedMs = Math.round(performance.now() - started);
          request.log.debug({ prefix: request.prefix, elapsedMs }, 'watch cache objects moved off the fill pages');
          resolve();
          return;
        }
        ownBytes(next.value);
      }
      setImmediate(slice);
    };
    setImmediate(slice);
  });
  moving = Promise.all([moving, done]).then(() => undefined);
}

/** Resolves when the objects of every fill so far are on bytes of their own (for benchmarks and tests). */
export function fillsSettled(): Promise<void> {
  return moving;
}

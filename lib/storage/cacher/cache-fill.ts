// The watch cache's fill: every object under a prefix read from etcd in pages at the first page's revision (one
// page's response and decode in memory at a time), with progress logged after each page.
import type { Logger } from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { Storage } from '../storage';

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
): Promise<{ revision: number; ms: number } | undefined> {
  const started = performance.now();
  const { storage, prefix, keyOf, log } = request;
  let revision: number | undefined;
  let startKey: string | undefined;
  for (;;) {
    const page = await storage.list(prefix, {
      limit: request.pageSize,
      ...(revision === undefined ? {} : { revision }),
      ...(startKey === undefined ? {} : { startKey }),
    });
    if (request.stopped()) return undefined;
    revision = page.revision;
    for (const object of page.items) into.set(keyOf(object), object);
    if (page.lastKey === undefined) return { revision, ms: Math.round(performance.now() - started) };
    startKey = `${page.lastKey}\u0000`;
    const elapsedMs = Math.round(performance.now() - started);
    const remaining = page.remainingItemCount ?? 0;
    log.info({ prefix, objects: into.size, remaining, revision, elapsedMs }, 'watch cache filling');
  }
}

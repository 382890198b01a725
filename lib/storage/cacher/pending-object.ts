// A watch cache entry not decoded yet: a fill keeps each stored value as it came (a view of the page's range response)
// and its resourceVersion, and the cache decodes it (a compact object on bytes of its own) when first read or in
// slices after ready (watch-cache.ts). So a fill costs the range reads and a type check per value, not a decode.
import type { ApiObject } from '../../apimachinery/meta/types';
import { decodeCompact } from '../etcd/codec';

export class PendingObject {
  constructor(
    /** The stored bytes: a view of the fill page's response, which lives until every view of it is decoded. */
    readonly value: Buffer,
    /** etcd's mod revision of the value. */
    readonly resourceVersion: string,
  ) {}

  /** The object: compact on bytes of its own (no view of the page kept), or decoded in full in another layout. */
  decode(key: string): ApiObject {
    return decodeCompact(key, this.value, this.resourceVersion);
  }
}

/** What a watch cache holds per key. */
export type CacheEntry = ApiObject | PendingObject;

/** A fill's state by key (WatchCache.newFill, then replace). */
export type FillMap = Map<string, CacheEntry>;

/** The resourceVersion of an entry, without decoding a pending one. */
export function versionOf(entry: CacheEntry): string | undefined {
  return entry instanceof PendingObject ? entry.resourceVersion : entry.metadata.resourceVersion;
}

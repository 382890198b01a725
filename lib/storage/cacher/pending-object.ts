// What a watch cache holds per key: a decoded object, or a stored value decoded when first read (PendingObject).
import type { ApiObject } from '../../apimachinery/meta/types';
import { PendingObject } from '../etcd/pending-object';

export { PendingObject };

/** What a watch cache holds per key. */
export type CacheEntry = ApiObject | PendingObject;

/** A fill's state by key (WatchCache.newFill, then replace). */
export type FillMap = Map<string, CacheEntry>;

/** The resourceVersion of an entry, without decoding a pending one. */
export function versionOf(entry: CacheEntry): string | undefined {
  return entry instanceof PendingObject ? entry.resourceVersion : entry.metadata.resourceVersion;
}

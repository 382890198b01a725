// The Storage interface the registry writes to; etcd/ implements it.
import type { ApiObject } from '../apimachinery/meta/types';

export interface GetOptions {
  /** Read at this etcd revision (Exact); undefined = linearizable read of the latest state. */
  revision?: number;
}

export interface ListOptions {
  /** Read at this etcd revision; undefined = linearizable read at the latest revision. */
  revision?: number;
  /** At most this many matching items (0/undefined = no limit). */
  limit?: number;
  /** Start at this key, inclusive (full etcd key); continue tokens point just past the last key returned. */
  startKey?: string;
  /** Items not matching are skipped (selectors); paging then keeps reading until `limit` matches. */
  predicate?: (obj: ApiObject) => boolean;
  /** Without a predicate: return the stored bytes undecoded in `raw` (JSON responses splice them as they are). */
  raw?: boolean;
  /**
   * Objects already decoded elsewhere (the watch cache), by key and resourceVersion: a value at a key's mod
   * revision never changes, so the list reads only keys and revisions and takes these; others are read and
   * decoded. The objects returned are shared: the caller must not change them. Takes precedence over `raw`.
   */
  known?: (key: string, resourceVersion: string) => ApiObject | undefined;
}

/** A stored value as read, not decoded, with its resourceVersion. */
export interface RawItem {
  /** The storage key (the watch cache's key of the same object). */
  key: string;
  value: Buffer;
  resourceVersion: string;
}

export interface ListResult {
  items: ApiObject[];
  /** Set instead of `items` when the list was read with `raw`. */
  raw?: RawItem[];
  /** The etcd revision the list was read at. */
  revision: number;
  /** Key of the last item returned when more remain (the continue position). */
  lastKey?: string;
  /** Items after this page at `revision`, when known (no predicate). */
  remainingItemCount?: number;
}

/** What an update function returns: the new object, or a request to delete the key. */
export type UpdateResult = { object: ApiObject; delete?: false } | { object: ApiObject; delete: true };

/**
 * Called with the current object (resourceVersion set) until the write succeeds without
 * interference; may throw to abort. Must be pure apart from the returned object.
 */
export type UpdateFunc = (current: ApiObject) => UpdateResult | Promise<UpdateResult>;

/** Called with the current object before a delete; may throw to abort (preconditions). */
export type DeleteCheck = (current: ApiObject) => void;

/** A change seen on a watched prefix. DELETED carries the last state with the delete's revision. */
export type StorageEvent =
  | { type: 'ADDED' | 'MODIFIED'; object: ApiObject; previous?: ApiObject; revision: number }
  | { type: 'DELETED'; object: ApiObject; revision: number };

export interface WatchSink {
  event(event: StorageEvent): void;
  /** The watch cannot continue (compacted revision, etcd gone); no further events follow. */
  error(err: Error): void;
}

/** One change of a key as the watch cache consumes it: no previous state (the cache has it). */
export type StorageChange =
  { type: 'put'; key: string; object: ApiObject; revision: number } | { type: 'delete'; key: string; revision: number };

export interface ChangeSink {
  /** Changes in revision order, as etcd delivered them in one response. */
  changes(batch: StorageChange[]): void;
  /** Every change up to `revision` has been delivered (etcd progress notification). */
  progress(revision: number): void;
  /** The stream broke (compacted revision, connection lost); nothing follows. */
  error(err: Error): void;
}

export interface WatchHandle {
  cancel(): Promise<void>;
}

/** How a write is stored beyond its value. */
export interface PutOptions {
  /** The key expires this many seconds after the write (an etcd lease, as Kubernetes stores events). */
  leaseTtlSeconds?: number;
}

export interface Storage {
  get(key: string, options?: GetOptions): Promise<ApiObject>;
  /** The stored JSON (without resourceVersion) and the resourceVersion of a key, read like get() but not decoded. */
  getJson(key: string): Promise<{ json: string; resourceVersion: string }>;
  list(prefix: string, options?: ListOptions): Promise<ListResult>;
  /** Fails with KeyExists when the key is present. */
  create(key: string, obj: ApiObject, options?: PutOptions): Promise<ApiObject>;
  /** Read-modify-write with compare-and-swap on the object's mod revision, retried on interference. */
  guaranteedUpdate(
    key: string,
    update: UpdateFunc,
    options?: PutOptions,
  ): Promise<{ object: ApiObject; deleted: boolean }>;
  /** Deletes the key, re-running `check` if the object changed under us; returns the last state with the delete revision. */
  delete(key: string, check?: DeleteCheck): Promise<ApiObject>;
  /** Streams changes under `prefix` strictly after `afterRevision`. */
  watch(prefix: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle>;
  /** Raw change stream under `prefix` strictly after `afterRevision`, ending at the first disconnection (the watch cache resumes it). */
  watchChanges(prefix: string, afterRevision: number, sink: ChangeSink): Promise<WatchHandle>;
  /** The backing store's current revision, by a linearizable read. */
  currentRevision(): Promise<number>;
  /** Number of keys under a prefix (for metrics and namespace cleanup). */
  count(prefix: string): Promise<number>;
  /** Round trip to the backing store (health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

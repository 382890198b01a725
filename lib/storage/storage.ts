// The Storage interface the registry writes to; etcd/ implements it.
import type { ApiObject } from '../apimachinery/meta/types';
import type { WatchDelivery } from '../apimachinery/watch/delivery';

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

/** A stored value whose decoding waits for its first reader; every decode returns the same object. */
export interface DeferredObject {
  readonly resourceVersion: string;
  decode(key: string): ApiObject;
}

/**
 * One change of a key as the watch cache consumes it: no previous state (the cache has it). A put whose value is
 * decoded only when `object` is first read carries that value as `deferred` (`object` is `deferred.decode(key)`), so
 * a cache can keep it undecoded; a storage that changes the objects on their way up must not pass `deferred` on.
 */
export type StorageChange =
  | { type: 'put'; key: string; object: ApiObject; revision: number; deferred?: DeferredObject }
  | { type: 'delete'; key: string; revision: number };

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

export interface Storage extends VersionedReads {
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
  /**
   * Asks etcd for a progress answer on the watch stream: every watchChanges sink on it then gets progress(revision)
   * up to which it has all changes. False when none will come (no stream, or an etcd whose answers are unordered).
   */
  requestWatchProgress?(): boolean;
  /** Number of keys under a prefix (for metrics and namespace cleanup). */
  count(prefix: string): Promise<number>;
  /** Round trip to the backing store (health check). */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A list by Kubernetes' resourceVersion semantics (already validated): what `getList` answers, from the watch
 * cache or from etcd as the storage decides.
 */
export interface ListRequest {
  predicate?: (obj: ApiObject) => boolean;
  /** A label or field selector was given: no remainingItemCount. */
  hasSelector: boolean;
  limit: number;
  /** A continue token from an earlier page ('' when none); decoded by storage (InvalidContinue when malformed). */
  continueToken: string;
  /** Parsed resourceVersion; undefined when unset (Most Recent), 0 (Any), N (Not older than N, or Exact). */
  resourceVersion?: number;
  resourceVersionMatch: '' | 'Exact' | 'NotOlderThan';
  /** Watch-list (feature gate WatchList): set when the watch carried sendInitialEvents. */
  sendInitialEvents?: boolean;
  /** The caller writes JSON and can take etcd's bytes undecoded (used only when nothing needs decoding). */
  raw?: boolean;
}

/** One page of a list as the client sees it. */
export interface ListPage {
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

/** A client watch by the resourceVersion table. */
export interface WatchRequest {
  predicate?: (obj: ApiObject) => boolean;
  /** undefined: unset; 0: any; N: after N. */
  resourceVersion: number | undefined;
  /** Watch-list (KEP-3157): true streams a state at least as new as `resourceVersion` first; false never does. */
  sendInitialEvents?: boolean;
  delivery: WatchDelivery;
}

/** A started client watch. */
export interface ClientWatch {
  /** Every event up to this revision has been offered to the watch (for bookmarks). */
  readonly revision: number;
  /** Unregisters; `cutOff` when the client was closed for falling behind (metrics). */
  stop(cutOff?: boolean): void;
}

export interface StartedWatch {
  /** Synthetic ADDED events to write before anything the delivery queued. */
  initial: ApiObject[];
  watch: ClientWatch;
  /**
   * The requested resourceVersion is gone (compacted, or older than the cache's window): like Kubernetes, the
   * answer is a 200 stream with this one ERROR event (a Compacted StorageError, 410 Expired), not an HTTP error.
   */
  expired?: Error;
  /** Watch-list: the revision of the initial state, announced by a BOOKMARK marking the end of the initial events. */
  initialEventsEnd?: number;
}

/**
 * The reads by resourceVersion (upstream's storage.Interface Get/GetList/Watch): the plain storage answers them from
 * etcd (versioned-reads.ts), the watch cache's CachedStorage from memory where the semantics allow.
 */
export interface VersionedReads {
  /** get by resourceVersion: unset = Most Recent, 0 = Any, N = Not older than N (504 after ~3 s when etcd is behind). */
  getAtResourceVersion(key: string, resourceVersion: number | undefined): Promise<ApiObject>;
  getList(prefix: string, request: ListRequest): Promise<ListPage>;
  /** A client watch under `prefix` (a namespace or the whole resource). */
  startWatch(prefix: string, request: WatchRequest): Promise<StartedWatch>;
  /** The object at `key` when an already-decoded copy of exactly `resourceVersion` is kept (the watch cache's). */
  knownObject(key: string, resourceVersion: string): ApiObject | undefined;
  /**
   * A Most Recent get answered by the watch cache once it has caught up with etcd (consistent reads, KEP-2340):
   * the object, or KeyNotFound; undefined when the caller must read etcd.
   */
  latestFromCache(key: string): Promise<ApiObject | undefined>;
}

// Cacher: the watch cache of one resource in one replica. One etcd watch feeds the cache; every client watch
// and every `resourceVersion=0` read is served from memory. When the etcd watch breaks the cacher resumes from
// the revision it has applied; when that revision is compacted it re-lists and its watchers get 410 (they re-list too).
import type { Logger } from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { Storage, StorageChange, WatchHandle } from '../storage';
import { isStorageError, StorageError } from '../storage-error';
import type { CachedEvent } from './cached-event';
import { CacheWatcher, type WatchDelivery } from './cache-watcher';
import { WatchCache } from './watch-cache';

const RETRY_MIN_MS = 100;
/** Shortest time between two writes to the same watchers (event batching under load). */
const FLUSH_INTERVAL_MS = 50;
/**
 * A flush writes to every watcher with news (one socket write each, mostly kernel time): with many watchers
 * the next flush waits this many times as long as the last one took, so writing never takes more than about
 * a fifth of the event loop and a busy fan-out sends fewer, larger chunks.
 */
const FLUSH_COST_FACTOR = 4;
/** The spacing never exceeds this: bigger batches make longer flushes, which must not stretch the spacing further. */
const MAX_FLUSH_INTERVAL_MS = 100;
const RETRY_MAX_MS = 5000;

export interface CacherOptions {
  storage: Storage;
  /** Key prefix of the resource, ending in `/`. */
  prefix: string;
  /** The storage key of an object (from its namespace and name). */
  keyOf: (obj: ApiObject) => string;
  /** Most events held, whatever their age. */
  capacity: number;
  /** Events are held at least this long (unless the capacity is reached). */
  minAgeMs: number;
  /** Watchers that asked for bookmarks get one this often. */
  bookmarkIntervalMs: number;
  log: Logger;
}

export interface CacheWatchRequest {
  /** Only keys under this prefix (a namespace or the whole resource). */
  prefix: string;
  predicate?: (obj: ApiObject) => boolean;
  delivery: WatchDelivery;
  /** An in-process consumer (controller): not counted as a client watch in the metrics. */
  internal?: boolean;
}

export type CacheWatchStart =
  | { kind: 'started'; watch: CacheWatch; initial: ApiObject[] }
  /** The window no longer holds every event after the requested revision. */
  | { kind: 'too-old'; oldest: number };

export interface CacheWatch {
  /** The cache's revision: every event up to it has been offered to this watch (for bookmarks). */
  readonly revision: number;
  /** Unregisters; `cutOff` when the client was closed for falling behind (metrics). */
  stop(cutOff?: boolean): void;
}

/** Unfiltered watchers of one prefix sharing a delivery form, and the events batched for them since the last flush. */
interface WatcherGroup {
  prefix: string;
  members: Set<CacheWatcher>;
  events: CachedEvent[];
}

export interface CacherStats {
  watchers: number;
  eventsSent: number;
  windowEvents: number;
  capacity: number;
  initializations: number;
  objects: number;
  slowWatchersClosed: number;
}

export class Cacher {
  readonly prefix: string;
  readonly #storage: Storage;
  readonly #keyOf: (obj: ApiObject) => string;
  readonly #cache: WatchCache;
  readonly #log: Logger;
  /** Every registered watcher. */
  readonly #watchers = new Set<CacheWatcher>();
  /** Watchers offered each event one by one (filtered ones, table streams, controllers). */
  readonly #individual = new Set<CacheWatcher>();
  /** Unfiltered watchers by prefix and delivery form: one batch of events per group per flush. */
  readonly #groups = new Map<string, WatcherGroup>();
  #unflushedGroups = new Set<WatcherGroup>();
  /** The cache's revision when the last flush started: grouped watchers have been sent every event up to it. */
  #flushedRevision = 0;
  #etcdWatch: WatchHandle | undefined;
  #stopped = false;
  #ready = false;
  #readyWaiters: (() => void)[] = [];
  #revisionWaiters: { revision: number; resolve: () => void }[] = [];
  #eventsSentByGone = 0;
  #initializations = 0;
  #slowWatchersClosed = 0;
  #running: Promise<void> | undefined;
  #wakeRetry: (() => void) | undefined;
  #endEtcdWatch: ((reason: Error) => void) | undefined;
  #unflushed = new Set<CacheWatcher>();
  #flushTimer: NodeJS.Timeout | undefined;
  #lastFlush = 0;
  /** How long the last flush took. */
  #lastFlushMs = 0;
  readonly #bookmarkIntervalMs: number;
  #bookmarkTimer: NodeJS.Timeout | undefined;

  constructor(options: CacherOptions) {
    this.prefix = options.prefix;
    this.#storage = options.storage;
    this.#keyOf = options.keyOf;
    this.#log = options.log;
    this.#bookmarkIntervalMs = options.bookmarkIntervalMs;
    this.#cache = new WatchCache({ capacity: options.capacity, minAgeMs: options.minAgeMs });
  }

  start(): void {
    if (this.#running) return;
    this.#running = this.#run();
    this.#bookmarkTimer = setInterval(() => this.#sendBookmarks(), this.#bookmarkIntervalMs);
    this.#bookmarkTimer.unref();
  }

  #sendBookmarks(): void {
    // A BOOKMARK promises every earlier event: batches waiting for their flush go first.
    if (this.#unflushedGroups.size > 0) this.#flushNow();
    const revision = this.#cache.revision;
    for (const watcher of this.#watchers) if (revision >= watcher.fromRevision) watcher.delivery.bookmark(revision);
  }

  /** Ends every client watch (with a final BOOKMARK where asked for) and the etcd watch. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#bookmarkTimer);
    this.#flushNow();
    this.#wakeRetry?.();
    this.#endEtcdWatch?.(new Error('watch cache stopped'));
    for (const watcher of this.#watchers) watcher.delivery.end(this.#cache.revision);
    this.#forgetWatchers();
    await this.#etcdWatch?.cancel();
    for (const resolve of this.#readyWaiters) resolve();
    await this.#running;
  }

  get ready(): boolean {
    return this.#ready;
  }

  get revision(): number {
    return this.#cache.revision;
  }

  /** Resolves once the cache holds a complete state (false when the cacher stopped first). */
  async waitReady(): Promise<boolean> {
    if (!this.#ready && !this.#stopped) await new Promise<void>((resolve) => this.#readyWaiters.push(resolve));
    return this.#ready;
  }

  /** Resolves true once the cache has reached `revision`, false after `timeoutMs`. */
  async waitForRevision(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.#ready && this.#cache.revision >= revision) return true;
    return new Promise<boolean>((resolve) => {
      const waiter = {
        revision,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.#revisionWaiters = this.#revisionWaiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.#revisionWaiters.push(waiter);
    });
  }

  /** The cached objects under `prefix` (ready caches only). */
  list(prefix: string, predicate?: (obj: ApiObject) => boolean): { items: ApiObject[]; revision: number } {
    return { items: this.#cache.list(prefix, predicate), revision: this.#cache.revision };
  }

  get(key: string): ApiObject | undefined {
    return this.#cache.get(key);
  }

  /**
   * Registers a watch (ready caches only). `from` undefined: the current state comes back as `initial` and
   * events follow; a revision: only events after it, replayed from the window first.
   */
  watch(request: CacheWatchRequest, from: number | undefined): CacheWatchStart {
    let initial: ApiObject[] = [];
    let replay: CachedEvent[] = [];
    let fromRevision: number;
    if (from === undefined) {
      initial = this.#cache.list(request.prefix, request.predicate);
      fromRevision = this.#cache.revision;
    } else {
      const since = this.#cache.window.since(from);
      if (since === undefined) return { kind: 'too-old', oldest: this.#cache.window.startRevision };
      replay = since;
      fromRevision = from;
    }
    const watcher = new CacheWatcher(request.prefix, request.predicate, fromRevision, request.delivery, request.internal ?? false);
    // Replayed events are queued now; the caller writes `initial` first, then flushes them.
    for (const event of replay) watcher.offer(event);
    this.#register(watcher);
    const stop = (cutOff = false): void => {
      if (this.#unregister(watcher) && !watcher.internal) this.#eventsSentByGone += watcher.sent;
      if (cutOff) this.#slowWatchersClosed++;
    };
    const deliveredRevision = (): number => this.#deliveredRevision();
    return {
      kind: 'started',
      initial,
      watch: {
        get revision() {
          return deliveredRevision();
        },
        stop,
      },
    };
  }

  #register(watcher: CacheWatcher): void {
    this.#watchers.add(watcher);
    const key = watcher.groupKey;
    if (key === undefined) {
      this.#individual.add(watcher);
      return;
    }
    // Events already batched for the group (but not flushed) came to this watcher from the window or the list.
    watcher.batchAfter = this.#cache.revision;
    let group = this.#groups.get(key);
    if (group === undefined) {
      group = { prefix: watcher.prefix, members: new Set(), events: [] };
      this.#groups.set(key, group);
    }
    group.members.add(watcher);
  }

  /** True when the watcher was registered. */
  #unregister(watcher: CacheWatcher): boolean {
    if (!this.#watchers.delete(watcher)) return false;
    this.#individual.delete(watcher);
    const key = watcher.groupKey;
    const group = key === undefined ? undefined : this.#groups.get(key);
    if (key !== undefined && group !== undefined) {
      group.members.delete(watcher);
      if (group.members.size === 0) {
        this.#groups.delete(key);
        this.#unflushedGroups.delete(group);
      }
    }
    return true;
  }

  #forgetWatchers(): void {
    this.#watchers.clear();
    this.#individual.clear();
    this.#groups.clear();
    this.#unflushedGroups.clear();
  }

  /** Every event up to this revision has been written (or queued in order) to every watcher. */
  #deliveredRevision(): number {
    return this.#unflushedGroups.size === 0 ? this.#cache.revision : this.#flushedRevision;
  }

  stats(): CacherStats {
    let eventsSent = this.#eventsSentByGone;
    let watchers = 0;
    for (const watcher of this.#watchers) {
      if (watcher.internal) continue;
      watchers++;
      eventsSent += watcher.sent;
    }
    return {
      watchers,
      eventsSent,
      windowEvents: this.#cache.window.size,
      capacity: this.#cache.window.capacity,
      initializations: this.#initializations,
      objects: this.#cache.size,
      slowWatchersClosed: this.#slowWatchersClosed,
    };
  }

  async #run(): Promise<void> {
    let retryMs = RETRY_MIN_MS;
    let needList = true;
    while (!this.#stopped) {
      try {
        if (needList) {
          await this.#relist();
          needList = false;
        }
        const broken = await this.#watchUntilBroken();
        retryMs = RETRY_MIN_MS;
        if (isStorageError(broken, 'Compacted')) needList = true;
        else if (!this.#stopped) this.#log.warn({ prefix: this.prefix, revision: this.#cache.revision, err: broken.message }, 'etcd watch broke; resuming');
      } catch (err) {
        if (this.#stopped) break;
        if (isStorageError(err, 'Compacted')) needList = true;
        this.#log.warn({ prefix: this.prefix, err: err instanceof Error ? err.message : String(err), retryMs }, 'watch cache cannot reach etcd; retrying');
        await this.#sleep(retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      }
    }
  }

  async #relist(): Promise<void> {
    const listed = await this.#storage.list(this.prefix);
    if (this.#stopped) return;
    const wasReady = this.#ready;
    this.#cache.replace(
      listed.items.map((object) => ({ key: this.#keyOf(object), object })),
      listed.revision,
    );
    this.#initializations++;
    if (wasReady) this.#terminateAll(listed.revision);
    this.#ready = true;
    for (const resolve of this.#readyWaiters) resolve();
    this.#readyWaiters = [];
    this.#wakeRevisionWaiters();
    this.#log.info({ prefix: this.prefix, objects: listed.items.length, revision: listed.revision }, 'watch cache initialized');
  }

  /** The history before `revision` is lost: every watcher must re-list. */
  #terminateAll(revision: number): void {
    for (const watcher of this.#watchers) {
      watcher.delivery.fail(new StorageError('Compacted', this.prefix, `too old resource version: ${watcher.fromRevision} (${revision})`, { revision: watcher.fromRevision, currentRevision: revision }));
      if (!watcher.internal) this.#eventsSentByGone += watcher.sent;
    }
    this.#forgetWatchers();
  }

  /** Streams etcd changes into the cache until the stream breaks; resolves with the reason. */
  async #watchUntilBroken(): Promise<Error> {
    let broken!: (err: Error) => void;
    const ended = new Promise<Error>((resolve) => (broken = resolve));
    this.#endEtcdWatch = broken;
    this.#etcdWatch = await this.#storage.watchChanges(this.prefix, this.#cache.revision, {
      changes: (batch) => this.#dispatch(batch),
      progress: (revision) => {
        this.#cache.advance(revision);
        this.#wakeRevisionWaiters();
      },
      error: (err) => broken(err),
    });
    if (this.#stopped) await this.#etcdWatch.cancel();
    const reason = await ended;
    void this.#etcdWatch.cancel();
    this.#etcdWatch = undefined;
    this.#endEtcdWatch = undefined;
    return reason;
  }

  #dispatch(batch: StorageChange[]): void {
    for (const change of batch) {
      const event = this.#cache.apply(change);
      if (event === undefined) continue;
      for (const watcher of this.#individual) if (watcher.offer(event)) this.#unflushed.add(watcher);
      for (const group of this.#groups.values()) {
        if (!event.key.startsWith(group.prefix)) continue;
        group.events.push(event);
        this.#unflushedGroups.add(group);
      }
    }
    this.#scheduleFlush();
    this.#wakeRevisionWaiters();
  }

  /**
   * Writes what watchers have queued. At most one flush per FLUSH_INTERVAL_MS: a quiet resource's events go
   * out at once, a busy one's in batches (one write per watcher per batch instead of per event).
   */
  #scheduleFlush(): void {
    if ((this.#unflushed.size === 0 && this.#unflushedGroups.size === 0) || this.#flushTimer !== undefined) return;
    const spacing = Math.min(MAX_FLUSH_INTERVAL_MS, Math.max(FLUSH_INTERVAL_MS, FLUSH_COST_FACTOR * this.#lastFlushMs));
    const wait = this.#lastFlush + spacing - performance.now();
    if (wait <= 0) this.#flush();
    else this.#flushTimer = setTimeout(() => this.#flush(), wait);
  }

  #flushNow(): void {
    clearTimeout(this.#flushTimer);
    this.#flush();
  }

  #flush(): void {
    this.#flushTimer = undefined;
    const started = performance.now();
    this.#flushedRevision = this.#cache.revision;
    const groups = this.#unflushedGroups;
    this.#unflushedGroups = new Set();
    for (const group of groups) {
      const events = group.events;
      group.events = [];
      for (const watcher of group.members) watcher.offerBatch(events);
    }
    const watchers = this.#unflushed;
    this.#unflushed = new Set();
    for (const watcher of watchers) watcher.delivery.flush();
    this.#lastFlush = performance.now();
    this.#lastFlushMs = this.#lastFlush - started;
  }

  #wakeRevisionWaiters(): void {
    if (this.#revisionWaiters.length === 0) return;
    const revision = this.#cache.revision;
    const waiting: { revision: number; resolve: () => void }[] = [];
    for (const waiter of this.#revisionWaiters) {
      if (this.#ready && revision >= waiter.revision) waiter.resolve();
      else waiting.push(waiter);
    }
    this.#revisionWaiters = waiting;
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.#wakeRetry = done;
    });
  }
}

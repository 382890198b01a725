// Cacher: the watch cache of one resource in one replica. One etcd watch feeds the cache; every client watch
// and every `resourceVersion=0` read is served from memory. When the etcd watch breaks the cacher resumes from
// the revision it has applied; when that revision is compacted it re-lists and its watchers get 410 (they re-list too).
// How events reach the watchers (groups, batching, bookmarks) is fan-out.ts's job.
import type { Logger } from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { Storage, StorageChange, WatchHandle } from '../storage';
import { isStorageError, StorageError } from '../storage-error';
import type { CachedEvent } from '../../apimachinery/watch/cached-event';
import { CacheWatcher } from './cache-watcher';
import { FanOut } from './fan-out';
import { WatchCache } from './watch-cache';
import { fillFromStorage } from './cache-fill';
import { SharedRevisionRead } from './shared-revision-read';
import type { RevisionLedger } from './revision-ledger';
import { ConditionWaiters } from './condition-waiters';
import type { CacheWatchRequest, CacheWatchStart, CacherStats } from './cacher-types';

const RETRY_MIN_MS = 100;
const RETRY_MAX_MS = 5000;
/**
 * How long a consistent read waits for the cache to reach etcd's current revision before the caller reads etcd.
 * Short: where etcd's progress answers cannot be used (before 3.4.31 / 3.5.13, see watch-progress.ts) the cache of
 * a quiet resource only advances with its own events and etcd's periodic progress notifications.
 */
const CONSISTENT_READ_WAIT_MS = 50;
/** A cache that applied no event for this long counts as quiet (see caughtUpWithEtcd). */
const QUIET_MS = 1000;
/** The fill reads etcd in pages of this many objects (one page's response and decode in memory at a time). */
const FILL_PAGE_SIZE = 10_000;

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
  /** Consistent reads from the cache (KEP-2340, feature gate ConsistentListFromCache). */
  consistentReads?: boolean;
  /** Objects per etcd range while the cache fills (default 10,000); progress is logged after each page. */
  fillPageSize?: number;
  /**
   * Shared by the caches of one etcd: the revisions each applied, so a quiet cache can tell that the revisions since
   * its own were other resources' writes (consistent reads without etcd progress answers).
   */
  ledger?: RevisionLedger;
  log: Logger;
}

export type { CacheWatch, CacheWatchRequest, CacheWatchStart, CacherStats } from './cacher-types';

export class Cacher {
  readonly prefix: string;
  readonly #storage: Storage;
  readonly #keyOf: (obj: ApiObject) => string;
  readonly #cache: WatchCache;
  readonly #log: Logger;
  readonly #fanOut: FanOut;
  #etcdWatch: WatchHandle | undefined;
  #stopped = false;
  #ready = false;
  #readyWaiters: (() => void)[] = [];
  readonly #revisionWaiters = new ConditionWaiters();
  #initializations = 0;
  #running: Promise<void> | undefined;
  #wakeRetry: (() => void) | undefined;
  #endEtcdWatch: ((reason: Error) => void) | undefined;
  readonly #bookmarkIntervalMs: number;
  #bookmarkTimer: NodeJS.Timeout | undefined;
  readonly #consistentReads: boolean;
  readonly #revisionRead: SharedRevisionRead;
  /** When the etcd watch last brought an event (a quiet resource's cache cannot catch up without progress answers). */
  #lastEventAt = 0;
  readonly #fillPageSize: number;
  readonly #ledger: RevisionLedger | undefined;
  #consistentFromCache = 0;
  #consistentFellBack = 0;

  constructor(options: CacherOptions) {
    this.prefix = options.prefix;
    this.#storage = options.storage;
    this.#keyOf = options.keyOf;
    this.#log = options.log;
    this.#bookmarkIntervalMs = options.bookmarkIntervalMs;
    this.#consistentReads = options.consistentReads ?? false;
    this.#fillPageSize = Math.max(1, options.fillPageSize ?? FILL_PAGE_SIZE);
    this.#cache = new WatchCache({ capacity: options.capacity, minAgeMs: options.minAgeMs });
    this.#fanOut = new FanOut(() => this.#cache.revision);
    this.#revisionRead = new SharedRevisionRead(() => this.#storage.currentRevision());
    this.#ledger = options.ledger?.join(this.prefix) ? options.ledger : undefined;
  }

  start(): void {
    if (this.#running) return;
    this.#running = this.#run();
    this.#bookmarkTimer = setInterval(() => this.#fanOut.bookmarkAll(), this.#bookmarkIntervalMs);
    this.#bookmarkTimer.unref();
  }

  /** Ends every client watch (with a final BOOKMARK where asked for) and the etcd watch. */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearInterval(this.#bookmarkTimer);
    this.#wakeRetry?.();
    this.#endEtcdWatch?.(new Error('watch cache stopped'));
    this.#fanOut.endAll();
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
  waitForRevision(revision: number, timeoutMs: number): Promise<boolean> {
    return this.#revisionWaiters.wait(() => this.#ready && this.#cache.revision >= revision, timeoutMs);
  }

  /**
   * Consistent reads from the cache (KEP-2340): true once the cache holds every change up to etcd's current
   * revision, read after this call began; false (read etcd) when turned off, not ready, or not caught up in time.
   */
  async caughtUpWithEtcd(): Promise<boolean> {
    if (!this.#consistentReads || !this.#ready) return false;
    const revision = await this.#revisionRead.read();
    const caughtUp =
      this.#cache.revision >= revision || this.#coveredByOthers(revision) || (await this.#catchUp(revision));
    if (caughtUp) this.#consistentFromCache++;
    else this.#consistentFellBack++;
    return caughtUp;
  }

  /**
   * Waits a little for the cache to reach `revision`: through its own events, a progress answer (asked for here,
   * coalesced across cachers), or the other caches applying the revisions in between (the ledger). Where nothing can
   * bring it there in time (a quiet resource on an etcd whose progress answers cannot be used, and no other cache
   * applying anything), false at once: etcd is read.
   */
  async #catchUp(revision: number): Promise<boolean> {
    const answerComing = this.#storage.requestWatchProgress?.() ?? false;
    const now = performance.now();
    const ownEventsFlowing = answerComing || now - this.#lastEventAt < QUIET_MS;
    if (this.#ledger && (ownEventsFlowing || now - this.#ledger.lastRecordAt < QUIET_MS))
      return this.reach(revision, CONSISTENT_READ_WAIT_MS);
    return ownEventsFlowing && this.waitForRevision(revision, CONSISTENT_READ_WAIT_MS);
  }

  /**
   * Resolves true once the cache holds every change up to `revision`: through its own events or progress
   * notifications, or the other caches applying the revisions in between (the ledger); false after `timeoutMs`.
   */
  async reach(revision: number, timeoutMs: number): Promise<boolean> {
    if (!this.#ledger) return this.waitForRevision(revision, timeoutMs);
    const covered = await this.#ledger.waitCovers(() => this.#cache.revision, revision, timeoutMs);
    return covered && this.#ready && (this.#cache.revision >= revision || this.#coveredByOthers(revision));
  }

  /**
   * True when every revision since the cache's own up to `revision` was another resource's write (applied by the
   * other caches on the ledger): the cache then holds this resource's state at `revision` and moves up to it.
   */
  #coveredByOthers(revision: number): boolean {
    if (!this.#ledger?.covers(this.#cache.revision, revision)) return false;
    this.#cache.advance(revision);
    this.#revisionWaiters.wake();
    return true;
  }

  /** The cached objects under `prefix` (ready caches only). */
  list(prefix: string, predicate?: (obj: ApiObject) => boolean): { items: ApiObject[]; revision: number } {
    return { items: this.#cache.list(prefix, predicate), revision: this.#cache.revision };
  }

  get(key: string): ApiObject | undefined {
    return this.#cache.get(key);
  }

  /** Resolves when the objects under `prefix` are decoded (after a fill: in slices between other work). */
  decoded(prefix: string): Promise<void> {
    return this.#cache.decoded(prefix);
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
    const watcher = new CacheWatcher(
      request.prefix,
      request.predicate,
      fromRevision,
      request.delivery,
      request.internal ?? false,
    );
    // Replayed events are queued now; the caller writes `initial` first, then flushes them.
    for (const event of replay) watcher.offer(event);
    const fanOut = this.#fanOut;
    fanOut.add(watcher);
    return {
      kind: 'started',
      initial,
      watch: {
        get revision() {
          return fanOut.deliveredRevision();
        },
        stop: (cutOff = false) => fanOut.remove(watcher, cutOff),
      },
    };
  }

  /** Objects held now (APF's list work estimate); undefined until the cache was first filled. */
  get objectCount(): number | undefined {
    return this.#ready ? this.#cache.size : undefined;
  }

  /** Client watches open now (APF's estimate of the work a write leaves behind). */
  get watcherCount(): number {
    return this.#fanOut.clientWatchers;
  }

  stats(): CacherStats {
    return {
      ...this.#fanOut.stats(),
      windowEvents: this.#cache.window.size,
      capacity: this.#cache.window.capacity,
      initializations: this.#initializations,
      objects: this.#cache.size,
      consistentReadsFromCache: this.#consistentFromCache,
      consistentReadsFellBack: this.#consistentFellBack,
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
        else if (!this.#stopped)
          this.#log.warn(
            { prefix: this.prefix, revision: this.#cache.revision, err: broken.message },
            'etcd watch broke; resuming',
          );
      } catch (err) {
        if (this.#stopped) break;
        if (isStorageError(err, 'Compacted')) needList = true;
        this.#log.warn(
          { prefix: this.prefix, err: err instanceof Error ? err.message : String(err), retryMs },
          'watch cache cannot reach etcd; retrying',
        );
        await this.#sleep(retryMs);
        retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
      }
    }
  }

  /** Fills a new state from etcd (cache-fill.ts); it replaces the old one at the end. */
  async #relist(): Promise<void> {
    const fill = this.#cache.newFill();
    const request = {
      storage: this.#storage,
      prefix: this.prefix,
      keyOf: this.#keyOf,
      pageSize: this.#fillPageSize,
      log: this.#log,
      stopped: () => this.#stopped,
    };
    const filled = await fillFromStorage(request, fill);
    if (filled === undefined) return;
    const revision = filled.revision;
    const wasReady = this.#ready;
    void this.#cache.replace(fill, revision).then((elapsedMs) => {
      this.#log.debug({ prefix: this.prefix, elapsedMs }, 'watch cache fill decoded');
    });
    this.#initializations++;
    if (wasReady) this.#terminateAll(revision);
    this.#ready = true;
    for (const resolve of this.#readyWaiters) resolve();
    this.#readyWaiters = [];
    this.#revisionWaiters.wake();
    this.#log.info(
      { prefix: this.prefix, objects: fill.size, revision, durationMs: filled.ms },
      'watch cache initialized',
    );
  }

  /** The history before `revision` is lost: every watcher must re-list. */
  #terminateAll(revision: number): void {
    this.#fanOut.failAll(
      (watcher) =>
        new StorageError('Compacted', this.prefix, `too old resource version: ${watcher.fromRevision} (${revision})`, {
          revision: watcher.fromRevision,
          currentRevision: revision,
        }),
    );
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
        this.#revisionWaiters.wake();
        this.#ledger?.recheck();
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
    this.#lastEventAt = performance.now();
    for (const change of batch) {
      const event = this.#cache.apply(change);
      if (event !== undefined) this.#fanOut.offer(event);
    }
    this.#fanOut.scheduleFlush();
    this.#ledger?.record(
      this.prefix,
      batch.map((change) => change.revision),
    );
    this.#revisionWaiters.wake();
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

// The watchers of one watch cache and how events reach them: filtered watchers are offered each event, unfiltered
// ones of one prefix and form share a group that gets each batch whole; writes are batched and spaced under load.
import type { CachedEvent } from '../../apimachinery/watch/cached-event';
import type { CacheWatcher } from './cache-watcher';

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

/** Unfiltered watchers of one prefix sharing a delivery form, and the events batched for them since the last flush. */
interface WatcherGroup {
  prefix: string;
  members: Set<CacheWatcher>;
  events: CachedEvent[];
}

export interface FanOutStats {
  /** Client watches (in-process ones left out). */
  watchers: number;
  eventsSent: number;
  slowWatchersClosed: number;
}

export class FanOut {
  /** The cache's revision: every event up to it has been handed to offer(). */
  readonly #revision: () => number;
  /** Every registered watcher. */
  readonly #watchers = new Set<CacheWatcher>();
  /** Client (non-internal) watchers, kept as a count for APF's work estimate of every write. */
  #clientWatchers = 0;
  /** Watchers offered each event one by one (filtered ones, table streams, controllers). */
  readonly #individual = new Set<CacheWatcher>();
  /** Unfiltered watchers by prefix and delivery form: one batch of events per group per flush. */
  readonly #groups = new Map<string, WatcherGroup>();
  #unflushedGroups = new Set<WatcherGroup>();
  #unflushed = new Set<CacheWatcher>();
  /** The cache's revision when the last flush started: grouped watchers have been sent every event up to it. */
  #flushedRevision = 0;
  #flushTimer: NodeJS.Timeout | undefined;
  #lastFlush = 0;
  /** How long the last flush took. */
  #lastFlushMs = 0;
  #eventsSentByGone = 0;
  #slowWatchersClosed = 0;

  constructor(revision: () => number) {
    this.#revision = revision;
  }

  add(watcher: CacheWatcher): void {
    if (!this.#watchers.has(watcher) && !watcher.internal) this.#clientWatchers++;
    this.#watchers.add(watcher);
    const key = watcher.groupKey;
    if (key === undefined) {
      this.#individual.add(watcher);
      return;
    }
    // Events already batched for the group (but not flushed) came to this watcher from the window or the list.
    watcher.batchAfter = this.#revision();
    let group = this.#groups.get(key);
    if (group === undefined) {
      group = { prefix: watcher.prefix, members: new Set(), events: [] };
      this.#groups.set(key, group);
    }
    group.members.add(watcher);
  }

  /** Unregisters; `cutOff` when the client was closed for falling behind. */
  remove(watcher: CacheWatcher, cutOff: boolean): void {
    if (cutOff) this.#slowWatchersClosed++;
    if (!this.#watchers.delete(watcher)) return;
    if (!watcher.internal) {
      this.#eventsSentByGone += watcher.sent;
      this.#clientWatchers--;
    }
    this.#individual.delete(watcher);
    const key = watcher.groupKey;
    const group = key === undefined ? undefined : this.#groups.get(key);
    if (key === undefined || group === undefined) return;
    group.members.delete(watcher);
    if (group.members.size === 0) {
      this.#groups.delete(key);
      this.#unflushedGroups.delete(group);
    }
  }

  /** Hands a newly applied event to its watchers (written at the next flush). */
  offer(event: CachedEvent): void {
    for (const watcher of this.#individual) if (watcher.offer(event)) this.#unflushed.add(watcher);
    for (const group of this.#groups.values()) {
      if (!event.key.startsWith(group.prefix)) continue;
      group.events.push(event);
      this.#unflushedGroups.add(group);
    }
  }

  /**
   * Writes what watchers have queued: a quiet resource's events go out at once, a busy one's in batches (one
   * write per watcher per batch instead of per event).
   */
  scheduleFlush(): void {
    if ((this.#unflushed.size === 0 && this.#unflushedGroups.size === 0) || this.#flushTimer !== undefined) return;
    const spacing = Math.min(MAX_FLUSH_INTERVAL_MS, Math.max(FLUSH_INTERVAL_MS, FLUSH_COST_FACTOR * this.#lastFlushMs));
    const wait = this.#lastFlush + spacing - performance.now();
    if (wait <= 0) this.#flush();
    else this.#flushTimer = setTimeout(() => this.#flush(), wait);
  }

  flushNow(): void {
    clearTimeout(this.#flushTimer);
    this.#flush();
  }

  /** Every event up to this revision has been written (or queued in order) to every watcher. */
  deliveredRevision(): number {
    return this.#unflushedGroups.size === 0 ? this.#revision() : this.#flushedRevision;
  }

  /** A BOOKMARK at the cache's revision to every watcher that has reached it (pending batches go first). */
  bookmarkAll(): void {
    if (this.#unflushedGroups.size > 0) this.flushNow();
    const revision = this.#revision();
    for (const watcher of this.#watchers) if (revision >= watcher.fromRevision) watcher.delivery.bookmark(revision);
  }

  /** Ends every watch cleanly (the cache stops). */
  endAll(): void {
    this.flushNow();
    for (const watcher of this.#watchers) watcher.delivery.end(this.#revision());
    this.#forget();
  }

  /** Ends every watch with the error `errorFor` gives it (the history was lost: they must re-list). */
  failAll(errorFor: (watcher: CacheWatcher) => Error): void {
    for (const watcher of this.#watchers) {
      watcher.delivery.fail(errorFor(watcher));
      if (!watcher.internal) this.#eventsSentByGone += watcher.sent;
    }
    this.#forget();
  }

  stats(): FanOutStats {
    let eventsSent = this.#eventsSentByGone;
    let watchers = 0;
    for (const watcher of this.#watchers) {
      if (watcher.internal) continue;
      watchers++;
      eventsSent += watcher.sent;
    }
    return { watchers, eventsSent, slowWatchersClosed: this.#slowWatchersClosed };
  }

  /** Client watchers registered now (what `stats().watchers` counts, without walking them). */
  get clientWatchers(): number {
    return this.#clientWatchers;
  }

  #forget(): void {
    this.#clientWatchers = 0;
    this.#watchers.clear();
    this.#individual.clear();
    this.#groups.clear();
    this.#unflushedGroups.clear();
    this.#unflushed.clear();
  }

  #flush(): void {
    this.#flushTimer = undefined;
    const started = performance.now();
    this.#flushedRevision = this.#revision();
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
}

// Which etcd revisions the watch caches of one etcd have applied as events, shared by all of them, so that a quiet
// resource's cache can tell that the revisions between its own and etcd's current one were other resources' writes.
//
// Every write the apiservers make is a transaction on one key (Kubernetes writes the same way), so one revision
// belongs to one prefix. When every revision in (C, R] was applied by the caches of other prefixes, the cache at C
// has missed nothing up to R: it may serve a consistent read at R without an etcd progress answer (which etcd before
// 3.4.31 / 3.5.13 cannot give reliably, see ../etcd/watch-progress.ts). A revision that no cache saw (a write outside
// every cached prefix, etcd's compaction key, a fill that read past it) stays unknown, so a read over it goes to etcd
// as before. Caches whose prefixes contain one another are left out: their revisions are not of one prefix.

import { ConditionWaiters } from './condition-waiters';

/** How many of the newest revisions are remembered (one bit each: 128 KiB). */
const WINDOW = 1 << 20;

export class RevisionLedger {
  readonly #bits = new Uint8Array(WINDOW / 8);
  /** The highest revision recorded; bits of revisions ≤ newest − WINDOW are reused. */
  #newest = 0;
  readonly #prefixes = new Set<string>();
  readonly #excluded = new Set<string>();
  readonly #waiters = new ConditionWaiters();
  #lastRecordAt = Number.NEGATIVE_INFINITY;

  /** Takes part with `prefix`; false when another cache's prefix contains it or is contained in it (then it must not). */
  join(prefix: string): boolean {
    for (const other of this.#prefixes) {
      if (other.startsWith(prefix) || prefix.startsWith(other)) {
        this.#excluded.add(other);
        this.#excluded.add(prefix);
      }
    }
    this.#prefixes.add(prefix);
    return !this.#excluded.has(prefix);
  }

  /** When a revision was last recorded (performance.now()); -Infinity before any. */
  get lastRecordAt(): number {
    return this.#lastRecordAt;
  }

  /** Whether `prefix` takes part (it may have been excluded by a later cache's overlapping prefix). */
  includes(prefix: string): boolean {
    return this.#prefixes.has(prefix) && !this.#excluded.has(prefix);
  }

  /** Notes revisions a cache of `prefix` has applied (call after applying them). */
  record(prefix: string, revisions: Iterable<number>): void {
    if (!this.includes(prefix)) return;
    for (const revision of revisions) this.#set(revision);
    this.#lastRecordAt = performance.now();
    this.recheck();
  }

  /** Re-checks the waiters (a cache moved by other means, e.g. an etcd progress notification). */
  recheck(): void {
    this.#waiters.wake();
  }

  /** True when every revision in (from, to] was recorded and is still remembered. */
  covers(from: number, to: number): boolean {
    if (to <= from) return true;
    if (to > this.#newest || from + 1 <= this.#newest - WINDOW) return false;
    // Downwards: a gap is most likely among the newest revisions, whose events may still be on their way.
    for (let revision = to; revision > from; revision--) if (!this.#has(revision)) return false;
    return true;
  }

  /** Resolves true once (from(), to] is covered, false after `timeoutMs`. */
  waitCovers(from: () => number, to: number, timeoutMs: number): Promise<boolean> {
    return this.#waiters.wait(() => this.covers(from(), to), timeoutMs);
  }

  #set(revision: number): void {
    if (revision <= this.#newest - WINDOW) return;
    if (revision > this.#newest) {
      // The slots of the revisions passed over held revisions WINDOW older: clear them.
      const clearFrom = Math.max(this.#newest + 1, revision - WINDOW + 1);
      for (let r = clearFrom; r < revision; r++) this.#write(r, false);
      this.#newest = revision;
    }
    this.#write(revision, true);
  }

  #write(revision: number, seen: boolean): void {
    const byte = (revision % WINDOW) >> 3;
    const mask = 1 << (revision & 7);
    const old = this.#bits[byte] ?? 0;
    this.#bits[byte] = seen ? old | mask : old & ~mask;
  }

  #has(revision: number): boolean {
    return ((this.#bits[(revision % WINDOW) >> 3] ?? 0) & (1 << (revision & 7))) !== 0;
  }
}

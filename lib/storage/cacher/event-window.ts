// The watch cache's history: the most recent events in revision order, kept for at least `minAgeMs`
// and at most `capacity` events (the capacity wins, so memory stays bounded under any write rate).
import type { CachedEvent } from '../../apimachinery/watch/cached-event';

export class EventWindow {
  readonly #capacity: number;
  readonly #minAgeMs: number;
  readonly #now: () => number;
  #events: (CachedEvent | undefined)[];
  #start = 0;
  #size = 0;
  /** Every event after this revision is held (the window's lower bound). */
  #startRevision: number;

  constructor(options: { capacity: number; minAgeMs: number; startRevision: number; now?: () => number }) {
    this.#capacity = Math.max(1, options.capacity);
    this.#minAgeMs = options.minAgeMs;
    this.#now = options.now ?? Date.now;
    this.#events = new Array<CachedEvent | undefined>(Math.min(this.#capacity, 1024));
    this.#startRevision = options.startRevision;
  }

  get size(): number {
    return this.#size;
  }

  get capacity(): number {
    return this.#capacity;
  }

  /** The window can replay every event after `revision` when `revision >= startRevision`. */
  get startRevision(): number {
    return this.#startRevision;
  }

  /** Forgets everything: only events after `revision` will be known (after a re-list). */
  reset(revision: number): void {
    this.#events = new Array<CachedEvent | undefined>(Math.min(this.#capacity, 1024));
    this.#start = 0;
    this.#size = 0;
    this.#startRevision = revision;
  }

  push(event: CachedEvent): void {
    if (this.#size === this.#capacity) this.#evictOldest();
    if (this.#size === this.#events.length) this.#grow();
    this.#events[(this.#start + this.#size) % this.#events.length] = event;
    this.#size++;
    this.#evictExpired();
  }

  /** Events with a revision greater than `revision`, oldest first; undefined when some are no longer held. */
  since(revision: number): CachedEvent[] | undefined {
    if (revision < this.#startRevision) return undefined;
    let lo = 0;
    let hi = this.#size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#at(mid).revision <= revision) lo = mid + 1;
      else hi = mid;
    }
    const out: CachedEvent[] = [];
    for (let i = lo; i < this.#size; i++) out.push(this.#at(i));
    return out;
  }

  #at(i: number): CachedEvent {
    return this.#events[(this.#start + i) % this.#events.length] as CachedEvent; // i < size: always filled
  }

  #evictOldest(): void {
    const oldest = this.#at(0);
    this.#events[this.#start] = undefined;
    this.#start = (this.#start + 1) % this.#events.length;
    this.#size--;
    this.#startRevision = oldest.revision;
  }

  /** Events older than the minimum age go once newer ones exist (the newest always stays). */
  #evictExpired(): void {
    const horizon = this.#now() - this.#minAgeMs;
    while (this.#size > 1 && this.#at(0).time < horizon) this.#evictOldest();
  }

  #grow(): void {
    const larger = new Array<CachedEvent | undefined>(Math.min(this.#capacity, this.#events.length * 2));
    for (let i = 0; i < this.#size; i++) larger[i] = this.#at(i);
    this.#events = larger;
    this.#start = 0;
  }
}

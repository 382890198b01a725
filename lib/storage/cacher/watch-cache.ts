// The state of one resource as of `revision`: every object by key (compact: its bytes plus decoded metadata, see
// compact-object.ts) plus the recent event window. A fill's values and followed writes in the stored layout are kept
// undecoded (pending-object.ts) and decoded by #materialize when first read (a fill's also in slices between other work
// after replace()); a followed write's event decodes the same entry when its object is read.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { StorageChange } from '../storage';
import { withResourceVersion } from '../../apimachinery/serializers/served-json';
import { compactObject } from '../../apimachinery/serializers/compact-object';
import type { CachedEvent } from '../../apimachinery/watch/cached-event';
import { EventWindow } from './event-window';
import { PendingObject, versionOf, type CacheEntry, type FillMap } from './pending-object';

export interface WatchCacheOptions {
  capacity: number;
  minAgeMs: number;
  now?: () => number;
}

export class WatchCache {
  #objects: FillMap = new Map<string, CacheEntry>();
  /** Keys in order, rebuilt lazily after a key appears or disappears. */
  #sortedKeys: string[] | undefined = [];
  readonly #window: EventWindow;
  readonly #now: () => number;
  #revision = 0;
  /** No entry is pending: every value of the last fill is decoded. */
  #settled = true;

  constructor(options: WatchCacheOptions) {
    this.#now = options.now ?? Date.now;
    this.#window = new EventWindow({
      capacity: options.capacity,
      minAgeMs: options.minAgeMs,
      startRevision: 0,
      now: this.#now,
    });
  }

  /** The newest revision whose effects are in the cache. */
  get revision(): number {
    return this.#revision;
  }

  get window(): EventWindow {
    return this.#window;
  }

  get size(): number {
    return this.#objects.size;
  }

  /** An empty state to fill page by page (while this cache keeps serving its current one), then pass to replace(). */
  newFill(): FillMap {
    return new Map();
  }

  /**
   * Replaces the whole state with one read at `revision` (see newFill); the history restarts there. Its pending
   * entries are decoded in slices between other work; the promise resolves when that is done (or the state was
   * replaced again meanwhile), with the milliseconds it took.
   */
  replace(objects: FillMap, revision: number): Promise<number> {
    this.#objects = objects;
    this.#sortedKeys = undefined;
    this.#revision = revision;
    this.#window.reset(revision);
    this.#settled = false;
    return this.#materializeInBackground(objects);
  }

  /** Applies one change; returns the event it makes, or undefined for a change already reflected. */
  apply(change: StorageChange): CachedEvent | undefined {
    // One etcd revision can change several keys (a transaction; a lease expiring deletes every key attached to it):
    // a change at the cache's revision is applied unless the key already reflects it.
    if (change.revision < this.#revision) return undefined;
    const entry = this.#objects.get(change.key);
    if (
      change.revision === this.#revision &&
      (change.type === 'delete'
        ? entry === undefined
        : entry !== undefined && versionOf(entry) === String(change.revision))
    )
      return undefined;
    const previous = this.#previous(change.key);
    this.#revision = change.revision;
    let event: CachedEvent;
    if (change.type === 'delete') {
      if (previous === undefined) return undefined;
      this.#objects.delete(change.key);
      this.#sortedKeys = undefined;
      event = {
        type: 'DELETED',
        key: change.key,
        object: withResourceVersion(previous, String(change.revision)),
        revision: change.revision,
        time: this.#now(),
      };
    } else {
      // A deferred value stays undecoded in the cache and in its event until either is read (the same object then).
      const { key, deferred, revision } = change;
      const entry = deferred instanceof PendingObject ? deferred : compactObject(change.object);
      this.#objects.set(key, entry);
      const time = this.#now();
      if (previous === undefined) this.#sortedKeys = undefined;
      if (entry instanceof PendingObject) {
        event =
          previous === undefined
            ? {
                type: 'ADDED',
                key,
                get object(): ApiObject {
                  return entry.decode(key);
                },
                revision,
                time,
              }
            : {
                type: 'MODIFIED',
                key,
                get object(): ApiObject {
                  return entry.decode(key);
                },
                previous,
                revision,
                time,
              };
      } else {
        event =
          previous === undefined
            ? { type: 'ADDED', key, object: entry, revision, time }
            : { type: 'MODIFIED', key, object: entry, previous, revision, time };
      }
    }
    this.#window.push(event);
    return event;
  }

  /** An etcd progress notification: nothing under the prefix changed up to `revision`. */
  advance(revision: number): void {
    if (revision > this.#revision) this.#revision = revision;
  }

  get(key: string): ApiObject | undefined {
    return this.#materialize(key);
  }

  /** Objects whose key starts with `prefix`, in key order. */
  list(prefix: string, predicate?: (obj: ApiObject) => boolean): ApiObject[] {
    const keys = this.#keys();
    const out: ApiObject[] = [];
    for (let i = lowerBound(keys, prefix); i < keys.length; i++) {
      const key = keys[i] as string;
      if (!key.startsWith(prefix)) break;
      const obj = this.#materialize(key) as ApiObject;
      if (predicate === undefined || predicate(obj)) out.push(obj);
    }
    return out;
  }

  /**
   * Resolves once no entry under `prefix` is pending, decoding them SLICE_MS at a time between other work: a list of
   * many objects right after a fill then does not hold the event loop for all their decodes at once. (list decodes
   * whatever is still pending itself; this only spreads the work.)
   */
  decoded(prefix: string): Promise<void> {
    if (this.#settled) return Promise.resolve();
    const objects = this.#objects;
    const keys = this.#keys();
    let i = lowerBound(keys, prefix);
    return inSlices(() => {
      const key = keys[i++];
      if (key === undefined || !key.startsWith(prefix) || this.#objects !== objects) return false;
      this.#tryMaterialize(key);
      return true;
    });
  }

  /** The object at `key`, a pending entry decoded (and kept) first. */
  #materialize(key: string): ApiObject | undefined {
    const entry = this.#objects.get(key);
    if (!(entry instanceof PendingObject)) return entry;
    const obj = entry.decode(key);
    this.#objects.set(key, obj);
    return obj;
  }

  /** The object a change replaces; a stored value that cannot be decoded (not JSON) counts as absent and goes. */
  #previous(key: string): ApiObject | undefined {
    try {
      return this.#materialize(key);
    } catch {
      this.#objects.delete(key);
      this.#sortedKeys = undefined;
      return undefined;
    }
  }

  /**
   * Decodes the pending entries of `objects` in fill order, SLICE_MS at a time between other work, so each page's
   * response is freed once its values are decoded. Stops when the state is replaced. A value that cannot be decoded
   * stays pending (its reads fail as a read of it from etcd does).
   */
  async #materializeInBackground(objects: FillMap): Promise<number> {
    const started = performance.now();
    const keys = objects.keys();
    const done = new Promise<void>((resolve) => setImmediate(resolve)).then(() =>
      inSlices(() => {
        const next = keys.next();
        if (next.done === true || this.#objects !== objects) return false;
        this.#tryMaterialize(next.value);
        return true;
      }),
    );
    materializing = Promise.all([materializing, done]).then(() => undefined);
    await done;
    if (this.#objects === objects) this.#settled = true;
    return Math.round(performance.now() - started);
  }

  /** #materialize, leaving a value that cannot be decoded pending (its reads fail as a read of it from etcd does). */
  #tryMaterialize(key: string): void {
    try {
      this.#materialize(key);
    } catch {
      // left pending
    }
  }

  #keys(): string[] {
    if (this.#sortedKeys === undefined) this.#sortedKeys = [...this.#objects.keys()].sort(compareKeys);
    return this.#sortedKeys;
  }
}

/** Milliseconds of background decoding per turn of the event loop. */
const SLICE_MS = 10;
let materializing: Promise<void> = Promise.resolve();

/** Runs `step` until it returns false, SLICE_MS of it per turn of the event loop (the first slice now). */
function inSlices(step: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const slice = (): void => {
      const until = performance.now() + SLICE_MS;
      for (let n = 1; ; n++) {
        if (!step()) {
          resolve();
          return;
        }
        if (n % 64 === 0 && performance.now() >= until) break;
      }
      setImmediate(slice);
    };
    slice();
  });
}

/** Resolves when every fill so far is decoded (its pages' responses freed): for benchmarks and tests. */
export function fillsSettled(): Promise<void> {
  return materializing;
}

/** etcd orders keys by bytes; for these keys (UTF-8) code-unit order agrees except beyond the BMP, which names cannot hold. */
function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function lowerBound(keys: string[], prefix: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((keys[mid] as string) < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

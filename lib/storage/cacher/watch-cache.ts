// The state of one resource as of `revision`: every object by key (compact: its bytes plus decoded metadata, see
// compact-object.ts) plus the recent event window.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { StorageChange } from '../storage';
import { withResourceVersion } from '../../apimachinery/serializers/served-json';
import { compactObject } from '../../apimachinery/serializers/compact-object';
import type { CachedEvent } from '../../apimachinery/watch/cached-event';
import { EventWindow } from './event-window';

export interface WatchCacheOptions {
  capacity: number;
  minAgeMs: number;
  now?: () => number;
}

export class WatchCache {
  #objects = new Map<string, ApiObject>();
  /** Keys in order, rebuilt lazily after a key appears or disappears. */
  #sortedKeys: string[] | undefined = [];
  readonly #window: EventWindow;
  readonly #now: () => number;
  #revision = 0;

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
  newFill(): Map<string, ApiObject> {
    return new Map();
  }

  /** Replaces the whole state with one read at `revision` (see newFill); the history restarts there. */
  replace(objects: Map<string, ApiObject>, revision: number): void {
    this.#objects = objects;
    this.#sortedKeys = undefined;
    this.#revision = revision;
    this.#window.reset(revision);
  }

  /** Applies one change; returns the event it makes, or undefined for a change already reflected. */
  apply(change: StorageChange): CachedEvent | undefined {
    // One etcd revision can change several keys (a transaction; a lease expiring deletes every key attached to it):
    // a change at the cache's revision is applied unless the key already reflects it.
    if (change.revision < this.#revision) return undefined;
    const previous = this.#objects.get(change.key);
    if (
      change.revision === this.#revision &&
      (change.type === 'delete'
        ? previous === undefined
        : previous?.metadata.resourceVersion === String(change.revision))
    )
      return undefined;
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
      const object = compactObject(change.object);
      this.#objects.set(change.key, object);
      if (previous === undefined) {
        this.#sortedKeys = undefined;
        event = { type: 'ADDED', key: change.key, object, revision: change.revision, time: this.#now() };
      } else {
        event = {
          type: 'MODIFIED',
          key: change.key,
          object,
          previous,
          revision: change.revision,
          time: this.#now(),
        };
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
    return this.#objects.get(key);
  }

  /** Objects whose key starts with `prefix`, in key order. */
  list(prefix: string, predicate?: (obj: ApiObject) => boolean): ApiObject[] {
    const keys = this.#keys();
    const out: ApiObject[] = [];
    for (let i = lowerBound(keys, prefix); i < keys.length; i++) {
      const key = keys[i] as string;
      if (!key.startsWith(prefix)) break;
      const obj = this.#objects.get(key) as ApiObject;
      if (predicate === undefined || predicate(obj)) out.push(obj);
    }
    return out;
  }

  #keys(): string[] {
    if (this.#sortedKeys === undefined) this.#sortedKeys = [...this.#objects.keys()].sort(compareKeys);
    return this.#sortedKeys;
  }
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

// A stored value not decoded yet: a watch cache fill keeps each value as it came (a view of the page's range
// response), a followed write keeps its own copy of the value, each with its resourceVersion, and the object is
// decoded (a compact object on bytes of its own) when first read. The first decode is kept: every reader of the entry
// and of the watch event that brought it gets the same object, and the bytes are let go.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { DeferredObject, StorageChange } from '../storage';
import { decodeCompact } from './codec';

export class PendingObject implements DeferredObject {
  #value: Buffer | undefined;
  #object: ApiObject | undefined;

  constructor(
    /** The stored bytes; a view of a larger response lives until every view of it is decoded. */
    value: Buffer,
    /** etcd's mod revision of the value. */
    readonly resourceVersion: string,
  ) {
    this.#value = value;
  }

  /** The object: compact on bytes of its own, or decoded in full in another layout; throws while undecodable. */
  decode(key: string): ApiObject {
    if (this.#object === undefined) {
      this.#object = decodeCompact(key, this.#value as Buffer, this.resourceVersion);
      this.#value = undefined;
    }
    return this.#object;
  }
}

/** A put of `value` (kept as given) decoded when its `object` is first read, or when the cache entry made of it is. */
export function deferredPut(key: string, value: Buffer, resourceVersion: string, revision: number): StorageChange {
  const deferred = new PendingObject(value, resourceVersion);
  return {
    type: 'put',
    key,
    revision,
    deferred,
    get object(): ApiObject {
      return deferred.decode(key);
    },
  };
}

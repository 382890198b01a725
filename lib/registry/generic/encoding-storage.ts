// Storage of a resource whose objects are written to etcd in another version than the one its strategies use
// (Kubernetes 1.26 stores FlowSchema and PriorityLevelConfiguration as v1beta2 while v1beta3 is served first):
// objects are converted on their way in and out, so everything above sees the hub version only (stored bytes
// from getJson stay as they are: the serving paths compare their apiVersion with the one asked for).
import type { ApiObject } from '../../apimachinery/meta/types';
import { convertObject } from '../../apis/conversion';
import type { KindConversions } from '../../apis/conversion';
import type {
  ChangeSink,
  DeleteCheck,
  PutOptions,
  GetOptions,
  ListOptions,
  ListResult,
  Storage,
  UpdateFunc,
  WatchHandle,
  WatchSink,
} from '../../storage/storage';
import { ForwardingStorage } from '../../storage/forwarding-storage';

export interface StorageEncoding {
  group: string;
  kind: string;
  conversions: KindConversions;
  /** The version written to etcd. */
  version: string;
}

export class EncodingStorage extends ForwardingStorage {
  readonly #encoding: StorageEncoding;

  constructor(storage: Storage, encoding: StorageEncoding) {
    super(storage);
    this.#encoding = encoding;
  }

  /** Stored form → the hub (objects already in the hub form are returned as they are). */
  #decoded = (obj: ApiObject): ApiObject => {
    const { group, kind, conversions } = this.#encoding;
    return convertObject(conversions, obj, group, kind, conversions.hub);
  };

  #encoded(obj: ApiObject): ApiObject {
    const { group, kind, conversions, version } = this.#encoding;
    return convertObject(conversions, obj, group, kind, version);
  }

  override async get(key: string, options?: GetOptions): Promise<ApiObject> {
    return this.#decoded(await this.inner.get(key, options));
  }

  override async list(prefix: string, options?: ListOptions): Promise<ListResult> {
    const predicate = options?.predicate;
    const listed = await this.inner.list(
      prefix,
      predicate ? { ...options, predicate: (obj) => predicate(this.#decoded(obj)) } : options,
    );
    return { ...listed, items: listed.items.map(this.#decoded) };
  }

  override async create(key: string, obj: ApiObject, options?: PutOptions): Promise<ApiObject> {
    return this.#decoded(await this.inner.create(key, this.#encoded(obj), options));
  }

  override async guaranteedUpdate(
    key: string,
    update: UpdateFunc,
    options?: PutOptions,
  ): Promise<{ object: ApiObject; deleted: boolean }> {
    const result = await this.inner.guaranteedUpdate(
      key,
      async (current) => {
        const next = await update(this.#decoded(current));
        return { ...next, object: this.#encoded(next.object) };
      },
      options,
    );
    return { ...result, object: this.#decoded(result.object) };
  }

  override async delete(key: string, check?: DeleteCheck): Promise<ApiObject> {
    return this.#decoded(await this.inner.delete(key, check ? (current) => check(this.#decoded(current)) : undefined));
  }

  override watch(prefix: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle> {
    return this.inner.watch(prefix, afterRevision, {
      event: (event) =>
        sink.event(
          event.type === 'DELETED'
            ? { ...event, object: this.#decoded(event.object) }
            : {
                ...event,
                object: this.#decoded(event.object),
                ...(event.previous ? { previous: this.#decoded(event.previous) } : {}),
              },
        ),
      error: (err) => sink.error(err),
    });
  }

  override watchChanges(prefix: string, afterRevision: number, sink: ChangeSink): Promise<WatchHandle> {
    return this.inner.watchChanges(prefix, afterRevision, {
      changes: (batch) =>
        sink.changes(
          // Built anew, not spread: a deferred stored value must not reach the cache beside the converted object.
          batch.map((change) =>
            change.type === 'put'
              ? { type: 'put', key: change.key, object: this.#decoded(change.object), revision: change.revision }
              : change,
          ),
        ),
      progress: (revision) => sink.progress(revision),
      error: (err) => sink.error(err),
    });
  }
}

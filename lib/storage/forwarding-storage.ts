// A Storage that hands every call to another one: storage wrappers (dry-run, a resource's etcd encoding, the watch
// cache) extend it and override only what they change. The reads by resourceVersion are answered over this wrapper's
// own get/list/watch (so a wrapper that converts what it reads converts them too), except knownObject, forwarded.
import type { ApiObject } from '../apimachinery/meta/types';
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
} from './storage';
import { ReadsFromStorage } from './reads-from-storage';

export class ForwardingStorage extends ReadsFromStorage implements Storage {
  constructor(protected readonly inner: Storage) {
    super();
  }

  override get(key: string, options?: GetOptions): Promise<ApiObject> {
    return this.inner.get(key, options);
  }

  getJson(key: string): Promise<{ json: string; resourceVersion: string }> {
    return this.inner.getJson(key);
  }

  override list(prefix: string, options?: ListOptions): Promise<ListResult> {
    return this.inner.list(prefix, options);
  }

  create(key: string, obj: ApiObject, options?: PutOptions): Promise<ApiObject> {
    return this.inner.create(key, obj, options);
  }

  guaranteedUpdate(
    key: string,
    update: UpdateFunc,
    options?: PutOptions,
  ): Promise<{ object: ApiObject; deleted: boolean }> {
    return this.inner.guaranteedUpdate(key, update, options);
  }

  delete(key: string, check?: DeleteCheck): Promise<ApiObject> {
    return this.inner.delete(key, check);
  }

  override watch(prefix: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle> {
    return this.inner.watch(prefix, afterRevision, sink);
  }

  watchChanges(prefix: string, afterRevision: number, sink: ChangeSink): Promise<WatchHandle> {
    return this.inner.watchChanges(prefix, afterRevision, sink);
  }

  override currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  requestWatchProgress(): boolean {
    return this.inner.requestWatchProgress?.() ?? false;
  }

  count(prefix: string): Promise<number> {
    return this.inner.count(prefix);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  override knownObject(key: string, resourceVersion: string): ApiObject | undefined {
    return this.inner.knownObject(key, resourceVersion);
  }

  /** The wrapped storage belongs to whoever created it. */
  async close(): Promise<void> {}
}

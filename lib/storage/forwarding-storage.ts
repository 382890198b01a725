// A Storage that hands every call to another one: storage wrappers (dry-run, a resource's etcd encoding)
// extend it and override only what they change.
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

export class ForwardingStorage implements Storage {
  constructor(protected readonly inner: Storage) {}

  get(key: string, options?: GetOptions): Promise<ApiObject> {
    return this.inner.get(key, options);
  }

  getJson(key: string): Promise<{ json: string; resourceVersion: string }> {
    return this.inner.getJson(key);
  }

  list(prefix: string, options?: ListOptions): Promise<ListResult> {
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

  watch(prefix: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle> {
    return this.inner.watch(prefix, afterRevision, sink);
  }

  watchChanges(prefix: string, afterRevision: number, sink: ChangeSink): Promise<WatchHandle> {
    return this.inner.watchChanges(prefix, afterRevision, sink);
  }

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  count(prefix: string): Promise<number> {
    return this.inner.count(prefix);
  }

  ping(): Promise<void> {
    return this.inner.ping();
  }

  /** The wrapped storage belongs to whoever created it. */
  async close(): Promise<void> {}
}

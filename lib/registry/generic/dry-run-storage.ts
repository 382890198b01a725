// DryRunStorage: runs every check a write would, against the real state, and persists nothing.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { ChangeSink, DeleteCheck, GetOptions, ListOptions, ListResult, Storage, UpdateFunc, WatchHandle, WatchSink } from '../../storage/storage';
import { StorageError, isStorageError } from '../../storage/storage-error';

export class DryRunStorage implements Storage {
  readonly #storage: Storage;

  constructor(storage: Storage) {
    this.#storage = storage;
  }

  get(key: string, options?: GetOptions): Promise<ApiObject> {
    return this.#storage.get(key, options);
  }

  getJson(key: string): Promise<{ json: string; resourceVersion: string }> {
    return this.#storage.getJson(key);
  }

  list(prefix: string, options?: ListOptions): Promise<ListResult> {
    return this.#storage.list(prefix, options);
  }

  async create(key: string, obj: ApiObject): Promise<ApiObject> {
    try {
      await this.#storage.get(key);
    } catch (err) {
      if (isStorageError(err, 'KeyNotFound')) return obj;
      throw err;
    }
    throw new StorageError('KeyExists', key, `key exists: ${key}`);
  }

  async guaranteedUpdate(key: string, update: UpdateFunc): Promise<{ object: ApiObject; deleted: boolean }> {
    const current = await this.#storage.get(key);
    const result = await update(structuredClone(current));
    // The resourceVersion is left at its current value: nothing was written.
    return { object: { ...result.object, metadata: { ...result.object.metadata, resourceVersion: current.metadata.resourceVersion } }, deleted: result.delete === true };
  }

  async delete(key: string, check?: DeleteCheck): Promise<ApiObject> {
    const current = await this.#storage.get(key);
    check?.(current);
    return current;
  }

  watch(prefix: string, afterRevision: number, sink: WatchSink): Promise<WatchHandle> {
    return this.#storage.watch(prefix, afterRevision, sink);
  }

  watchChanges(prefix: string, afterRevision: number, sink: ChangeSink): Promise<WatchHandle> {
    return this.#storage.watchChanges(prefix, afterRevision, sink);
  }

  currentRevision(): Promise<number> {
    return this.#storage.currentRevision();
  }

  count(prefix: string): Promise<number> {
    return this.#storage.count(prefix);
  }

  ping(): Promise<void> {
    return this.#storage.ping();
  }

  async close(): Promise<void> {}
}

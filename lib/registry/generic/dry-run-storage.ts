// DryRunStorage: runs every check a write would, against the real state, and persists nothing.
import type { ApiObject } from '../../apimachinery/meta/types';
import { goShape } from '../../apimachinery/serializers/go-shape';
import type { DeleteCheck, UpdateFunc } from '../../storage/storage';
import { ForwardingStorage } from '../../storage/forwarding-storage';
import { StorageError, isStorageError } from '../../storage/storage-error';

export class DryRunStorage extends ForwardingStorage {
  override async create(key: string, obj: ApiObject): Promise<ApiObject> {
    try {
      await this.inner.get(key);
    } catch (err) {
      // What a real create would have stored (see storedForm).
      if (isStorageError(err, 'KeyNotFound')) return goShape(obj);
      throw err;
    }
    throw new StorageError('KeyExists', key, `key exists: ${key}`);
  }

  override async guaranteedUpdate(key: string, update: UpdateFunc): Promise<{ object: ApiObject; deleted: boolean }> {
    const current = await this.inner.get(key);
    const result = await update(structuredClone(current));
    // The resourceVersion is left at its current value: nothing was written.
    const object = goShape(result.object);
    return {
      object: { ...object, metadata: { ...object.metadata, resourceVersion: current.metadata.resourceVersion } },
      deleted: result.delete === true,
    };
  }

  override async delete(key: string, check?: DeleteCheck): Promise<ApiObject> {
    const current = await this.inner.get(key);
    check?.(current);
    return current;
  }
}

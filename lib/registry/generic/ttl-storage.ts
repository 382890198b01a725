// Storage of a resource whose objects expire (events, --event-ttl): every create and update attaches the key to
// an etcd lease of the TTL (Kubernetes' registry Store.TTLFunc), so etcd deletes it and watches see the DELETED.
import type { ApiObject } from '../../apimachinery/meta/types';
import type { PutOptions, UpdateFunc } from '../../storage/storage';
import type { Storage } from '../../storage/storage';
import { ForwardingStorage } from '../../storage/forwarding-storage';

export class TtlStorage extends ForwardingStorage {
  readonly #options: PutOptions;

  constructor(storage: Storage, ttlSeconds: number) {
    super(storage);
    this.#options = { leaseTtlSeconds: ttlSeconds };
  }

  override create(key: string, obj: ApiObject): Promise<ApiObject> {
    return this.inner.create(key, obj, this.#options);
  }

  override guaranteedUpdate(key: string, update: UpdateFunc): Promise<{ object: ApiObject; deleted: boolean }> {
    return this.inner.guaranteedUpdate(key, update, this.#options);
  }
}

// Coalesces concurrent linearizable reads of single keys into one etcd transaction of range requests.
// Each read still starts after its request arrived and is served by a quorum read, so it stays "Most Recent";
// under load one gRPC call serves many GETs, which is where the etcd client spends its CPU.
import type { Etcd3 } from 'etcd3';
import { retryingRead, toStorageError } from './etcd-errors';
import { rangeOne, txn, type DecodedKv } from './kv-unary';

/** etcd's default --max-txn-ops. */
const MAX_TXN_OPS = 128;

interface PendingRead {
  key: string;
  resolve(kv: DecodedKv | undefined): void;
  reject(err: unknown): void;
}

export class GetBatcher {
  readonly #client: Etcd3;
  #pending: PendingRead[] = [];
  #scheduled = false;

  constructor(client: Etcd3) {
    this.#client = client;
  }

  /** The key's current key-value, or undefined when absent. */
  read(key: string): Promise<DecodedKv | undefined> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ key, resolve, reject });
      if (!this.#scheduled) {
        this.#scheduled = true;
        setImmediate(() => this.#flush());
      }
    });
  }

  #flush(): void {
    const batch = this.#pending.splice(0, MAX_TXN_OPS);
    this.#scheduled = this.#pending.length > 0;
    if (this.#scheduled) setImmediate(() => this.#flush());
    void this.#execute(batch);
  }

  async #execute(batch: PendingRead[]): Promise<void> {
    try {
      if (batch.length === 1) {
        const only = batch[0] as PendingRead;
        only.resolve(await retryingRead(() => rangeOne(this.#client, Buffer.from(only.key))));
        return;
      }
      const success = batch.map((r) => ({ requestRange: { key: Buffer.from(r.key) } }));
      const res = await retryingRead(() => txn(this.#client, { success }));
      batch.forEach((r, i) => r.resolve(res.responses[i]?.responseRange?.kvs[0]));
    } catch (err) {
      for (const r of batch) r.reject(toStorageError(err, r.key));
    }
  }
}

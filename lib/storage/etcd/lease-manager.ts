// Leases for keys that expire (events): one etcd lease is shared by the writes of a short window, as
// k8s.io/apiserver's etcd3 lease manager does, so expiring objects cost no lease per write and no sweeper.
import type { Etcd3 } from 'etcd3';

/** Kubernetes' defaults: reuse a lease for up to 5% of the TTL, at most 60 s, and at most 1000 objects. */
const REUSE_DURATION_PERCENT = 0.05;
const MAX_REUSE_DURATION_SECONDS = 60;
const MAX_ATTACHED_OBJECTS = 1000;

export class LeaseManager {
  readonly #client: Etcd3;
  #leaseId = '0';
  #expiresAtMs = 0;
  #attached = 0;
  #granting: Promise<string> | undefined;

  constructor(client: Etcd3) {
    this.#client = client;
  }

  /**
   * A lease that lives at least `ttlSeconds` from now: the previous one when it expires no earlier than that
   * and no later than the reuse window past it, else a new one granted for the TTL plus the reuse window.
   */
  async leaseFor(ttlSeconds: number): Promise<string> {
    const now = Date.now();
    const reuseSeconds = Math.min(Math.trunc(REUSE_DURATION_PERCENT * ttlSeconds), MAX_REUSE_DURATION_SECONDS);
    const valid = now + ttlSeconds * 1000 < this.#expiresAtMs;
    const sufficient = now + (ttlSeconds + reuseSeconds) * 1000 > this.#expiresAtMs;
    this.#attached += 1;
    if (valid && sufficient && this.#attached <= MAX_ATTACHED_OBJECTS) return this.#leaseId;
    // Concurrent writes wait for the one grant under way instead of each granting their own.
    if (this.#granting) return this.#granting;
    const grantTtl = ttlSeconds + reuseSeconds;
    this.#granting = this.#client.leaseClient
      .leaseGrant({ TTL: grantTtl, ID: 0 })
      .then((res) => {
        this.#leaseId = res.ID;
        this.#expiresAtMs = now + grantTtl * 1000;
        this.#attached = 1;
        return res.ID;
      })
      .finally(() => {
        this.#granting = undefined;
      });
    return this.#granting;
  }
}

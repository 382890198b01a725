// Leader election across replicas: the leader is whoever holds an etcd key bound to its own lease.
import type { Etcd3, Lease } from 'etcd3';
import type { Logger } from 'pino';

/** Kubernetes' leader election retries every 2 s; never slower than a third of the TTL. */
const MAX_RETRY_PERIOD_MS = 2000;

/**
 * One leader at a time: a candidate becomes leader by creating `name` (create-if-absent transaction)
 * bound to its lease. The key disappears when the leader revokes its lease (stop) or the lease
 * expires (crash, partition), and the next candidate's attempt succeeds. A leader steps down as soon
 * as it cannot prove ownership: key gone or bound to another lease, lease lost, or no successful
 * keepalive for two thirds of the TTL (so it stops before etcd can expire the lease and elect another).
 */
export class LeaderElection {
  readonly #client: Etcd3;
  readonly #key: string;
  readonly #identity: string;
  readonly #log: Logger;
  readonly #ttlSeconds: number;
  readonly #retryMs: number;
  readonly #renewDeadlineMs: number;
  #lease: Lease | undefined;
  #lastRenew = 0;
  #leading = false;
  #stopped = true;
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<void> = Promise.resolve();
  #onStarted: () => void = () => {};
  #onStopped: () => void = () => {};

  constructor(client: Etcd3, name: string, identity: string, log: Logger, ttlSeconds = 15) {
    if (!Number.isInteger(ttlSeconds) || ttlSeconds < 1)
      throw new RangeError(`leader election TTL must be a whole number of seconds ≥ 1, got ${ttlSeconds}`);
    this.#client = client;
    this.#key = name;
    this.#identity = identity;
    this.#log = log.child({ lease: name, identity });
    this.#ttlSeconds = ttlSeconds;
    this.#retryMs = Math.min(MAX_RETRY_PERIOD_MS, (ttlSeconds * 1000) / 3);
    this.#renewDeadlineMs = (ttlSeconds * 1000 * 2) / 3;
  }

  get isLeader(): boolean {
    return this.#leading;
  }

  /** Campaigns until stop(); the callbacks alternate, starting with onStartedLeading. */
  start(onStartedLeading: () => void, onStoppedLeading: () => void): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#onStarted = onStartedLeading;
    this.#onStopped = onStoppedLeading;
    this.#schedule(0);
  }

  /** Steps down and revokes the lease, which deletes the key so another replica takes over at its next attempt. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#inFlight;
    this.#stepDown('stopped');
    await this.#dropLease();
  }

  #schedule(delayMs: number): void {
    if (this.#stopped) return;
    this.#timer = setTimeout(() => {
      this.#inFlight = this.#tick().finally(() => this.#schedule(this.#retryMs));
    }, delayMs);
    this.#timer.unref();
  }

  async #tick(): Promise<void> {
    try {
      if (this.#leading) await this.#confirm();
      else await this.#tryAcquire();
    } catch (err) {
      this.#log.warn({ err }, 'leader election round failed');
      // Without contact to etcd a leader cannot know it still leads once the renew deadline passes.
      if (this.#leading && Date.now() - this.#lastRenew > this.#renewDeadlineMs) {
        this.#stepDown('renew deadline passed');
        await this.#dropLease();
      }
    }
  }

  async #tryAcquire(): Promise<void> {
    const lease = this.#currentLease();
    const leaseId = await lease.grant();
    const result = await this.#client
      .if(this.#key, 'Create', '==', 0)
      .then(this.#client.put(this.#key).value(this.#identity).lease(leaseId))
      .else(this.#client.get(this.#key))
      .commit();
    // A lost reply to an earlier successful attempt leaves the key bound to our own lease: that is leadership too.
    const holder = result.responses[0]?.response_range?.kvs[0];
    const ours = result.succeeded || (holder !== undefined && String(holder.lease) === leaseId);
    if (!ours || lease !== this.#lease) return;
    if (this.#stopped) return; // stop() releases the lease, and the key with it
    this.#lastRenew = Date.now();
    this.#leading = true;
    this.#log.info('started leading');
    this.#call(this.#onStarted, 'onStartedLeading');
  }

  async #confirm(): Promise<void> {
    if (Date.now() - this.#lastRenew > this.#renewDeadlineMs) {
      this.#stepDown('renew deadline passed');
      await this.#dropLease();
      return;
    }
    const leaseId = await this.#lease?.grant();
    const kv = (await this.#client.get(this.#key).exec()).kvs[0];
    if (kv === undefined || String(kv.lease) !== leaseId) {
      this.#stepDown('election key no longer bound to our lease');
      await this.#dropLease();
    }
  }

  /** The lease campaigns and leadership hang on, granted once and kept alive until dropped. */
  #currentLease(): Lease {
    if (this.#lease) return this.#lease;
    const lease = this.#client.lease(this.#ttlSeconds);
    this.#lease = lease;
    this.#lastRenew = Date.now();
    lease.on('keepaliveSucceeded', () => {
      if (lease === this.#lease) this.#lastRenew = Date.now();
    });
    lease.on('lost', (err) => {
      if (lease !== this.#lease) return;
      this.#lease = undefined;
      this.#log.warn({ err }, 'election lease lost');
      this.#stepDown('lease lost');
    });
    return lease;
  }

  async #dropLease(): Promise<void> {
    const lease = this.#lease;
    this.#lease = undefined;
    if (!lease) return;
    try {
      await lease.revoke();
    } catch (err) {
      // The lease then expires on its own within the TTL.
      this.#log.warn({ err }, 'revoking the election lease failed');
    }
  }

  #stepDown(why: string): void {
    if (!this.#leading) return;
    this.#leading = false;
    this.#log.info({ why }, 'stopped leading');
    this.#call(this.#onStopped, 'onStoppedLeading');
  }

  #call(callback: () => void, what: string): void {
    try {
      callback();
    } catch (err) {
      this.#log.error({ err }, `${what} threw`);
    }
  }
}

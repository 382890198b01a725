// Compactor: compacts etcd's history every interval, once per interval across all replicas sharing the etcd (kube-apiserver's compact.go).
import type { Etcd3 } from 'etcd3';
import type { Logger } from 'pino';
import { isStorageError } from '../storage-error';
import { etcdWriteOnce } from './etcd-errors';

/** The raw key (no `/registry` prefix) on which every kube-apiserver's compactor coordinates. */
export const COMPACT_REV_KEY = 'compact_rev_key';
/** setTimeout's largest delay; longer intervals are waited in several steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface CompactionRound {
  /** This replica's transaction advanced `compact_rev_key`: it is the one compacting this interval. */
  won: boolean;
  /** The revision this round compacted etcd's history to; absent when it only recorded (first round, lost, or already compacted). */
  compactedRevision?: number;
}

/**
 * Every interval one transaction on `compact_rev_key`: if its version is still the one this replica saw last
 * round, put the revision seen last round and compact to it; otherwise adopt the stored version and try again
 * next interval. Replicas thus compact once per interval in total, and at least one interval of history is kept
 * (the first round only records).
 */
export class Compactor {
  readonly #client: Etcd3;
  readonly #intervalMs: number;
  readonly #log: Logger;
  /** Version of `compact_rev_key` seen last round (kube-apiserver's "compactTime"). */
  #version = 0;
  /** etcd's revision at last round: what the next winning round compacts to. */
  #revision = 0;
  #timer: NodeJS.Timeout | undefined;
  #stopped = true;
  #queue: Promise<void> = Promise.resolve();

  constructor(client: Etcd3, intervalMs: number, log: Logger) {
    if (!(intervalMs > 0) || !Number.isFinite(intervalMs))
      throw new RangeError(`compaction interval must be a positive number of milliseconds, got ${intervalMs}`);
    this.#client = client;
    this.#intervalMs = intervalMs;
    this.#log = log;
  }

  /** Runs a round every interval until stop(); the first one an interval from now. */
  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#schedule();
  }

  /** No further rounds; resolves once a round under way has finished (call before closing the etcd client). */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#queue;
  }

  /** One round now, after any round under way; rejects when etcd fails (state kept as kube-apiserver keeps it). */
  compactNow(): Promise<CompactionRound> {
    const round = this.#queue.then(() => this.#round());
    this.#queue = round.then(
      () => undefined,
      () => undefined,
    );
    return round;
  }

  #schedule(): void {
    const due = Date.now() + this.#intervalMs;
    const arm = (): void => {
      if (this.#stopped) return;
      this.#timer = setTimeout(
        () => (Date.now() >= due ? this.#tick() : arm()),
        Math.min(Math.max(due - Date.now(), 0), MAX_TIMER_MS),
      );
      this.#timer.unref();
    };
    arm();
  }

  #tick(): void {
    this.#timer = undefined;
    void this.compactNow()
      .catch((err: unknown) => this.#log.warn({ err, key: COMPACT_REV_KEY }, 'etcd compaction failed'))
      .finally(() => this.#schedule());
  }

  async #round(): Promise<CompactionRound> {
    const compactTo = this.#revision;
    const txn = await etcdWriteOnce(COMPACT_REV_KEY, () =>
      this.#client
        .if(COMPACT_REV_KEY, 'Version', '==', this.#version)
        .then(this.#client.put(COMPACT_REV_KEY).value(String(compactTo)))
        .else(this.#client.get(COMPACT_REV_KEY))
        .commit(),
    );
    this.#revision = Number(txn.header.revision);
    if (!txn.succeeded) {
      // Another replica advanced the key (or it was deleted): follow it and try next interval.
      const stored = txn.responses[0]?.response_range?.kvs[0];
      this.#version = stored ? Number(stored.version) : 0;
      this.#log.debug({ version: this.#version }, 'etcd compaction done elsewhere this interval');
      return { won: false };
    }
    this.#version += 1;
    if (compactTo === 0) return { won: true }; // kube-apiserver does not compact on bootstrap
    try {
      await etcdWriteOnce(COMPACT_REV_KEY, () => this.#client.kv.compact({ revision: compactTo, physical: false }));
    } catch (err) {
      // At or below the revision etcd is already compacted to: another replica or `etcdctl compact` got there first.
      if (isStorageError(err, 'Compacted')) {
        this.#log.debug({ revision: compactTo }, 'etcd already compacted past this revision');
        return { won: true };
      }
      throw err;
    }
    this.#log.info({ revision: compactTo }, 'compacted etcd');
    return { won: true, compactedRevision: compactTo };
  }
}

// A controller's queue of object names: each is synced one at a time, a name queued twice is synced once.

export class WorkQueue {
  readonly #pending = new Set<string>();
  readonly #sync: (name: string) => Promise<void>;
  readonly #onError: (name: string, err: unknown) => void;
  readonly #paused: () => boolean;
  #draining = false;

  /** `paused` is asked before each name (a stopped controller leaves the rest queued or cleared). */
  constructor(
    sync: (name: string) => Promise<void>,
    onError: (name: string, err: unknown) => void,
    paused: () => boolean,
  ) {
    this.#sync = sync;
    this.#onError = onError;
    this.#paused = paused;
  }

  /** Queues names and starts working if idle. */
  add(...names: string[]): void {
    for (const name of names) this.#pending.add(name);
    void this.drain();
  }

  clear(): void {
    this.#pending.clear();
  }

  /** Works until the queue is empty; returns at once when another call is already working. */
  async drain(): Promise<void> {
    if (this.#draining) return;
    this.#draining = true;
    try {
      while (!this.#paused() && this.#pending.size > 0) {
        const [name] = this.#pending;
        if (name === undefined) break;
        this.#pending.delete(name);
        try {
          await this.#sync(name);
        } catch (err) {
          this.#onError(name, err);
        }
      }
    } finally {
      this.#draining = false;
    }
  }
}

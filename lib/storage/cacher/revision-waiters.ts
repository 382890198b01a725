// Callers waiting for a watch cache to reach a revision, each with its own time limit.

interface Waiter {
  revision: number;
  resolve: () => void;
}

export class RevisionWaiters {
  #waiters: Waiter[] = [];

  /** `reached(revision)`: whether the cache now holds every change up to `revision`. */
  constructor(private readonly reached: (revision: number) => boolean) {}

  /** Resolves true once `revision` is reached, false after `timeoutMs`. */
  wait(revision: number, timeoutMs: number): Promise<boolean> {
    if (this.reached(revision)) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const waiter = {
        revision,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.#waiters = this.#waiters.filter((w) => w !== waiter);
        resolve(false);
      }, timeoutMs);
      this.#waiters.push(waiter);
    });
  }

  /** Resolves the waiters whose revision the cache has reached (call after it moved). */
  wake(): void {
    if (this.#waiters.length === 0) return;
    const waiting: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (this.reached(waiter.revision)) waiter.resolve();
      else waiting.push(waiter);
    }
    this.#waiters = waiting;
  }
}

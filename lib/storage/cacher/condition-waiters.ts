// Callers waiting, each with its own time limit, until a condition holds (a cache reached a revision, a range of
// revisions was accounted for); the owner calls wake() whenever the condition may have become true.

interface Waiter {
  holds: () => boolean;
  resolve: () => void;
}

export class ConditionWaiters {
  #waiters: Waiter[] = [];

  /** Resolves true once `holds()` is true (checked now and at each wake()), false after `timeoutMs`. */
  wait(holds: () => boolean, timeoutMs: number): Promise<boolean> {
    if (holds()) return Promise.resolve(true);
    return new Promise<boolean>((resolve) => {
      const waiter = {
        holds,
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

  /** Resolves the waiters whose condition now holds. */
  wake(): void {
    if (this.#waiters.length === 0) return;
    const waiting: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (waiter.holds()) waiter.resolve();
      else waiting.push(waiter);
    }
    this.#waiters = waiting;
  }
}

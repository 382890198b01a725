// The time-budgeted request intake in front of API Priority and Fairness's admission. Node runs the request events
// of every socket that one poll of the event loop found ready, one after the other, before it looks at the listening
// socket again; under a storm of thousands of requests that pass grows to hundreds of milliseconds, and a health
// probe or an administrator's request waits in the kernel's accept queue all that time. So each pass does only the
// cheap part of a request at once (Node's parsing, authentication, classification; exempt requests are served at
// once), for a few milliseconds; a request arriving after that, or while earlier ones still wait, is put into a FIFO
// and admitted (or rejected with its 429) from setImmediate in slices of the same few milliseconds, so the loop
// returns to accepting and reading between slices. With nothing waiting a request goes straight through.
import type { ServerResponse } from 'node:http';

/** The synchronous work one event-loop pass (or one slice of the FIFO) does before it lets I/O in again. */
export const INTAKE_BUDGET_MS = 4;

interface Waiting {
  readonly res: ServerResponse;
  readonly run: (gone: boolean) => void;
  gone: boolean;
  readonly onClose: () => void;
}

export class RequestIntake {
  /** When the current budget window opened (performance.now()), -1 when none is open. */
  #windowStart = -1;
  /** Requests that already hold their seats (dispatched from an APF queue): they go first. */
  #resumed: Waiting[] = [];
  #arrivals: (Waiting | undefined)[] = [];
  #arrivalsHead = 0;
  #drainScheduled = false;
  readonly #closeWindow = (): void => {
    this.#windowStart = -1;
  };
  readonly #drain = (): void => this.#drainSlice();

  constructor(readonly budgetMs: number = INTAKE_BUDGET_MS) {}

  /** How many requests wait (for tests and metrics). */
  get waiting(): number {
    return this.#resumed.length + this.#arrivals.length - this.#arrivalsHead;
  }

  /** true: go on at once (nothing waits and this pass has budget left); false: `defer` the rest. */
  mayRunNow(): boolean {
    if (this.#resumed.length > 0 || this.#arrivals.length > this.#arrivalsHead) return false;
    return this.#withinBudget();
  }

  /**
   * Runs `run` from the FIFO when its turn comes, with `gone` true if the client closed the connection meanwhile.
   * `resumed`: the request holds seats already, so it goes before the arrivals.
   */
  defer(res: ServerResponse, run: (gone: boolean) => void, resumed = false): void {
    const entry: Waiting = {
      res,
      run,
      gone: false,
      onClose: () => {
        entry.gone = true;
      },
    };
    res.once('close', entry.onClose);
    (resumed ? this.#resumed : this.#arrivals).push(entry);
    this.#scheduleDrain();
  }

  #withinBudget(): boolean {
    const now = performance.now();
    if (this.#windowStart < 0) {
      this.#windowStart = now;
      setImmediate(this.#closeWindow);
      return true;
    }
    return now - this.#windowStart < this.budgetMs;
  }

  #scheduleDrain(): void {
    if (this.#drainScheduled) return;
    this.#drainScheduled = true;
    setImmediate(this.#drain);
  }

  #next(): Waiting | undefined {
    const resumed = this.#resumed.shift();
    if (resumed) return resumed;
    if (this.#arrivalsHead >= this.#arrivals.length) return undefined;
    const entry = this.#arrivals[this.#arrivalsHead];
    this.#arrivals[this.#arrivalsHead++] = undefined;
    if (this.#arrivalsHead === this.#arrivals.length) {
      this.#arrivals = [];
      this.#arrivalsHead = 0;
    }
    return entry;
  }

  #drainSlice(): void {
    this.#drainScheduled = false;
    const start = performance.now();
    // The slice is a window of its own: requests continuing from it (microtasks) share its budget.
    if (this.#windowStart < 0) setImmediate(this.#closeWindow);
    this.#windowStart = start;
    while (performance.now() - start < this.budgetMs) {
      const entry = this.#next();
      if (!entry) break;
      entry.res.off('close', entry.onClose);
      entry.run(entry.gone);
    }
    if (this.waiting > 0) this.#scheduleDrain();
  }
}

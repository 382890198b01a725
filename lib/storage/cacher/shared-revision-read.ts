// etcd's current revision for consistent reads, one linearizable read shared by the callers of one event-loop turn.
//
// Each caller is answered by a read that STARTS after it called (so the revision is at least that of every write
// acknowledged before the caller came). A caller joins the read gathered for the current turn, which starts at the
// turn's end (setImmediate) while fewer than `maxInFlight` reads are in flight, else as soon as one of them answers.
// Several reads in flight at once: a caller coming while one is in flight no longer waits for its round trip before
// its own starts (with one read at a time it waited ~1.5 round trips on average under load).

/** Reads in flight at once by default: under load each serves the callers of one turn, so few are needed. */
const MAX_IN_FLIGHT = 4;

export class SharedRevisionRead {
  #inFlight = 0;
  /** The read the next callers join: not started yet. */
  #gathering: { promise: Promise<number>; resolve: (p: Promise<number>) => void } | undefined;
  #scheduled = false;

  constructor(
    private readonly readRevision: () => Promise<number>,
    private readonly maxInFlight = MAX_IN_FLIGHT,
  ) {}

  /** Etcd's revision from a read started after this call (shared with the other callers until it starts). */
  read(): Promise<number> {
    if (this.#gathering === undefined) {
      let resolve!: (p: Promise<number>) => void;
      const promise = new Promise<number>((r) => (resolve = r));
      this.#gathering = { promise, resolve };
    }
    if (!this.#scheduled && this.#inFlight < this.maxInFlight) {
      this.#scheduled = true;
      setImmediate(() => {
        this.#scheduled = false;
        this.#startGathered();
      });
    }
    return this.#gathering.promise;
  }

  #startGathered(): void {
    const gathering = this.#gathering;
    if (gathering === undefined || this.#inFlight >= this.maxInFlight) return;
    this.#gathering = undefined;
    this.#inFlight++;
    const read = this.readRevision();
    const done = (): void => {
      this.#inFlight--;
      // Callers gathered while every slot was taken start now (their read still starts after they called).
      this.#startGathered();
    };
    read.then(done, done);
    gathering.resolve(read);
  }
}

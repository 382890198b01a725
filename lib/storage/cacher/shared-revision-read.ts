// etcd's current revision for consistent reads, one linearizable read shared by concurrent callers.

export class SharedRevisionRead {
  /** The read in flight, and the one queued behind it for callers that came during it. */
  #current: Promise<number> | undefined;
  #next: Promise<number> | undefined;

  constructor(private readonly readRevision: () => Promise<number>) {}

  /** A caller joins the read queued behind the one in flight (which may have been sent before it came), never an older one. */
  read(): Promise<number> {
    if (this.#current === undefined) return this.#start();
    this.#next ??= this.#current
      .catch(() => 0)
      .then(() => {
        this.#next = undefined;
        return this.#start();
      });
    return this.#next;
  }

  #start(): Promise<number> {
    const read: Promise<number> = this.readRevision().finally(() => {
      if (this.#current === read) this.#current = undefined;
    });
    this.#current = read;
    return read;
  }
}

// Fair queuing for server requests (Kubernetes 1.26 queueset): shuffle-sharded queues, virtual time R measured in
// seat-seconds, dispatch of the queue whose oldest request finishes first in virtual time, seats as the currency.
import { ESTIMATED_SERVICE_SECONDS, FqQueue, FqRequest, type RejectReason } from './request';
import { HandCache } from './shuffle-sharding';

export interface QueuingConfig {
  /** Number of queues; 0 means no queuing (a Reject level: reject when the seats are taken). */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
  /** Longest time a request may wait in its queue (ms). */
  requestWaitLimitMs: number;
}

export interface Clock {
  /** Milliseconds, monotonic. */
  now(): number;
  after(ms: number, fn: () => void): NodeJS.Timeout;
}

export const REAL_CLOCK: Clock = {
  now: () => performance.now(),
  after: (ms, fn) => setTimeout(fn, ms),
};

/** What the owner of the queue set wants to hear about (metrics, seat demand). */
export interface QueueSetObserver {
  enqueued(req: FqRequest, queueLength: number): void;
  /** Left its queue, to execute or rejected. */
  dequeued(req: FqRequest): void;
  executing(req: FqRequest, delta: 1 | -1): void;
  rejected(req: FqRequest, reason: RejectReason): void;
  /** Seats in use plus seats waiting changed. */
  demand(seats: number): void;
}

const NO_OBSERVER: QueueSetObserver = {
  enqueued: () => undefined,
  dequeued: () => undefined,
  executing: () => undefined,
  rejected: () => undefined,
  demand: () => undefined,
};

export type StartResult = 'executing' | 'waiting' | RejectReason;

export class QueueSet {
  queues: FqQueue[] = [];
  #config: QueuingConfig;
  #limit: number;
  /** Virtual time (seat-seconds) and the real time it was last synchronised at. */
  currentR = 0;
  #lastRealMs: number;
  #robinIndex = -1;
  #enqueues = 0;
  totRequestsWaiting = 0;
  totSeatsWaiting = 0;
  totRequestsExecuting = 0;
  totSeatsInUse = 0;
  /** Queues with a request waiting or executing (kept as a count so virtual time needs no walk over the queues). */
  #activeQueues = 0;
  readonly #hands = new HandCache();
  readonly #clock: Clock;
  readonly #observer: QueueSetObserver;

  constructor(
    config: QueuingConfig,
    concurrencyLimit: number,
    clock: Clock = REAL_CLOCK,
    observer: QueueSetObserver = NO_OBSERVER,
  ) {
    this.#config = config;
    this.#limit = concurrencyLimit;
    this.#clock = clock;
    this.#observer = observer;
    this.#lastRealMs = clock.now();
    this.#resizeQueues();
  }

  get concurrencyLimit(): number {
    return this.#limit;
  }

  get config(): QueuingConfig {
    return this.#config;
  }

  get idle(): boolean {
    return this.totRequestsWaiting === 0 && this.totRequestsExecuting === 0;
  }

  /** New queuing parameters: waiting requests stay where they are; surplus queues go away once empty. */
  setConfig(config: QueuingConfig): void {
    this.#syncTime();
    if (config.queues !== this.#config.queues || config.handSize !== this.#config.handSize) this.#hands.clear();
    this.#config = config;
    this.#resizeQueues();
    this.#dispatchAsMuchAsPossible();
  }

  setConcurrencyLimit(limit: number): void {
    this.#syncTime();
    this.#limit = limit;
    this.#dispatchAsMuchAsPossible();
  }

  /**
   * Admits `req`: 'executing' (dispatched now), 'waiting' (queued; `req.onDecision` will tell), or a reject reason.
   * Without queues (a Reject level) the request executes if its seats fit and is rejected otherwise.
   */
  start(req: FqRequest): StartResult {
    const now = this.#clock.now();
    this.#syncTime(now);
    req.arrivalMs = now;
    req.arrivalR = this.currentR;
    if (this.#config.queues < 1) {
      if (!this.#canAccommodate(req.maxSeats)) return this.#reject(req, 'concurrency-limit');
      this.#execute(req, undefined, now);
      return 'executing';
    }
    const queue = this.#chooseQueue(req);
    this.#removeTimedOut(queue);
    if (this.totSeatsInUse >= this.#limit && queue.waiting.length >= this.#config.queueLengthLimit)
      return this.#reject(req, 'queue-full');
    if (queue.idle) {
      queue.nextDispatchR = this.currentR;
      this.#activeQueues++;
    }
    if (this.totRequestsWaiting === 0 && this.#canAccommodate(req.maxSeats)) {
      // Nothing waits anywhere: fair queuing would pick this request at once; skip the round trip through the queue.
      req.queue = queue;
      this.#execute(req, queue, now);
      queue.nextDispatchR += req.totalWork;
      return 'executing';
    }
    queue.enqueue(req);
    req.queue = queue;
    req.state = 'waiting';
    this.totRequestsWaiting++;
    this.totSeatsWaiting += req.maxSeats;
    this.#observer.enqueued(req, queue.waiting.length);
    this.#observer.demand(this.totSeatsInUse + this.totSeatsWaiting);
    this.#boundNextDispatch(queue);
    this.#dispatchAsMuchAsPossible();
    if (req.state !== 'waiting') return 'executing';
    req.waitTimer = this.#clock.after(this.#config.requestWaitLimitMs, () => this.#timeOut(req));
    return 'waiting';
  }

  /** The request finished executing: its initial seats are free now, its final seats after the additional latency. */
  finish(req: FqRequest): void {
    if (req.state !== 'executing') return;
    const now = this.#clock.now();
    this.#syncTime(now);
    this.totRequestsExecuting--;
    this.#observer.executing(req, -1);
    const queue = req.queue;
    if (queue) {
      queue.executing--;
      if (queue.idle) this.#activeQueues--;
      // Correct the estimate with the actual service time: R of the queue's start moves by (G - S) × seats.
      const actualSeconds = (now - req.startMs) / 1000;
      queue.nextDispatchR -= req.work.initialSeats * (ESTIMATED_SERVICE_SECONDS - actualSeconds);
      this.#boundNextDispatch(queue);
    }
    if (req.work.additionalLatencyMs > 0 && req.work.finalSeats > 0) {
      req.state = 'lingering';
      this.#clock.after(req.work.additionalLatencyMs, () => {
        this.#syncTime();
        this.#releaseSeats(req);
        this.#dispatchAsMuchAsPossible();
      });
      return;
    }
    this.#releaseSeats(req);
    this.#dispatchAsMuchAsPossible();
  }

  /** The client went away while its request waited. */
  cancel(req: FqRequest): void {
    if (req.state !== 'waiting') return;
    this.#syncTime();
    this.#leaveQueue(req);
    this.#reject(req, 'cancelled');
    req.onDecision?.(false);
  }

  #execute(req: FqRequest, queue: FqQueue | undefined, now = this.#clock.now()): void {
    req.state = 'executing';
    req.startMs = now;
    this.totRequestsExecuting++;
    this.totSeatsInUse += req.maxSeats;
    if (queue) {
      queue.executing++;
      queue.seatsInUse += req.maxSeats;
    }
    this.#observer.executing(req, 1);
    this.#observer.demand(this.totSeatsInUse + this.totSeatsWaiting);
  }

  #releaseSeats(req: FqRequest): void {
    req.state = 'done';
    this.totSeatsInUse -= req.maxSeats;
    const queue = req.queue;
    if (queue) {
      queue.seatsInUse -= req.maxSeats;
      this.#dropSurplusQueue(queue);
    }
    this.#observer.demand(this.totSeatsInUse + this.totSeatsWaiting);
  }

  #reject(req: FqRequest, reason: RejectReason): RejectReason {
    req.state = 'rejected';
    req.rejectReason = reason;
    this.#observer.rejected(req, reason);
    return reason;
  }

  #leaveQueue(req: FqRequest): void {
    const queue = req.queue;
    if (!queue || !queue.remove(req)) return;
    if (queue.idle) this.#activeQueues--;
    if (req.waitTimer) clearTimeout(req.waitTimer);
    this.totRequestsWaiting--;
    this.totSeatsWaiting -= req.maxSeats;
    this.#observer.dequeued(req);
    this.#observer.demand(this.totSeatsInUse + this.totSeatsWaiting);
    this.#boundNextDispatch(queue);
    this.#dropSurplusQueue(queue);
  }

  #timeOut(req: FqRequest): void {
    if (req.state !== 'waiting') return;
    this.#syncTime();
    req.waitTimer = undefined;
    this.#leaveQueue(req);
    this.#reject(req, 'time-out');
    req.onDecision?.(false);
  }

  /** Rejects the requests of `queue` that waited past the wait limit (checked on arrival, as Kubernetes does). */
  #removeTimedOut(queue: FqQueue): void {
    const limit = this.#clock.now() - this.#config.requestWaitLimitMs;
    while (queue.waiting.length > 0 && (queue.waiting[0]?.arrivalMs ?? Infinity) < limit) {
      const old = queue.waiting[0];
      if (!old) break;
      this.#timeOut(old);
    }
  }

  /** Of the flow's hand, the queue holding the least waiting work (seat-seconds); ties go round the hand. */
  #chooseQueue(req: FqRequest): FqQueue {
    const hand = this.#hands.hand(req.flowSchema, req.distinguisher, this.#config.queues, this.#config.handSize);
    const offset = this.#enqueues++ % hand.length;
    let best: FqQueue | undefined;
    for (let i = 0; i < hand.length; i++) {
      const queue = this.queues[hand[(offset + i) % hand.length] ?? 0];
      if (queue && (best === undefined || queue.totalWorkSum < best.totalWorkSum)) best = queue;
    }
    return best ?? (this.queues[0] as FqQueue);
  }

  #dispatchAsMuchAsPossible(): void {
    while (this.totRequestsWaiting > 0 && this.totSeatsInUse < this.#limit && this.#dispatchOne());
  }

  /** Dispatches the oldest request of the queue with the smallest virtual finish time, if its seats fit. */
  #dispatchOne(): boolean {
    let minFinish = Infinity;
    let minQueue: FqQueue | undefined;
    let minIndex = 0;
    const n = this.queues.length;
    for (let k = 0; k < n; k++) {
      this.#robinIndex = (this.#robinIndex + 1) % n;
      const queue = this.queues[this.#robinIndex];
      const oldest = queue?.waiting[0];
      if (!queue || !oldest) continue;
      const finish = queue.nextDispatchR + oldest.totalWork;
      if (finish < minFinish) {
        minFinish = finish;
        minQueue = queue;
        minIndex = this.#robinIndex;
      }
    }
    const req = minQueue?.waiting[0];
    if (!minQueue || !req) return false;
    if (!this.#canAccommodate(req.maxSeats)) return false;
    this.#robinIndex = minIndex;
    minQueue.dequeue();
    if (req.waitTimer) clearTimeout(req.waitTimer);
    req.waitTimer = undefined;
    this.totRequestsWaiting--;
    this.totSeatsWaiting -= req.maxSeats;
    this.#observer.dequeued(req);
    this.#execute(req, minQueue);
    minQueue.nextDispatchR += req.totalWork;
    this.#boundNextDispatch(minQueue);
    req.onDecision?.(true);
    return true;
  }

  /** A request wider than the whole limit runs alone; otherwise its seats must fit beside those in use. */
  #canAccommodate(seats: number): boolean {
    if (seats > this.#limit) return this.totRequestsExecuting === 0;
    return this.totSeatsInUse + seats <= this.#limit;
  }

  /** Anti-windup: a queue's virtual start never precedes the arrival of its oldest request. */
  #boundNextDispatch(queue: FqQueue): void {
    const oldest = queue.waiting[0];
    if (oldest && queue.nextDispatchR < oldest.arrivalR) queue.nextDispatchR = oldest.arrivalR;
  }

  /** R advances at min(seats requested, limit) / active queues per second of real time. */
  #syncTime(now = this.#clock.now()): void {
    const elapsed = (now - this.#lastRealMs) / 1000;
    this.#lastRealMs = now;
    if (elapsed <= 0) return;
    // Σ over queues of (seats in use + seats of waiting requests) is the set's totals.
    if (this.#activeQueues > 0)
      this.currentR +=
        (elapsed * Math.min(this.totSeatsInUse + this.totSeatsWaiting, this.#limit)) / this.#activeQueues;
  }

  #resizeQueues(): void {
    const desired = Math.max(this.#config.queues, 0);
    while (this.queues.length < desired) this.queues.push(new FqQueue(this.queues.length));
    for (let i = this.queues.length - 1; i >= desired; i--) {
      const queue = this.queues[i];
      if (queue && queue.idle && queue.seatsInUse === 0) this.#removeQueue(i);
    }
  }

  #dropSurplusQueue(queue: FqQueue): void {
    if (
      this.queues.length > this.#config.queues &&
      queue.idle &&
      queue.seatsInUse === 0 &&
      this.queues[queue.index] === queue
    )
      this.#removeQueue(queue.index);
  }

  #removeQueue(index: number): void {
    this.queues.splice(index, 1);
    for (let i = index; i < this.queues.length; i++) (this.queues[i] as FqQueue).index = i;
    if (this.#robinIndex >= index) this.#robinIndex--;
  }
}

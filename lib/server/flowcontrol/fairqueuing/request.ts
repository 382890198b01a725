// One request as the fair-queuing machinery sees it: its work estimate, its flow, and where it is.

/** Seats a request occupies (KEP-1040 work estimation): `initialSeats` while it runs, `finalSeats` for a little after. */
export interface WorkEstimate {
  initialSeats: number;
  finalSeats: number;
  /** How long `finalSeats` stay taken after the request finished (ms). */
  additionalLatencyMs: number;
}

export type RejectReason = 'queue-full' | 'concurrency-limit' | 'time-out' | 'cancelled';

/** Kubernetes' estimated service time of one seat (`estimatedServiceDuration`), in seconds. */
export const ESTIMATED_SERVICE_SECONDS = 0.003;

export type RequestState = 'new' | 'waiting' | 'executing' | 'lingering' | 'done' | 'rejected';

/** Who a request is for dumps (dump_requests?includeRequestDetails=1): the classifier's input, kept by reference. */
export interface RequestDetails {
  readonly user: { readonly name: string };
  readonly info: { readonly path: string; readonly verb: string } & Partial<{
    namespace: string;
    name: string;
    apiGroup: string;
    apiVersion: string;
    resource: string;
    subresource: string;
  }>;
}

/** Per-flow (priority level, FlowSchema) bookkeeping the dispatcher keeps up to date for the metrics. */
export interface FlowStats {
  waiting: number;
  executing: number;
  rejected(reason: RejectReason): void;
  enqueued(queueLength: number): void;
}

export class FqRequest {
  state: RequestState = 'new';
  /** The queue it waits or waited in (undefined: dispatched without queuing). */
  queue: FqQueue | undefined;
  arrivalMs = 0;
  /** Virtual time at arrival. */
  arrivalR = 0;
  startMs = 0;
  rejectReason: RejectReason | undefined;
  /** Called once when a waiting request is dispatched (true) or rejected (false). */
  onDecision: ((dispatched: boolean) => void) | undefined;
  waitTimer: NodeJS.Timeout | undefined;
  /** The owner's bookkeeping (the priority level it belongs to). */
  owner: unknown;
  /** Its flow's counts (looked up once per request, not on every state change). */
  flow: FlowStats | undefined;

  constructor(
    readonly flowSchema: string,
    readonly distinguisher: string,
    readonly work: WorkEstimate,
    readonly details?: RequestDetails,
  ) {}

  /** Seats held from dispatch until the final seats are released. */
  get maxSeats(): number {
    return this.work.finalSeats > this.work.initialSeats ? this.work.finalSeats : this.work.initialSeats;
  }

  /** Estimated work in seat-seconds: initial seats for the estimated service time plus the lingering final seats. */
  get totalWork(): number {
    return (
      this.work.initialSeats * ESTIMATED_SERVICE_SECONDS + (this.work.finalSeats * this.work.additionalLatencyMs) / 1000
    );
  }
}

export class FqQueue {
  readonly waiting: FqRequest[] = [];
  /** Virtual time at which the next request of this queue is due (R of its start). */
  nextDispatchR = 0;
  executing = 0;
  seatsInUse = 0;
  initialSeatsSum = 0;
  maxSeatsSum = 0;
  totalWorkSum = 0;

  constructor(public index: number) {}

  enqueue(req: FqRequest): void {
    this.waiting.push(req);
    this.#account(req, 1);
  }

  /** Removes the oldest waiting request. */
  dequeue(): FqRequest | undefined {
    const req = this.waiting.shift();
    if (req) this.#account(req, -1);
    return req;
  }

  /** Removes a request from anywhere in the queue (time-out, cancellation). */
  remove(req: FqRequest): boolean {
    const i = this.waiting.indexOf(req);
    if (i < 0) return false;
    this.waiting.splice(i, 1);
    this.#account(req, -1);
    return true;
  }

  get idle(): boolean {
    return this.waiting.length === 0 && this.executing === 0;
  }

  #account(req: FqRequest, sign: 1 | -1): void {
    this.initialSeatsSum += sign * req.work.initialSeats;
    this.maxSeatsSum += sign * req.maxSeats;
    this.totalWorkSum += sign * req.totalWork;
    if (this.waiting.length === 0) this.totalWorkSum = 0; // no float drift on an empty queue
  }
}

// One priority level's state: its configuration read from a PriorityLevelConfiguration, its limits and its queues.
import { isPlainObject } from '../../apimachinery/meta/types';
import {
  PRIORITY_LEVEL_DEFAULT_LENDABLE_PERCENT,
  PRIORITY_LEVEL_DEFAULT_NOMINAL_CONCURRENCY_SHARES,
  QUEUING_DEFAULT_HAND_SIZE,
  QUEUING_DEFAULT_QUEUE_LENGTH_LIMIT,
  QUEUING_DEFAULT_QUEUES,
} from '../../apis/flowcontrol/v1beta3/defaults';
import { SeatDemandIntegrator, SeatDemandStats } from './borrowing';
import { QueueSet, type Clock, type QueuingConfig, type QueueSetObserver } from './fairqueuing/queueset';

export interface LevelSpec {
  exempt: boolean;
  shares: number;
  lendablePercent: number;
  /** undefined: may borrow without bound (the server's limit). */
  borrowingLimitPercent: number | undefined;
  /** queues 0: limitResponse Reject. */
  queues: number;
  handSize: number;
  queueLengthLimit: number;
}

function num(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** Reads a PriorityLevelConfiguration spec (v1beta3 or v1beta2 field names); odd values fall back to the defaults. */
export function readLevelSpec(spec: unknown): LevelSpec {
  const limited = isPlainObject(spec) && isPlainObject(spec['limited']) ? spec['limited'] : undefined;
  if (!isPlainObject(spec) || spec['type'] !== 'Limited' || !limited) {
    return {
      exempt: true,
      shares: 0,
      lendablePercent: 0,
      borrowingLimitPercent: undefined,
      queues: 0,
      handSize: 0,
      queueLengthLimit: 0,
    };
  }
  const shares = num(
    limited['nominalConcurrencyShares'] ?? limited['assuredConcurrencyShares'],
    PRIORITY_LEVEL_DEFAULT_NOMINAL_CONCURRENCY_SHARES,
  );
  const response = isPlainObject(limited['limitResponse']) ? limited['limitResponse'] : {};
  const queuing =
    response['type'] === 'Queue' ? (isPlainObject(response['queuing']) ? response['queuing'] : {}) : undefined;
  const blp = limited['borrowingLimitPercent'];
  return {
    exempt: false,
    shares: shares > 0 ? shares : PRIORITY_LEVEL_DEFAULT_NOMINAL_CONCURRENCY_SHARES,
    lendablePercent: num(limited['lendablePercent'], PRIORITY_LEVEL_DEFAULT_LENDABLE_PERCENT),
    borrowingLimitPercent: typeof blp === 'number' && Number.isFinite(blp) ? blp : undefined,
    queues: queuing ? num(queuing['queues'], QUEUING_DEFAULT_QUEUES) || QUEUING_DEFAULT_QUEUES : 0,
    handSize: queuing ? num(queuing['handSize'], QUEUING_DEFAULT_HAND_SIZE) || QUEUING_DEFAULT_HAND_SIZE : 0,
    queueLengthLimit: queuing
      ? num(queuing['queueLengthLimit'], QUEUING_DEFAULT_QUEUE_LENGTH_LIMIT) || QUEUING_DEFAULT_QUEUE_LENGTH_LIMIT
      : 0,
  };
}

export class PriorityLevelState {
  spec: LevelSpec;
  uid: string;
  nominalCL = 0;
  minCL = 0;
  maxCL = 0;
  currentCL = 0;
  /** Deleted or replaced: takes no new requests, goes away once idle. */
  quiescing = false;
  /** Exempt levels: requests running now (they never wait). */
  exemptExecuting = 0;
  readonly queues: QueueSet | undefined;
  readonly integrator: SeatDemandIntegrator;
  readonly stats = new SeatDemandStats();
  /** The one ticket every request of an Exempt level shares (no allocation per request). */
  readonly exemptTicket = { exempt: true as const, level: this as PriorityLevelState };
  /** Target of the last re-allocation (for metrics). */
  target = 0;

  constructor(
    readonly name: string,
    uid: string,
    spec: LevelSpec,
    requestWaitLimitMs: number,
    clock: Clock,
    observer: (level: PriorityLevelState) => QueueSetObserver,
  ) {
    this.spec = spec;
    this.uid = uid;
    this.integrator = new SeatDemandIntegrator(() => clock.now());
    this.queues = spec.exempt
      ? undefined
      : new QueueSet(queuingConfig(spec, requestWaitLimitMs), 0, clock, observer(this));
  }

  /** New spec of the same type: queues are kept with their waiting requests. */
  reconfigure(uid: string, spec: LevelSpec, requestWaitLimitMs: number): void {
    this.uid = uid;
    this.spec = spec;
    this.queues?.setConfig(queuingConfig(spec, requestWaitLimitMs));
  }

  setCurrentCL(limit: number): void {
    this.currentCL = limit;
    this.queues?.setConcurrencyLimit(limit);
  }

  get idle(): boolean {
    return this.queues ? this.queues.idle : this.exemptExecuting === 0;
  }
}

function queuingConfig(spec: LevelSpec, requestWaitLimitMs: number): QueuingConfig {
  return { queues: spec.queues, handSize: spec.handSize, queueLengthLimit: spec.queueLengthLimit, requestWaitLimitMs };
}

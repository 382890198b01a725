// API Priority and Fairness dispatching (Kubernetes 1.26 apf_controller): the server's seats divided among the
// priority levels, Exempt requests run at once, Limited ones go through their level's queue set.
import type { ApiObject } from '../../apimachinery/meta/types';
import { isPlainObject } from '../../apimachinery/meta/types';
import { MANDATORY_PRIORITY_LEVEL_SPECS } from '../../apis/flowcontrol/validation';
import { computeConcurrencyAllocation, type AllocationItem } from './borrowing';
import { FLOW_SCHEMA_CATCH_ALL, FLOW_SCHEMA_EXEMPT, type Classification } from './classifier';
import { REAL_CLOCK, type Clock, type QueueSetObserver } from './fairqueuing/queueset';
import {
  FqRequest,
  type FlowStats,
  type RejectReason,
  type RequestDetails,
  type WorkEstimate,
} from './fairqueuing/request';
import { PriorityLevelState, readLevelSpec } from './priority-level';

/** How often current limits are re-derived from seat demand (Kubernetes' borrowing adjustment period). */
export const BORROWING_ADJUSTMENT_PERIOD_MS = 10_000;

/** What the metrics want to hear. */
export interface DispatchObserver {
  /** The counts of one flow (the same object every time): requests update it without further lookups. */
  flow(level: string, flowSchema: string): FlowStats;
  limits(level: PriorityLevelState): void;
  fairFrac(value: number): void;
  removed(level: string): void;
}

export interface DispatcherOptions {
  /** --max-requests-inflight + --max-mutating-requests-inflight. */
  serverConcurrencyLimit: number;
  /** A quarter of --request-timeout. */
  requestWaitLimitMs: number;
  clock?: Clock;
  observer?: DispatchObserver;
}

/** A request admitted to an Exempt level: nothing to release but the count. */
export interface ExemptTicket {
  readonly exempt: true;
  readonly level: PriorityLevelState;
}

export class Dispatcher {
  readonly serverConcurrencyLimit: number;
  readonly requestWaitLimitMs: number;
  readonly #levels = new Map<string, PriorityLevelState>();
  readonly #quiescing = new Set<PriorityLevelState>();
  readonly #clock: Clock;
  readonly #observer: DispatchObserver | undefined;
  #nominalSum = 0;
  #timer: NodeJS.Timeout | undefined;
  fairProp = 0;

  constructor(options: DispatcherOptions) {
    this.serverConcurrencyLimit = options.serverConcurrencyLimit;
    this.requestWaitLimitMs = options.requestWaitLimitMs;
    this.#clock = options.clock ?? REAL_CLOCK;
    this.#observer = options.observer;
    this.configure([]);
  }

  /** Re-allocates current limits every adjustment period until stopped. */
  start(periodMs = BORROWING_ADJUSTMENT_PERIOD_MS): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.reallocate(), periodMs);
    this.#timer.unref();
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Levels in effect, then the quiescing ones (for dumps and metrics). */
  levels(): PriorityLevelState[] {
    return [...this.#levels.values(), ...this.#quiescing];
  }

  /**
   * Applies the stored PriorityLevelConfigurations (missing mandatory ones imagined, as the classifier does). Levels
   * keep their queues and waiting requests; removed levels quiesce until their requests are done.
   */
  configure(priorityLevels: readonly ApiObject[]): void {
    const wanted = new Map<string, { uid: string; spec: unknown }>();
    for (const pl of priorityLevels) {
      const name = pl.metadata?.name;
      if (typeof name === 'string' && name !== '' && !wanted.has(name))
        wanted.set(name, { uid: pl.metadata.uid ?? '', spec: isPlainObject(pl) ? pl['spec'] : undefined });
    }
    for (const name of [FLOW_SCHEMA_EXEMPT, FLOW_SCHEMA_CATCH_ALL])
      if (!wanted.has(name)) wanted.set(name, { uid: '', spec: MANDATORY_PRIORITY_LEVEL_SPECS[name] });
    for (const [name, state] of this.#levels) {
      if (!wanted.has(name)) this.#retire(name, state);
    }
    for (const [name, { uid, spec }] of wanted) {
      const levelSpec = readLevelSpec(spec);
      const existing = this.#levels.get(name);
      if (existing && existing.spec.exempt === levelSpec.exempt) {
        existing.reconfigure(uid, levelSpec, this.requestWaitLimitMs);
        continue;
      }
      if (existing) this.#retire(name, existing);
      const state = new PriorityLevelState(name, uid, levelSpec, this.requestWaitLimitMs, this.#clock, (level) =>
        this.#queueObserver(level),
      );
      this.#levels.set(name, state);
    }
    this.#computeNominal();
    this.reallocate();
  }

  /**
   * Admits a request of `classification` with `work`: an exempt ticket, a request executing now or waiting (then
   * `onDecision` tells), or the reason it is rejected.
   */
  admit(
    classification: Classification,
    work: WorkEstimate,
    details?: RequestDetails,
    flow?: FlowStats,
  ): ExemptTicket | FqRequest | RejectReason {
    const level =
      this.#levels.get(classification.priorityLevel.name) ??
      (this.#levels.get(FLOW_SCHEMA_CATCH_ALL) as PriorityLevelState);
    if (!level.queues) {
      level.exemptExecuting++;
      return level.exemptTicket;
    }
    const req = new FqRequest(classification.flowSchema.name, classification.distinguisher, work, details);
    req.owner = level;
    req.flow = flow;
    const result = level.queues.start(req);
    return result === 'executing' || result === 'waiting' ? req : result;
  }

  /** The request is done (its response closed). */
  finish(ticket: ExemptTicket | FqRequest): void {
    if (ticket instanceof FqRequest) {
      const level = ticket.owner as PriorityLevelState;
      if (ticket.state === 'waiting') level.queues?.cancel(ticket);
      else level.queues?.finish(ticket);
      this.#dropIfQuiesced(level);
      return;
    }
    ticket.level.exemptExecuting--;
    this.#dropIfQuiesced(ticket.level);
  }

  /** Re-divides the seats among Limited levels from their smoothed seat demand (KEP-1040). */
  reallocate(): void {
    const limited = [...this.#levels.values()].filter((l) => l.queues !== undefined);
    const items: AllocationItem[] = limited.map((level) => {
      level.stats.update(level.integrator.reset());
      const lower = Math.max(level.minCL, Math.min(level.nominalCL, level.stats.highWatermark));
      const item = { lowerBound: lower, upperBound: level.maxCL, target: Math.max(lower, level.stats.smoothed) };
      level.target = item.target;
      return item;
    });
    const { allocs, fairProp } = computeConcurrencyAllocation(this.#nominalSum, items);
    this.fairProp = fairProp;
    limited.forEach((level, i) => {
      level.setCurrentCL(Math.round(allocs[i] ?? level.currentCL));
      this.#observer?.limits(level);
    });
    this.#observer?.fairFrac(Number.isFinite(fairProp) ? fairProp : 0);
  }

  #computeNominal(): void {
    const limited = [...this.#levels.values()].filter((l) => !l.spec.exempt);
    const shareSum = limited.reduce((s, l) => s + l.spec.shares, 0);
    this.#nominalSum = 0;
    for (const level of limited) {
      const nominal = Math.ceil((this.serverConcurrencyLimit * level.spec.shares) / shareSum);
      const lendable = Math.round((nominal * level.spec.lendablePercent) / 100);
      const borrowing =
        level.spec.borrowingLimitPercent === undefined
          ? this.serverConcurrencyLimit
          : Math.round((nominal * level.spec.borrowingLimitPercent) / 100);
      const fresh = level.nominalCL === 0;
      level.nominalCL = nominal;
      level.minCL = nominal - lendable;
      level.maxCL = nominal + borrowing;
      if (fresh) level.setCurrentCL(nominal - Math.floor(lendable / 2));
      this.#nominalSum += nominal;
    }
  }

  #retire(name: string, state: PriorityLevelState): void {
    this.#levels.delete(name);
    state.quiescing = true;
    if (state.idle) this.#observer?.removed(name);
    else this.#quiescing.add(state);
  }

  #dropIfQuiesced(level: PriorityLevelState): void {
    if (level.quiescing && level.idle && this.#quiescing.delete(level)) this.#observer?.removed(level.name);
  }

  #queueObserver(level: PriorityLevelState): QueueSetObserver {
    const o = this.#observer;
    const flowOf = (req: FqRequest): FlowStats => (req.flow ??= o ? o.flow(level.name, req.flowSchema) : unobserved());
    return {
      enqueued: (req, length) => {
        const flow = flowOf(req);
        flow.waiting++;
        flow.enqueued(length);
      },
      dequeued: (req) => void flowOf(req).waiting--,
      executing: (req, delta) => void (flowOf(req).executing += delta),
      rejected: (req, reason) => {
        flowOf(req).rejected(reason);
        this.#dropIfQuiesced(level);
      },
      demand: (seats) => level.integrator.set(seats),
    };
  }
}

/** Counts nobody reads (a dispatcher without observer, as in unit tests). */
function unobserved(): FlowStats {
  return { waiting: 0, executing: 0, rejected: () => undefined, enqueued: () => undefined };
}

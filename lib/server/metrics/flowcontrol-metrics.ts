// API Priority and Fairness metrics with Kubernetes 1.26's names, labels and buckets (util/flowcontrol/metrics).
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { DispatchObserver } from '../flowcontrol/dispatcher';
import type { RejectReason } from '../flowcontrol/fairqueuing/request';
import type { PriorityLevelState } from '../flowcontrol/priority-level';
import { annotatedHelp } from './stability';

const ALPHA = { stability: 'ALPHA' } as const;
const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];
const QUEUE_LENGTH_BUCKETS = [0, 10, 25, 50, 100, 250, 500, 1000];
const PL_FS = ['priority_level', 'flow_schema'] as const;

/** Per (level, flow schema): counts kept as plain numbers and published at scrape time (prom-client hashes labels on every update). */
interface FlowChildren {
  labels: { priority_level: string; flow_schema: string };
  dispatched: number;
  dispatchedPublished: number;
  executing: number;
  waiting: number;
  seats: ReturnType<Histogram['labels']>;
  regular: ReturnType<Histogram['labels']>;
  watch: ReturnType<Histogram['labels']>;
  waitExecuted: ReturnType<Histogram['labels']>;
}

export class FlowcontrolMetrics implements DispatchObserver {
  readonly #rejected: Counter;
  readonly #queueLength: Histogram;
  readonly #concurrencyLimit: Gauge;
  readonly #nominal: Gauge;
  readonly #lower: Gauge;
  readonly #upper: Gauge;
  readonly #current: Gauge;
  readonly #target: Gauge;
  readonly #fairFrac: Gauge;
  readonly #wait: Histogram;
  readonly #execution: Histogram;
  readonly #workSeats: Histogram;
  /** Label children by flow schema, then level: two Map lookups and no string building per request. */
  readonly #children = new Map<string, Map<string, FlowChildren>>();

  constructor(registry: Registry) {
    const registers = [registry];
    const counter = (name: string, help: string, labelNames: readonly string[]): Counter =>
      new Counter({ name: `apiserver_flowcontrol_${name}`, help: annotatedHelp(help, ALPHA), labelNames, registers });
    const gauge = (name: string, help: string, labelNames: readonly string[]): Gauge =>
      new Gauge({ name: `apiserver_flowcontrol_${name}`, help: annotatedHelp(help, ALPHA), labelNames, registers });
    const histogram = (name: string, help: string, labelNames: readonly string[], buckets: number[]): Histogram =>
      new Histogram({
        name: `apiserver_flowcontrol_${name}`,
        help: annotatedHelp(help, ALPHA),
        labelNames,
        buckets,
        registers,
      });
    this.#rejected = counter(
      'rejected_requests_total',
      'Number of requests rejected by API Priority and Fairness subsystem',
      [...PL_FS, 'reason'],
    );
    const flows = (): IterableIterator<FlowChildren> => this.#allFlows();
    // Collected from the flows' counts at scrape time (registered, never touched per request).
    new Counter({
      name: 'apiserver_flowcontrol_dispatched_requests_total',
      help: annotatedHelp('Number of requests executed by API Priority and Fairness subsystem', ALPHA),
      labelNames: PL_FS,
      registers,
      collect(this: Counter) {
        for (const f of flows()) {
          if (f.dispatched > f.dispatchedPublished) this.inc(f.labels, f.dispatched - f.dispatchedPublished);
          f.dispatchedPublished = f.dispatched;
        }
      },
    });
    const gaugeOf = (name: string, help: string, read: (f: FlowChildren) => number): Gauge =>
      new Gauge({
        name: `apiserver_flowcontrol_${name}`,
        help: annotatedHelp(help, ALPHA),
        labelNames: PL_FS,
        registers,
        collect(this: Gauge) {
          for (const f of flows()) this.set(f.labels, read(f));
        },
      });
    gaugeOf(
      'current_inqueue_requests',
      'Number of requests currently pending in queues of the API Priority and Fairness subsystem',
      (f) => f.waiting,
    );
    gaugeOf(
      'current_executing_requests',
      'Number of requests in initial (for a WATCH) or any (for a non-WATCH) execution stage in the API Priority and Fairness subsystem',
      (f) => f.executing,
    );
    this.#queueLength = histogram(
      'request_queue_length_after_enqueue',
      'Length of queue in the API Priority and Fairness subsystem, as seen by each request after it is enqueued',
      PL_FS,
      QUEUE_LENGTH_BUCKETS,
    );
    this.#concurrencyLimit = gauge(
      'request_concurrency_limit',
      'Shared concurrency limit in the API Priority and Fairness subsystem',
      ['priority_level'],
    );
    this.#nominal = gauge(
      'nominal_limit_seats',
      'Nominal number of execution seats configured for each priority level',
      ['priority_level'],
    );
    this.#lower = gauge(
      'lower_limit_seats',
      'Configured lower bound on number of execution seats available to each priority level',
      ['priority_level'],
    );
    this.#upper = gauge(
      'upper_limit_seats',
      'Configured upper bound on number of execution seats available to each priority level',
      ['priority_level'],
    );
    this.#current = gauge(
      'current_limit_seats',
      'current derived number of execution seats available to each priority level',
      ['priority_level'],
    );
    this.#target = gauge('target_seats', 'Seat allocation targets', ['priority_level']);
    this.#fairFrac = gauge(
      'seat_fair_frac',
      "Fair fraction of server's concurrency to allocate to each priority level that can use it",
      [],
    );
    this.#wait = histogram(
      'request_wait_duration_seconds',
      'Length of time a request spent waiting in its queue',
      [...PL_FS, 'execute'],
      DURATION_BUCKETS,
    );
    this.#execution = histogram(
      'request_execution_seconds',
      'Duration of initial stage (for a WATCH) or any (for a non-WATCH) stage of request execution in the API Priority and Fairness subsystem',
      [...PL_FS, 'type'],
      DURATION_BUCKETS,
    );
    this.#workSeats = histogram(
      'work_estimated_seats',
      'Number of estimated seats (maximum of initial and final seats) associated with requests in API Priority and Fairness',
      PL_FS,
      [1, 2, 4, 10],
    );
  }

  #flow(level: string, flowSchema: string): FlowChildren {
    let byLevel = this.#children.get(flowSchema);
    if (!byLevel) {
      byLevel = new Map();
      this.#children.set(flowSchema, byLevel);
    }
    let children = byLevel.get(level);
    if (!children) {
      const labels = { priority_level: level, flow_schema: flowSchema };
      children = {
        labels,
        dispatched: 0,
        dispatchedPublished: 0,
        executing: 0,
        waiting: 0,
        seats: this.#workSeats.labels(labels),
        regular: this.#execution.labels({ ...labels, type: 'regular' }),
        watch: this.#execution.labels({ ...labels, type: 'watch' }),
        waitExecuted: this.#wait.labels({ ...labels, execute: 'true' }),
      };
      byLevel.set(level, children);
    }
    return children;
  }

  *#allFlows(): IterableIterator<FlowChildren> {
    for (const byLevel of this.#children.values()) yield* byLevel.values();
  }

  // Per request (the filter calls these).
  dispatchedRequest(level: string, flowSchema: string, seats: number, waitedSeconds: number | undefined): void {
    const c = this.#flow(level, flowSchema);
    c.dispatched++;
    c.seats.observe(seats);
    if (waitedSeconds !== undefined) c.waitExecuted.observe(waitedSeconds);
  }

  executed(level: string, flowSchema: string, watch: boolean, seconds: number): void {
    const c = this.#flow(level, flowSchema);
    (watch ? c.watch : c.regular).observe(seconds);
  }

  rejectedAfterWait(level: string, flowSchema: string, waitedSeconds: number): void {
    this.#wait.observe({ priority_level: level, flow_schema: flowSchema, execute: 'false' }, waitedSeconds);
  }

  // DispatchObserver.
  waiting(level: string, flowSchema: string, delta: 1 | -1): void {
    this.#flow(level, flowSchema).waiting += delta;
  }

  executing(level: string, flowSchema: string, delta: 1 | -1): void {
    this.#flow(level, flowSchema).executing += delta;
  }

  rejected(level: string, flowSchema: string, reason: RejectReason): void {
    this.#rejected.inc({ priority_level: level, flow_schema: flowSchema, reason });
  }

  queueLength(level: string, flowSchema: string, length: number): void {
    this.#queueLength.observe({ priority_level: level, flow_schema: flowSchema }, length);
  }

  limits(level: PriorityLevelState): void {
    const l = { priority_level: level.name };
    this.#concurrencyLimit.set(l, level.currentCL);
    this.#nominal.set(l, level.nominalCL);
    this.#lower.set(l, level.minCL);
    this.#upper.set(l, level.maxCL);
    this.#current.set(l, level.currentCL);
    this.#target.set(l, level.target);
  }

  fairFrac(value: number): void {
    this.#fairFrac.set(value);
  }

  removed(_level: string): void {
    // Kubernetes keeps the series of a removed level until restart; so does this server.
  }
}

// API Priority and Fairness metrics with Kubernetes 1.26's names, labels and buckets (util/flowcontrol/metrics).
import { Counter, Gauge, type Registry } from 'prom-client';
import type { DispatchObserver } from '../flowcontrol/dispatcher';
import type { FlowStats, RejectReason } from '../flowcontrol/fairqueuing/request';
import type { PriorityLevelState } from '../flowcontrol/priority-level';
import { annotatedHelp } from './stability';
import { LocalHistogram, type HistogramCell } from './local-histogram';

const ALPHA = { stability: 'ALPHA' } as const;
const DURATION_BUCKETS = [0, 0.005, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30];
const QUEUE_LENGTH_BUCKETS = [0, 10, 25, 50, 100, 250, 500, 1000];
const PL_FS = ['priority_level', 'flow_schema'] as const;

const REJECT_REASONS: readonly RejectReason[] = ['queue-full', 'concurrency-limit', 'time-out', 'cancelled'];

/**
 * Per (level, flow schema): counts kept as plain numbers and published at scrape time, histogram cells bound once
 * (prom-client hashes labels on every update). A request looks this up once and updates it directly.
 */
export class FlowMetrics implements FlowStats {
  dispatched = 0;
  dispatchedPublished = 0;
  executing = 0;
  waiting = 0;
  readonly rejectedCounts = new Map<RejectReason, number>();
  readonly rejectedPublished = new Map<RejectReason, number>();

  constructor(
    readonly labels: { readonly priority_level: string; readonly flow_schema: string },
    readonly seats: HistogramCell,
    readonly regular: HistogramCell,
    readonly watch: HistogramCell,
    readonly waitExecuted: HistogramCell,
    readonly waitRejected: HistogramCell,
    readonly queueLength: HistogramCell,
  ) {}

  rejected(reason: RejectReason): void {
    this.rejectedCounts.set(reason, (this.rejectedCounts.get(reason) ?? 0) + 1);
  }

  enqueued(queueLength: number): void {
    this.queueLength.observe(queueLength);
  }
}

export class FlowcontrolMetrics implements DispatchObserver {
  readonly #queueLength: LocalHistogram;
  readonly #concurrencyLimit: Gauge;
  readonly #nominal: Gauge;
  readonly #lower: Gauge;
  readonly #upper: Gauge;
  readonly #current: Gauge;
  readonly #target: Gauge;
  readonly #fairFrac: Gauge;
  readonly #wait: LocalHistogram;
  readonly #execution: LocalHistogram;
  readonly #workSeats: LocalHistogram;
  /** Flows by flow schema, then level: two Map lookups and no string building per request. */
  readonly #children = new Map<string, Map<string, FlowMetrics>>();

  constructor(registry: Registry) {
    const registers = [registry];
    const gauge = (name: string, help: string, labelNames: readonly string[]): Gauge =>
      new Gauge({ name: `apiserver_flowcontrol_${name}`, help: annotatedHelp(help, ALPHA), labelNames, registers });
    const histogram = (name: string, help: string, labelNames: readonly string[], buckets: number[]): LocalHistogram =>
      new LocalHistogram(`apiserver_flowcontrol_${name}`, annotatedHelp(help, ALPHA), labelNames, buckets, registry);
    const flows = (): IterableIterator<FlowMetrics> => this.#allFlows();
    new Counter({
      name: 'apiserver_flowcontrol_rejected_requests_total',
      help: annotatedHelp('Number of requests rejected by API Priority and Fairness subsystem', ALPHA),
      labelNames: [...PL_FS, 'reason'],
      registers,
      collect(this: Counter) {
        for (const f of flows())
          for (const reason of REJECT_REASONS) {
            const n = f.rejectedCounts.get(reason) ?? 0;
            const published = f.rejectedPublished.get(reason) ?? 0;
            if (n > published) this.inc({ ...f.labels, reason }, n - published);
            f.rejectedPublished.set(reason, n);
          }
      },
    });
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
    const gaugeOf = (name: string, help: string, read: (f: FlowMetrics) => number): Gauge =>
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

  /** The flow's metrics; keep it for the request (this is two Map lookups). */
  flow(level: string, flowSchema: string): FlowMetrics {
    let byLevel = this.#children.get(flowSchema);
    if (!byLevel) {
      byLevel = new Map();
      this.#children.set(flowSchema, byLevel);
    }
    let flow = byLevel.get(level);
    if (!flow) {
      const labels = { priority_level: level, flow_schema: flowSchema };
      flow = new FlowMetrics(
        labels,
        this.#workSeats.cell(labels),
        this.#execution.cell({ ...labels, type: 'regular' }),
        this.#execution.cell({ ...labels, type: 'watch' }),
        this.#wait.cell({ ...labels, execute: 'true' }),
        this.#wait.cell({ ...labels, execute: 'false' }),
        this.#queueLength.cell(labels),
      );
      byLevel.set(level, flow);
    }
    return flow;
  }

  *#allFlows(): IterableIterator<FlowMetrics> {
    for (const byLevel of this.#children.values()) yield* byLevel.values();
  }

  // Per request (the filter calls these with the flow it looked up once).
  dispatched(flow: FlowMetrics, seats: number, waitedSeconds: number | undefined): void {
    flow.dispatched++;
    flow.seats.observe(seats);
    if (waitedSeconds !== undefined) flow.waitExecuted.observe(waitedSeconds);
  }

  executed(flow: FlowMetrics, watch: boolean, seconds: number): void {
    (watch ? flow.watch : flow.regular).observe(seconds);
  }

  rejectedAfterWait(flow: FlowMetrics, waitedSeconds: number): void {
    flow.waitRejected.observe(waitedSeconds);
  }

  // DispatchObserver.
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

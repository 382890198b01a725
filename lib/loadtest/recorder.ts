// Per operation × resource × scope: latency histograms, counts and errors by status, overall and per second.
import { Histogram, percentilesOf, type HistogramJson, type Percentiles } from './histogram';
import type { OpName } from './profile';

/** Kubernetes' SLI scopes: one object, one namespace, the whole cluster. */
export type Scope = 'resource' | 'namespace' | 'cluster';

export interface Sample {
  op: OpName;
  resource: string;
  scope: Scope;
  latencyMs: number;
  /** HTTP status, or a transport error code ("ECONNRESET") when no response came. */
  status: number | string;
  /** Clock ms when the operation was meant to start (placement on the timeline). */
  at: number;
}

export interface RowJson extends Percentiles {
  op: OpName;
  resource: string;
  scope: Scope;
  count: number;
  ratePerSecond: number;
  errors: number;
  errorsByCode: Record<string, number>;
  meanMs: number;
  histogram: HistogramJson;
}

export interface IntervalJson {
  /** Seconds since the start of the measured phase (negative during the warm-up). */
  t: number;
  count: number;
  errors: number;
  errorsByCode: Record<string, number>;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  /** Per operation: count and p99. */
  ops: Record<string, { count: number; p50: number; p99: number }>;
}

interface Row {
  op: OpName;
  resource: string;
  scope: Scope;
  hist: Histogram;
  errorsByCode: Map<string, number>;
}

interface Interval {
  all: Histogram;
  errorsByCode: Map<string, number>;
  ops: Map<string, Histogram>;
}

export const isError = (status: number | string): boolean =>
  typeof status === 'string' || status === 0 || status >= 400;

export class Recorder {
  private readonly rows = new Map<string, Row>();
  private readonly intervals = new Map<number, Interval>();
  /** All measured samples, for the progress line. */
  readonly overall = new Histogram();
  errors = 0;

  constructor(
    private readonly measureStart: number,
    private readonly intervalMs = 1000,
  ) {}

  /** Timeline samples from the warm-up are kept for the charts; only measured ones go into rows. */
  record(s: Sample): void {
    const second = Math.floor((s.at - this.measureStart) / this.intervalMs);
    let interval = this.intervals.get(second);
    if (!interval)
      this.intervals.set(second, (interval = { all: new Histogram(), errorsByCode: new Map(), ops: new Map() }));
    interval.all.recordMs(s.latencyMs);
    let opHist = interval.ops.get(s.op);
    if (!opHist) interval.ops.set(s.op, (opHist = new Histogram()));
    opHist.recordMs(s.latencyMs);
    const err = isError(s.status);
    if (err) interval.errorsByCode.set(String(s.status), (interval.errorsByCode.get(String(s.status)) ?? 0) + 1);
    if (s.at < this.measureStart) return;
    const key = `${s.op}|${s.resource}|${s.scope}`;
    let row = this.rows.get(key);
    if (!row)
      this.rows.set(
        key,
        (row = { op: s.op, resource: s.resource, scope: s.scope, hist: new Histogram(), errorsByCode: new Map() }),
      );
    row.hist.recordMs(s.latencyMs);
    this.overall.recordMs(s.latencyMs);
    if (err) {
      row.errorsByCode.set(String(s.status), (row.errorsByCode.get(String(s.status)) ?? 0) + 1);
      this.errors += 1;
    }
  }

  rowsJson(durationSeconds: number): RowJson[] {
    return [...this.rows.values()]
      .sort(
        (a, b) => a.op.localeCompare(b.op) || a.resource.localeCompare(b.resource) || a.scope.localeCompare(b.scope),
      )
      .map((r) => {
        const errorsByCode = Object.fromEntries([...r.errorsByCode.entries()].sort());
        const json = r.hist.toJSON();
        return {
          op: r.op,
          resource: r.resource,
          scope: r.scope,
          count: r.hist.count,
          ratePerSecond: Math.round((r.hist.count / durationSeconds) * 100) / 100,
          errors: Object.values(errorsByCode).reduce((a, b) => a + b, 0),
          errorsByCode,
          ...percentilesOf(r.hist),
          meanMs: Math.round(json.meanMs * 1000) / 1000,
          histogram: json,
        };
      });
  }

  timelineJson(): IntervalJson[] {
    return [...this.intervals.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([second, iv]) => {
        const p = percentilesOf(iv.all);
        const errorsByCode = Object.fromEntries([...iv.errorsByCode.entries()].sort());
        return {
          t: (second * this.intervalMs) / 1000,
          count: iv.all.count,
          errors: Object.values(errorsByCode).reduce((a, b) => a + b, 0),
          errorsByCode,
          p50: p.p50,
          p90: p.p90,
          p99: p.p99,
          max: p.max,
          ops: Object.fromEntries(
            [...iv.ops.entries()].sort().map(([op, h]) => {
              const q = percentilesOf(h);
              return [op, { count: h.count, p50: q.p50, p99: q.p99 }];
            }),
          ),
        };
      });
  }
}

// A histogram whose label sets are bound once and whose observations are plain number updates, registered in a
// prom-client registry and rendered exactly as prom-client renders its own histograms. prom-client's Histogram
// builds, validates and hashes the label object on every observe(), even through `labels(...)` children; that is too
// much for observations made on every request (API Priority and Fairness).
import type { Metric, Registry } from 'prom-client';

interface Value {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

/** What prom-client's registry reads from a metric (`get()` of its own metric types). */
interface Collected {
  name: string;
  help: string;
  type: 'histogram';
  aggregator: 'sum';
  values: Value[];
}

/** The counts of one label set. */
export class HistogramCell {
  /** counts[i]: observations ≤ bounds[i] and > bounds[i-1]; the last slot: above every bound. */
  readonly counts: Float64Array;
  sum = 0;
  count = 0;

  constructor(
    readonly labels: Readonly<Record<string, string>>,
    readonly bounds: readonly number[],
  ) {
    this.counts = new Float64Array(bounds.length + 1);
  }

  observe(value: number): void {
    if (!Number.isFinite(value)) return;
    const bounds = this.bounds;
    let i = 0;
    while (i < bounds.length && value > (bounds[i] as number)) i++;
    this.counts[i] = (this.counts[i] ?? 0) + 1;
    this.sum += value;
    this.count++;
  }
}

export class LocalHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly #cells = new Map<string, HistogramCell>();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    readonly bounds: readonly number[],
    registry: Registry,
  ) {
    registry.registerMetric(this as unknown as Metric);
  }

  /** The cell of one label set (keep it: this lookup builds a key). */
  cell(labels: Readonly<Record<string, string>>): HistogramCell {
    const key = this.labelNames.map((n) => labels[n] ?? '').join('\u0000');
    let cell = this.#cells.get(key);
    if (!cell) {
      cell = new HistogramCell(labels, this.bounds);
      this.#cells.set(key, cell);
    }
    return cell;
  }

  reset(): void {
    for (const cell of this.#cells.values()) {
      cell.counts.fill(0);
      cell.sum = 0;
      cell.count = 0;
    }
  }

  /** As prom-client's Histogram.get(): cumulative `_bucket` values with `le`, then `_sum` and `_count`. */
  get(): Promise<Collected> {
    const values: Value[] = [];
    for (const cell of this.#cells.values()) {
      if (cell.count === 0) continue;
      let acc = 0;
      this.bounds.forEach((le, i) => {
        acc += cell.counts[i] ?? 0;
        values.push({ labels: { le, ...cell.labels }, value: acc, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...cell.labels }, value: cell.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...cell.labels }, value: cell.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...cell.labels }, value: cell.count, metricName: `${this.name}_count` });
    }
    return Promise.resolve({ name: this.name, help: this.help, type: 'histogram', values, aggregator: 'sum' });
  }
}

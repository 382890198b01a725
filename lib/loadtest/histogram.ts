// HDR-style latency histogram: log-linear buckets (each power of two split into 32 linear sub-buckets: ≤ 3.2 % relative error).

/** Values are recorded in microseconds (integers); the API speaks milliseconds. */
const SUB_BUCKET_BITS = 6;
const SUB_BUCKETS = 1 << SUB_BUCKET_BITS;

/** Index of the bucket holding `us` (a non-negative integer number of microseconds). */
export function bucketIndex(us: number): number {
  if (us < SUB_BUCKETS) return us;
  // Values are capped at 2^32-1 µs (71 minutes), so clz32 gives the exact power of two.
  const v = Math.min(us, 0xffffffff);
  const magnitude = 31 - Math.clz32(v) - SUB_BUCKET_BITS + 1;
  const sub = Math.floor(v / 2 ** magnitude);
  // sub is in [SUB_BUCKETS/2, SUB_BUCKETS); each magnitude adds SUB_BUCKETS/2 buckets.
  return SUB_BUCKETS + (magnitude - 1) * (SUB_BUCKETS / 2) + (sub - SUB_BUCKETS / 2);
}

/** Smallest and largest microsecond values of a bucket. */
export function bucketRange(index: number): { low: number; high: number } {
  if (index < SUB_BUCKETS) return { low: index, high: index };
  const rel = index - SUB_BUCKETS;
  const magnitude = Math.floor(rel / (SUB_BUCKETS / 2)) + 1;
  const sub = (rel % (SUB_BUCKETS / 2)) + SUB_BUCKETS / 2;
  const width = 2 ** magnitude;
  return { low: sub * width, high: sub * width + width - 1 };
}

export interface HistogramJson {
  count: number;
  minMs: number;
  maxMs: number;
  meanMs: number;
  /** Non-empty buckets: [upper bound in ms, count]. */
  buckets: Array<[number, number]>;
}

export class Histogram {
  private counts = new Map<number, number>();
  count = 0;
  private sumUs = 0;
  private minUs = Number.POSITIVE_INFINITY;
  private maxUs = 0;

  recordMs(ms: number): void {
    const us = Math.max(0, Math.round(ms * 1000));
    const index = bucketIndex(us);
    this.counts.set(index, (this.counts.get(index) ?? 0) + 1);
    this.count += 1;
    this.sumUs += us;
    if (us < this.minUs) this.minUs = us;
    if (us > this.maxUs) this.maxUs = us;
  }

  merge(other: Histogram): void {
    for (const [index, n] of other.counts) this.counts.set(index, (this.counts.get(index) ?? 0) + n);
    this.count += other.count;
    this.sumUs += other.sumUs;
    this.minUs = Math.min(this.minUs, other.minUs);
    this.maxUs = Math.max(this.maxUs, other.maxUs);
  }

  /** Value (ms) at quantile q in [0, 1]: the upper end of the bucket holding the nearest-rank sample, capped by max. NaN when empty. */
  percentileMs(q: number): number {
    if (this.count === 0) return Number.NaN;
    const rank = Math.min(this.count, Math.max(1, Math.ceil(q * this.count)));
    let seen = 0;
    for (const index of [...this.counts.keys()].sort((a, b) => a - b)) {
      seen += this.counts.get(index) ?? 0;
      if (seen >= rank) return Math.min(this.maxUs, Math.max(this.minUs, bucketRange(index).high)) / 1000;
    }
    return this.maxUs / 1000;
  }

  maxMs(): number {
    return this.count === 0 ? Number.NaN : this.maxUs / 1000;
  }

  toJSON(): HistogramJson {
    const buckets: Array<[number, number]> = [...this.counts.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, n]) => [bucketRange(index).high / 1000, n]);
    return {
      count: this.count,
      minMs: this.count === 0 ? 0 : this.minUs / 1000,
      maxMs: this.count === 0 ? 0 : this.maxUs / 1000,
      meanMs: this.count === 0 ? 0 : this.sumUs / this.count / 1000,
      buckets,
    };
  }

  /** Rebuilds a histogram from its JSON buckets (bucket upper bounds land in the same buckets). */
  static fromJSON(json: HistogramJson): Histogram {
    const h = new Histogram();
    for (const [upperMs, n] of json.buckets) {
      const index = bucketIndex(Math.round(upperMs * 1000));
      h.counts.set(index, (h.counts.get(index) ?? 0) + n);
    }
    h.count = json.count;
    h.sumUs = json.meanMs * json.count * 1000;
    h.minUs = json.count === 0 ? Number.POSITIVE_INFINITY : Math.round(json.minMs * 1000);
    h.maxUs = Math.round(json.maxMs * 1000);
    return h;
  }
}

export const REPORTED_QUANTILES = [0.5, 0.9, 0.99, 0.999] as const;

export interface Percentiles {
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  max: number;
}

export function percentilesOf(h: Histogram): Percentiles {
  const r = (v: number): number => (Number.isNaN(v) ? 0 : Math.round(v * 1000) / 1000);
  return {
    p50: r(h.percentileMs(0.5)),
    p90: r(h.percentileMs(0.9)),
    p99: r(h.percentileMs(0.99)),
    p999: r(h.percentileMs(0.999)),
    max: r(h.maxMs()),
  };
}

import { Histogram, bucketIndex, bucketRange, percentilesOf } from './histogram';
import { seededRandom } from './rng';

describe('log-linear buckets', () => {
  it('every value lands in a bucket whose range holds it, and the ranges tile the axis in order', () => {
    let previousHigh = -1;
    for (let i = 0; i < 64 + 32 * 20; i++) {
      const { low, high } = bucketRange(i);
      expect(low).toBe(previousHigh + 1);
      expect(bucketIndex(low)).toBe(i);
      expect(bucketIndex(high)).toBe(i);
      previousHigh = high;
    }
  });

  it('keeps the relative error of a bucket within 1/32', () => {
    for (const us of [64, 100, 1000, 12345, 999_999, 5_000_000, 2 ** 31 + 17]) {
      const { low, high } = bucketRange(bucketIndex(us));
      expect(us).toBeGreaterThanOrEqual(low);
      expect(us).toBeLessThanOrEqual(high);
      expect((high - low + 1) / low).toBeLessThanOrEqual(1 / 32 + 1e-12);
    }
  });
});

describe('Histogram percentiles', () => {
  it('match exact nearest-rank percentiles of random data within the bucket error', () => {
    const rnd = seededRandom(42);
    const h = new Histogram();
    const values: number[] = [];
    for (let i = 0; i < 20000; i++) {
      // Long-tailed: most around a few ms, some seconds.
      const v = rnd() < 0.98 ? 1 + rnd() * 9 : 100 + rnd() * 3000;
      values.push(v);
      h.recordMs(v);
    }
    values.sort((a, b) => a - b);
    for (const q of [0.5, 0.9, 0.99, 0.999]) {
      const exact = values[Math.ceil(q * values.length) - 1]!;
      const got = h.percentileMs(q);
      expect(Math.abs(got - exact) / exact).toBeLessThan(0.035);
    }
    expect(h.maxMs()).toBeCloseTo(values[values.length - 1]!, 3);
    expect(h.count).toBe(20000);
  });

  it('reports small exact values exactly and an empty histogram as NaN / zeros', () => {
    const h = new Histogram();
    expect(Number.isNaN(h.percentileMs(0.5))).toBe(true);
    expect(percentilesOf(h)).toEqual({ p50: 0, p90: 0, p99: 0, p999: 0, max: 0 });
    for (const v of [0.001, 0.002, 0.003, 0.004]) h.recordMs(v);
    expect(h.percentileMs(0.5)).toBe(0.002);
    expect(h.percentileMs(1)).toBe(0.004);
  });

  it('p99 of 99 fast samples and one slow one is the fast value; p99.9 is the slow one', () => {
    const h = new Histogram();
    for (let i = 0; i < 99; i++) h.recordMs(2);
    h.recordMs(5000);
    expect(h.percentileMs(0.99)).toBeCloseTo(2, 1);
    expect(h.percentileMs(0.999)).toBeCloseTo(5000, -1);
  });

  it('merges and survives a JSON round trip with the same percentiles', () => {
    const rnd = seededRandom(7);
    const a = new Histogram();
    const b = new Histogram();
    for (let i = 0; i < 5000; i++) (i % 2 ? a : b).recordMs(rnd() * 200);
    const merged = new Histogram();
    merged.merge(a);
    merged.merge(b);
    expect(merged.count).toBe(5000);
    const back = Histogram.fromJSON(JSON.parse(JSON.stringify(merged.toJSON())));
    for (const q of [0.5, 0.9, 0.99, 0.999]) expect(back.percentileMs(q)).toBeCloseTo(merged.percentileMs(q), 6);
    expect(back.toJSON().buckets).toEqual(merged.toJSON().buckets);
  });
});

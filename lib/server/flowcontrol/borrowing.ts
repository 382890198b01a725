// Concurrency borrowing between priority levels (KEP-1040 as in Kubernetes 1.26): each level's seat demand is
// integrated over time, smoothed, and the server's seats are re-divided every adjustment period.

/** Time-weighted statistics of a piecewise-constant value (seats in use + seats waiting) since the last reset. */
export class SeatDemandIntegrator {
  #value = 0;
  #lastMs: number;
  #startMs: number;
  #sum = 0;
  #sumSquares = 0;
  #max = 0;
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
    this.#lastMs = now();
    this.#startMs = this.#lastMs;
  }

  set(value: number): void {
    this.#advance();
    this.#value = value;
    if (value > this.#max) this.#max = value;
  }

  /** Average, standard deviation and maximum since the last reset; starts a new period at the current value. */
  reset(): { average: number; deviation: number; max: number; durationMs: number } {
    this.#advance();
    const durationMs = this.#lastMs - this.#startMs;
    const average = durationMs > 0 ? this.#sum / durationMs : this.#value;
    const variance = durationMs > 0 ? this.#sumSquares / durationMs - average * average : 0;
    const result = { average, deviation: Math.sqrt(Math.max(variance, 0)), max: this.#max, durationMs };
    this.#startMs = this.#lastMs;
    this.#sum = 0;
    this.#sumSquares = 0;
    this.#max = this.#value;
    return result;
  }

  #advance(): void {
    const now = this.#now();
    const dt = now - this.#lastMs;
    if (dt > 0) {
      this.#sum += this.#value * dt;
      this.#sumSquares += this.#value * this.#value * dt;
    }
    this.#lastMs = now;
  }
}

/** Smoothing coefficient of the seat demand (Kubernetes' seatDemandSmoothingCoefficient). */
export const SEAT_DEMAND_SMOOTHING = 0.9;

export class SeatDemandStats {
  highWatermark = 0;
  average = 0;
  deviation = 0;
  smoothed = 0;

  update(obs: { average: number; deviation: number; max: number; durationMs: number }): void {
    this.highWatermark = obs.max;
    if (obs.durationMs <= 0) return;
    this.average = obs.average;
    this.deviation = Number.isNaN(obs.deviation) ? 0 : obs.deviation;
    const envelope = this.average + this.deviation;
    this.smoothed = Math.max(envelope, SEAT_DEMAND_SMOOTHING * this.smoothed + (1 - SEAT_DEMAND_SMOOTHING) * envelope);
  }
}

export interface AllocationItem {
  lowerBound: number;
  upperBound: number;
  target: number;
}

/**
 * Finds the fair proportion p so that Σ min(upper, max(lower, p × target)) = total, and returns each level's share.
 * When even the lower bounds exceed the total they are returned as they are (and the upper bounds when those fall short).
 */
export function computeConcurrencyAllocation(
  total: number,
  items: readonly AllocationItem[],
): { allocs: number[]; fairProp: number } {
  const at = (p: number): number =>
    items.reduce((sum, it) => sum + Math.min(it.upperBound, Math.max(it.lowerBound, p * it.target)), 0);
  const lowSum = items.reduce((s, it) => s + it.lowerBound, 0);
  const highSum = items.reduce((s, it) => s + it.upperBound, 0);
  if (lowSum >= total) return { allocs: items.map((it) => it.lowerBound), fairProp: 0 };
  if (highSum <= total) return { allocs: items.map((it) => it.upperBound), fairProp: Infinity };
  let lo = 0;
  let hi = 1;
  while (at(hi) < total && hi < 1e12) hi *= 2;
  for (let i = 0; i < 100 && hi - lo > 1e-12 * hi; i++) {
    const mid = (lo + hi) / 2;
    if (at(mid) < total) lo = mid;
    else hi = mid;
  }
  const fairProp = hi;
  return {
    allocs: items.map((it) => Math.min(it.upperBound, Math.max(it.lowerBound, fairProp * it.target))),
    fairProp,
  };
}

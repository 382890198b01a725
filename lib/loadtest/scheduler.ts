// Drives operations in an open model (a target rate, latency measured from each operation's intended send time, so a
// stalled server is not hidden by the client waiting for it: no coordinated omission) or a closed model (a fixed
// number of workers, each sending its next request when the previous one is answered).

export interface Clock {
  /** Milliseconds on a monotonic clock. */
  now(): number;
  /** Resolves once now() ≥ t. */
  sleepUntil(t: number): Promise<void>;
}

export const realClock: Clock = {
  now: () => performance.now(),
  sleepUntil: (t) => {
    const wait = t - performance.now();
    return wait <= 0 ? Promise.resolve() : new Promise((resolve) => setTimeout(resolve, Math.max(1, Math.floor(wait))));
  },
};

export interface Slot {
  /** 0-based sequence number of the operation. */
  index: number;
  /** When the operation was meant to be sent (clock ms): the open model's schedule, or the actual send in the closed model. */
  intendedAt: number;
  /** When it was actually sent (clock ms). */
  sentAt: number;
}

export interface ScheduleOptions<R> {
  clock: Clock;
  startAt: number;
  endAt: number;
  op: (slot: Slot) => Promise<R>;
  /** Called once per finished operation with its latency from the intended send time. */
  onDone: (slot: Slot, latencyMs: number, result: R) => void;
}

export interface OpenModelOptions<R> extends ScheduleOptions<R> {
  ratePerSecond: number;
  /** Most operations outstanding at once; beyond it operations wait in the client (and that wait counts as latency). */
  maxInFlight: number;
}

export interface ClosedModelOptions<R> extends ScheduleOptions<R> {
  concurrency: number;
}

/** Intended send time of operation k at a constant rate: a fixed schedule that does not move when the server is slow. */
export function intendedTime(startAt: number, ratePerSecond: number, k: number): number {
  return startAt + (k * 1000) / ratePerSecond;
}

export async function runOpenModel<R>(o: OpenModelOptions<R>): Promise<number> {
  if (!(o.ratePerSecond > 0)) throw new Error('rate must be positive');
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const pending = new Set<Promise<void>>();
  let k = 0;
  for (;;) {
    const intendedAt = intendedTime(o.startAt, o.ratePerSecond, k);
    if (intendedAt >= o.endAt) break;
    if (inFlight >= o.maxInFlight) {
      await new Promise<void>((resolve) => (wake = resolve));
      continue;
    }
    if (o.clock.now() < intendedAt) await o.clock.sleepUntil(intendedAt);
    const slot: Slot = { index: k, intendedAt, sentAt: o.clock.now() };
    k += 1;
    inFlight += 1;
    const done = o.op(slot).then((result) => o.onDone(slot, o.clock.now() - intendedAt, result));
    const tracked: Promise<void> = done.finally(() => {
      inFlight -= 1;
      pending.delete(tracked);
      const w = wake;
      wake = undefined;
      w?.();
    });
    pending.add(tracked);
  }
  await Promise.all([...pending]);
  return k;
}

export async function runClosedModel<R>(o: ClosedModelOptions<R>): Promise<number> {
  if (!(o.concurrency >= 1)) throw new Error('concurrency must be at least 1');
  let k = 0;
  if (o.clock.now() < o.startAt) await o.clock.sleepUntil(o.startAt);
  const worker = async (): Promise<void> => {
    while (o.clock.now() < o.endAt) {
      const t0 = o.clock.now();
      const slot: Slot = { index: k, intendedAt: t0, sentAt: t0 };
      k += 1;
      const result = await o.op(slot);
      o.onDone(slot, o.clock.now() - t0, result);
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, () => worker()));
  return k;
}

// Latency recording and summary statistics (requests/s, percentiles, errors by status) for the benchmark.

export interface PhaseResult {
  workload: string;
  concurrency: number;
  requests: number;
  errors: number;
  /** Error count by status ("ECONNRESET" etc. for transport errors). */
  errorsByKind: Record<string, number>;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** Collects per-operation latencies (ms) and outcomes. */
export class Recorder {
  #latencies = new Float64Array(1 << 16);
  #count = 0;
  errors = 0;
  readonly errorsByKind: Record<string, number> = {};

  record(latencyMs: number, errorKind?: string): void {
    if (this.#count === this.#latencies.length) {
      const grown = new Float64Array(this.#latencies.length * 2);
      grown.set(this.#latencies);
      this.#latencies = grown;
    }
    this.#latencies[this.#count++] = latencyMs;
    if (errorKind !== undefined) {
      this.errors += 1;
      this.errorsByKind[errorKind] = (this.errorsByKind[errorKind] ?? 0) + 1;
    }
  }

  summarize(workload: string, concurrency: number, seconds: number): PhaseResult {
    const sorted = this.#latencies.slice(0, this.#count).sort();
    return {
      workload,
      concurrency,
      requests: this.#count,
      errors: this.errors,
      errorsByKind: { ...this.errorsByKind },
      seconds,
      perSecond: this.#count / seconds,
      p50Ms: percentile(sorted, 0.5),
      p99Ms: percentile(sorted, 0.99),
    };
  }
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Runs `op` in `concurrency` closed loops until `seconds` have passed; each op reports its own outcome. */
export async function closedLoop(concurrency: number, seconds: number, op: (worker: number) => Promise<string | undefined>): Promise<{ recorder: Recorder; elapsedSeconds: number }> {
  const recorder = new Recorder();
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const worker = async (id: number): Promise<void> => {
    while (process.hrtime.bigint() < deadline) {
      const t0 = process.hrtime.bigint();
      let errorKind: string | undefined;
      try {
        errorKind = await op(id);
      } catch (err) {
        errorKind = (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message.slice(0, 60) : String(err));
      }
      recorder.record(Number(process.hrtime.bigint() - t0) / 1e6, errorKind);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
  return { recorder, elapsedSeconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

// Latency recording and summary statistics (requests/s, percentiles, errors by status) for the benchmark.
import { readdirSync, readFileSync } from 'node:fs';

export interface PhaseResult {
  workload: string;
  /** Load generator that drove the phase: 'node' (this process; the default) or 'wrk'. */
  loadGen?: 'node' | 'wrk';
  concurrency: number;
  requests: number;
  errors: number;
  /** Error count by status ("ECONNRESET" etc. for transport errors). */
  errorsByKind: Record<string, number>;
  seconds: number;
  /** Wall-clock window of the CPU measurements when it differs from `seconds` (wrk: process lifetime vs. test duration). */
  cpuSeconds?: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time the apiserver process used during the phase (ms), when known. */
  serverCpuMs?: number;
  /** CPU time of the load generator during the phase (ms): this process for 'node', the wrk process for 'wrk'. */
  clientCpuMs?: number;
  /** CPU time of the etcd process during the phase (ms), when known. */
  etcdCpuMs?: number;
  /** Busy CPU of the whole machine during the phase (ms, all cores), to spot interference from other work. */
  machineCpuMs?: number;
  /** Pauses (ms) of the server's full GCs during the phase, when its GC was traced (phase-gc.ts). */
  fullGcPausesMs?: number[];
}

/** The machine-wide CPU counters of /proc/stat (user, nice, system, idle, iowait, irq, softirq, steal …, in ticks). */
function machineCpuTicks(): number[] | undefined {
  try {
    return readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  } catch {
    return undefined;
  }
}

/** Machine-wide busy CPU ms (all cores) from /proc/stat; undefined elsewhere. */
export function machineBusyMs(): number | undefined {
  const ticks = machineCpuTicks();
  if (ticks === undefined) return undefined;
  const total = ticks.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - (ticks[3] ?? 0) - (ticks[4] ?? 0)) * 10;
}

/** CPU ms the hypervisor gave to others while this machine's vCPUs wanted to run (/proc/stat `steal`, all cores). */
export function machineStealMs(): number | undefined {
  const ticks = machineCpuTicks();
  return ticks === undefined ? undefined : (ticks[7] ?? 0) * 10;
}

/** Pid of a running process whose command line contains `needle` (Linux /proc), e.g. etcd by its data dir. */
export function findPidByCmdline(needle: string): number | undefined {
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) return Number(entry);
      } catch {
        // process went away
      }
    }
  } catch {
    // no /proc
  }
  return undefined;
}

/** User+system CPU ms of a process from /proc/<pid>/stat (Linux, 100 ticks/s); undefined elsewhere. */
export function processCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** Collects per-operation latencies (ms) and outcomes. */
export class Recorder {
  #latencies = new Float64Array(1 << 16);
  #count = 0;
  errors = 0;
  clientCpuMs: number | undefined;
  machineCpuMs: number | undefined;
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
      ...(this.clientCpuMs === undefined ? {} : { clientCpuMs: this.clientCpuMs }),
      ...(this.machineCpuMs === undefined ? {} : { machineCpuMs: this.machineCpuMs }),
    };
  }
}

/** The middle value (the mean of the two middle ones for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Nearest-rank percentile of an ascending array; NaN when empty. */
export function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/**
 * Runs `op` in `concurrency` closed loops until `seconds` have passed; each op reports its own outcome. `pace`, when
 * given, is awaited before each op and not counted in its latency (a fixed request rate).
 */
export async function closedLoop(
  concurrency: number,
  seconds: number,
  op: (worker: number) => Promise<string | undefined>,
  pace?: () => Promise<void>,
): Promise<{ recorder: Recorder; elapsedSeconds: number }> {
  const recorder = new Recorder();
  const cpuBefore = process.cpuUsage();
  const machineBefore = machineBusyMs();
  const started = process.hrtime.bigint();
  const deadline = started + BigInt(Math.round(seconds * 1e9));
  const worker = async (id: number): Promise<void> => {
    while (process.hrtime.bigint() < deadline) {
      if (pace !== undefined) await pace();
      const t0 = process.hrtime.bigint();
      let errorKind: string | undefined;
      try {
        errorKind = await op(id);
      } catch (err) {
        errorKind =
          (err as NodeJS.ErrnoException).code ?? (err instanceof Error ? err.message.slice(0, 60) : String(err));
      }
      recorder.record(Number(process.hrtime.bigint() - t0) / 1e6, errorKind);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => worker(i)));
  const cpu = process.cpuUsage(cpuBefore);
  recorder.clientCpuMs = (cpu.user + cpu.system) / 1000;
  const machineAfter = machineBusyMs();
  if (machineBefore !== undefined && machineAfter !== undefined) recorder.machineCpuMs = machineAfter - machineBefore;
  return { recorder, elapsedSeconds: Number(process.hrtime.bigint() - started) / 1e9 };
}

// CPU time per process of a process tree (Linux /proc): a --workers primary and its workers, measured over a phase.
import { parentPidOf, processIds } from '../../lib/server/proc-table';
import { processCpuMs } from './stats';

/** Pids of the direct children of `pid`; empty elsewhere than Linux. */
export function childPids(pid: number): number[] {
  return processIds()
    .filter((child) => parentPidOf(child) === pid)
    .sort((a, b) => a - b);
}

/** CPU ms of named processes from the start of a phase; `stop()` gives each one's CPU ms during the phase. */
export function cpuMeter(processes: Record<string, number | undefined>): () => Record<string, number> {
  const before = new Map<string, number>();
  for (const [name, pid] of Object.entries(processes)) {
    const ms = pid === undefined ? undefined : processCpuMs(pid);
    if (ms !== undefined) before.set(name, ms);
  }
  return () => {
    const used: Record<string, number> = {};
    for (const [name, ms] of before) {
      const after = processCpuMs(processes[name]!);
      if (after !== undefined) used[name] = after - ms;
    }
    return used;
  };
}

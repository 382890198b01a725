// CPU time per process of a process tree (Linux /proc): a --workers primary and its workers, measured over a phase.
import { readdirSync, readFileSync } from 'node:fs';
import { processCpuMs } from './stats';

/** Pids of the direct children of `pid` (scans /proc/<n>/stat for the parent pid); empty elsewhere. */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return children;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) children.push(Number(entry));
    } catch {
      // the process went away
    }
  }
  return children.sort((a, b) => a - b);
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

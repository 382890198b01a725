// The process table of Linux /proc: the running pids and each one's parent.
import { readdirSync, readFileSync } from 'node:fs';

/** The pids of running processes; empty where /proc cannot be read. */
export function processIds(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
}

/** The parent pid of `pid`, or undefined once it has exited. */
export function parentPidOf(pid: number): number | undefined {
  try {
    // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read after the last ')'.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

// BENCH_WORKERS_PERF=1 for workers-scaling.js: counts each process's system calls, page faults and context switches
// during a phase with `perf stat` (kernel tracepoints; works where the VM has no hardware counters). On this VM
// (kernel page-table isolation without PCID) every system call also flushes the TLB, so calls per create matter.
import { spawn } from 'node:child_process';

const EVENTS = ['raw_syscalls:sys_enter', 'page-faults', 'context-switches'];
const NAMES: Record<string, string> = {
  'raw_syscalls:sys_enter': 'system calls',
  'page-faults': 'page faults',
  'context-switches': 'context switches',
};

export const PERF = process.env['BENCH_WORKERS_PERF'] === '1';

/** Starts counting for every named process; the returned promise's function gives counts per name once `perf` ended. */
export function perfCounters(processes: Record<string, number | undefined>, seconds: number): () => Promise<string[]> {
  if (!PERF) return () => Promise.resolve([]);
  const runs = Object.entries(processes)
    .filter((e): e is [string, number] => e[1] !== undefined)
    .map(([name, pid]) => {
      const child = spawn(
        'perf',
        ['stat', '-x,', '-e', EVENTS.join(','), '-p', String(pid), '--', 'sleep', String(seconds)],
        {
          stdio: ['ignore', 'ignore', 'pipe'],
        },
      );
      let text = '';
      child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      const done = new Promise<string>((resolve) => child.once('close', () => resolve(text)));
      return { name, done };
    });
  return async () => {
    const out: string[] = [];
    for (const { name, done } of runs) {
      const counts = (await done)
        .split('\n')
        .map((line) => line.split(','))
        .filter((f) => f[2] !== undefined && NAMES[f[2]] !== undefined)
        .map((f) => ({ event: NAMES[f[2]!]!, count: Number(f[0]) }));
      out.push(`${name}: ${counts.map((c) => `${c.count} ${c.event}`).join(', ')}`);
    }
    return out;
  };
}

/** Counts as "per create" figures: "name: 1.2 system calls, …". */
export function perCreate(lines: string[], creates: number): string[] {
  return lines.map((line) =>
    line.replace(
      /(\d+) ([a-z ]+?)(?=,|$)/g,
      (_, n: string, event: string) => `${(Number(n) / Math.max(1, creates)).toFixed(2)} ${event}`,
    ),
  );
}

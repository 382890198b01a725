// Per-thread CPU of processes over a phase (Linux /proc/<pid>/task/<tid>/schedstat and status, ns precision): time
// on a core, time runnable but waiting for one, and context switches, of the main thread and of the other threads, to tell more work per operation from the same work slowed by contention.
import { readdirSync, readFileSync } from 'node:fs';

export interface ThreadUsage {
  /** ns on a core. */
  runNs: number;
  /** ns runnable, waiting for a core (the run queue). */
  waitNs: number;
  voluntarySwitches: number;
  involuntarySwitches: number;
  /** Moves to another core (each one starts with cold caches there). */
  migrations: number;
}

type Usage = Map<string, ThreadUsage>;
const ZERO: ThreadUsage = { runNs: 0, waitNs: 0, voluntarySwitches: 0, involuntarySwitches: 0, migrations: 0 };

/** Node names all its threads "node", so the main thread (tid = pid) is told from the rest (V8's GC and compiler
 * helpers, libuv's pool) by id only. */
function kind(pid: number, tid: number): string {
  return tid === pid ? 'main' : 'other threads';
}

function read(pid: number): Usage {
  const usage: Usage = new Map();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return usage;
  }
  for (const t of tids) {
    try {
      const dir = `/proc/${pid}/task/${t}`;
      const [run, wait] = readFileSync(`${dir}/schedstat`, 'utf8').split(' ').map(Number);
      const status = readFileSync(`${dir}/status`, 'utf8');
      const sched = readFileSync(`${dir}/sched`, 'utf8');
      const field = (name: string, text = status): number =>
        Number(new RegExp(`^${name.replace('.', '\\.')}\\s*:\\s+(\\d+)`, 'm').exec(text)?.[1] ?? 0);
      const k = kind(pid, Number(t));
      const u = usage.get(k) ?? { ...ZERO };
      u.runNs += run ?? 0;
      u.waitNs += wait ?? 0;
      u.voluntarySwitches += field('voluntary_ctxt_switches');
      u.involuntarySwitches += field('nonvoluntary_ctxt_switches');
      u.migrations += field('se.nr_migrations', sched);
      usage.set(k, u);
    } catch {
      // the thread went away
    }
  }
  return usage;
}

/** Starts measuring the named processes; the returned function gives each one's usage by thread kind since then. */
export function threadMeter(processes: Record<string, number | undefined>): () => Record<string, Usage> {
  const before = new Map<string, Usage>();
  for (const [name, pid] of Object.entries(processes)) if (pid !== undefined) before.set(name, read(pid));
  return () => {
    const used: Record<string, Usage> = {};
    for (const [name, start] of before) {
      const now = read(processes[name]!);
      const delta: Usage = new Map();
      for (const [k, u] of now) {
        const s = start.get(k) ?? ZERO;
        delta.set(k, {
          runNs: u.runNs - s.runNs,
          waitNs: u.waitNs - s.waitNs,
          voluntarySwitches: u.voluntarySwitches - s.voluntarySwitches,
          involuntarySwitches: u.involuntarySwitches - s.involuntarySwitches,
          migrations: u.migrations - s.migrations,
        });
      }
      used[name] = delta;
    }
    return used;
  };
}

/** One line per process: per operation, µs on a core and µs waiting for one by thread kind, and switches. */
export function describePerOperation(used: Record<string, Usage>, operations: number): string[] {
  const n = Math.max(1, operations);
  return Object.entries(used).map(([name, usage]) => {
    let switches = 0;
    let involuntary = 0;
    let migrations = 0;
    const parts = [...usage]
      .filter(([, u]) => u.runNs > 0)
      .map(([k, u]) => {
        switches += u.voluntarySwitches + u.involuntarySwitches;
        involuntary += u.involuntarySwitches;
        migrations += u.migrations;
        return `${k} ${(u.runNs / 1000 / n).toFixed(0)} µs run / ${(u.waitNs / 1000 / n).toFixed(0)} µs wait`;
      });
    return `${name}: ${parts.join(', ')}; ${(switches / n).toFixed(2)} context switches (${(involuntary / n).toFixed(2)} involuntary), ${(migrations / n).toFixed(2)} core migrations`;
  });
}

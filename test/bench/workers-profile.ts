// BENCH_WORKERS_PROFILE=<dir> for workers-scaling.js: every server process runs under `node --cpu-prof` (the
// primary's execArgv passes to its workers); after a phase, each process's main thread is split by area of the
// server, µs per create = share of its non-idle samples × its main thread's time on a core (schedstat) ÷ creates.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CpuProfile } from './cpu-profile';
import { breakdown } from './profile-areas';

export const PROFILE_DIR = process.env['BENCH_WORKERS_PROFILE'];

/** Node arguments for a phase's server (none unless profiling). */
export function profileArgs(phase: number): string[] {
  if (PROFILE_DIR === undefined) return [];
  const dir = join(PROFILE_DIR, `phase-${phase}`);
  mkdirSync(dir, { recursive: true });
  return ['--cpu-prof', `--cpu-prof-dir=${dir}`];
}

/**
 * Per area, µs of main-thread time per create summed over the phase's processes, from the profiles written when the
 * servers stopped; `mainRunUs` is each process's main-thread time on a core during the window, by pid.
 */
export function areasPerCreate(
  phase: number,
  windowUs: [number, number],
  mainRunUs: Map<number, number>,
  creates: number,
): Map<string, number> {
  const out = new Map<string, number>();
  if (PROFILE_DIR === undefined) return out;
  const dir = join(PROFILE_DIR, `phase-${phase}`);
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'))) {
    const pid = Number(/^CPU\.\d+\.\d+\.(\d+)\./.exec(file)?.[1]); // CPU.<date>.<time>.<pid>.<tid>.<n>.cpuprofile
    const run = mainRunUs.get(pid);
    if (run === undefined) continue;
    const profile = JSON.parse(readFileSync(join(dir, file), 'utf8')) as CpuProfile;
    const b = breakdown(profile, windowUs[0], windowUs[1]);
    for (const a of b.areas) {
      const us = b.busyUs > 0 ? (a.selfUs / b.busyUs) * (run / Math.max(1, creates)) : 0;
      out.set(a.area, (out.get(a.area) ?? 0) + us);
    }
  }
  return out;
}

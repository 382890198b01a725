// A process's resident memory from /proc (Linux): current RSS and the peak since the last reset.
import { readFileSync, writeFileSync } from 'node:fs';

function statusField(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.replace(/\D+/g, '') ?? NaN) * 1024;
}

/** Resident set size in bytes. */
export function rssBytes(pid: number): number {
  return statusField(pid, 'VmRSS');
}

/** Peak resident set size in bytes since the process started or since `resetPeakRss`. */
export function peakRssBytes(pid: number): number {
  return statusField(pid, 'VmHWM');
}

/** Starts a new peak measurement (writing 5 to clear_refs resets VmHWM to the current RSS; needs owner or root). */
export function resetPeakRss(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export const MiB = 2 ** 20;

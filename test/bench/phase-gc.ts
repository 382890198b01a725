// The full collections of a server started with `node --trace-gc-nvp`, timed by when each line reached the bench (the
// onLine of startServerProcess): which mark-compact pauses fell in a phase, so that a phase's tail can be told apart
// from what the request path costs. One full GC of a heap holding tens of thousands of cached objects pauses the
// server for tens of milliseconds, which sets the p99 of the phase it lands in.
import { parseNvpLine } from './gc-trace';

export class FullGcTimeline {
  readonly #pauses: { at: number; ms: number }[] = [];

  /** For startServerProcess' onLine: keeps each mark-compact's pause with the time its line arrived. */
  readonly onLine = (line: string): void => {
    const record = parseNvpLine(line);
    if (record?.kind === 'mark-compact') this.#pauses.push({ at: Date.now(), ms: record.pauseMs });
  };

  /** The pauses (ms) of the full GCs whose lines arrived from `from` to `to` (Date.now() values). */
  pausesBetween(from: number, to: number): number[] {
    return this.#pauses.filter((p) => p.at >= from && p.at <= to).map((p) => p.ms);
  }
}

/** "no full GC", or how many fell in the phase and the longest pause. */
export function describeFullGcs(pauses: readonly number[]): string {
  if (pauses.length === 0) return 'no full GC of the server in the phase';
  const longest = Math.max(...pauses);
  return `${pauses.length} full GC${pauses.length === 1 ? '' : 's'} of the server in the phase, longest pause ${longest.toFixed(1)} ms`;
}

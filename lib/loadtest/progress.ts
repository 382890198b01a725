// The live progress line: rewritten in place (\r) on a terminal, a plain line every few seconds otherwise.

export interface ProgressState {
  /** Seconds since the measured phase started (negative during the warm-up). */
  elapsedSeconds: number;
  totalSeconds: number;
  warmup: boolean;
  ratePerSecond: number;
  errors: number;
  p99Ms: number;
  inFlight: number;
}

export function formatProgress(s: ProgressState): string {
  const phase = s.warmup ? 'warm-up' : 'measure';
  // During the warm-up the clock counts up to 0 from minus the warm-up (the measured phase starts at 0).
  const p99 = Number.isNaN(s.p99Ms) ? '-' : `${s.p99Ms.toFixed(1)} ms`;
  return `[${Math.trunc(s.elapsedSeconds).toFixed(0).padStart(4)}s/${s.totalSeconds}s ${phase}] ${s.ratePerSecond.toFixed(1).padStart(7)} ops/s  errors ${s.errors}  p99 ${p99}  in flight ${s.inFlight}`;
}

export class ProgressReporter {
  private lastPlain = -Infinity;
  private wroteTty = false;

  constructor(
    private readonly out: NodeJS.WritableStream & { isTTY?: boolean },
    private readonly plainEverySeconds = 10,
  ) {}

  update(s: ProgressState): void {
    const line = formatProgress(s);
    if (this.out.isTTY) {
      this.out.write(`\r${line}\x1b[K`);
      this.wroteTty = true;
    } else if (s.elapsedSeconds - this.lastPlain >= this.plainEverySeconds) {
      this.lastPlain = s.elapsedSeconds;
      this.out.write(`${line}\n`);
    }
  }

  finish(): void {
    if (this.wroteTty) this.out.write('\n');
  }
}

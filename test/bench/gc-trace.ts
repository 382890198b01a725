// Reads V8's `--trace-gc-nvp` lines (one name=value line per collection) and sums up the young-generation ones
// (scavenges): pause, bytes surviving in new space, bytes promoted to old space, bytes allocated since the last one.

export interface GcRecord {
  kind: 'scavenge' | 'mark-compact' | 'other';
  pauseMs: number;
  survivedBytes: number;
  promotedBytes: number;
  allocatedBytes: number;
}

/** One collection from a `--trace-gc-nvp` line; undefined for any other line. */
export function parseNvpLine(line: string): GcRecord | undefined {
  const gc = / gc=(\w+) /.exec(line);
  if (gc === null || !line.includes(' pause=')) return undefined;
  const num = (name: string): number => Number(new RegExp(` ${name}=([\\d.]+)`).exec(line)?.[1] ?? Number.NaN);
  const kind = gc[1] === 's' ? 'scavenge' : gc[1] === 'mc' || gc[1] === 'ms' ? 'mark-compact' : 'other';
  return {
    kind,
    pauseMs: num('pause'),
    survivedBytes: num('new_space_survived'),
    promotedBytes: num('promoted'),
    allocatedBytes: num('allocated'),
  };
}

export interface GcSummary {
  scavenges: number;
  pauseAvgMs: number;
  pauseP90Ms: number;
  pauseMaxMs: number;
  /** Averages per scavenge. */
  survivedKb: number;
  promotedKb: number;
  allocatedMb: number;
  /** Sum of scavenge pauses. */
  scavengeMs: number;
  promotedTotalBytes: number;
  markCompacts: number;
  markCompactMs: number;
}

export function summarizeGc(records: GcRecord[]): GcSummary {
  const sc = records.filter((r) => r.kind === 'scavenge');
  const mc = records.filter((r) => r.kind === 'mark-compact');
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const avg = (xs: number[]): number => (xs.length === 0 ? Number.NaN : sum(xs) / xs.length);
  const pauses = sc.map((r) => r.pauseMs).sort((a, b) => a - b);
  return {
    scavenges: sc.length,
    pauseAvgMs: avg(pauses),
    pauseP90Ms: pauses[Math.min(pauses.length - 1, Math.floor(0.9 * pauses.length))] ?? Number.NaN,
    pauseMaxMs: pauses.length === 0 ? Number.NaN : (pauses[pauses.length - 1] as number),
    survivedKb: avg(sc.map((r) => r.survivedBytes)) / 1024,
    promotedKb: avg(sc.map((r) => r.promotedBytes)) / 1024,
    allocatedMb: avg(sc.map((r) => r.allocatedBytes)) / 2 ** 20,
    scavengeMs: sum(pauses),
    promotedTotalBytes: sum(sc.map((r) => r.promotedBytes)),
    markCompacts: mc.length,
    markCompactMs: sum(mc.map((r) => r.pauseMs)),
  };
}

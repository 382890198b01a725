// The table of probe-timing.ts's lines (BENCH_APF_DECOMPOSE=1 in apf-probe-ab.ts): per build and probe kind, the
// median / p90 / max of each stage of a probe's time (every probe of the run: before, during and after the storms).
import { existsSync, readFileSync } from 'node:fs';

interface TimingLine {
  script: string;
  kind: string;
  sentToAcceptMs: number;
  acceptToRequestMs: number;
  requestToFinishMs: number;
}

/** `builds`: [label, server script] as apf-probe-ab ran them. */
export function probeTimingTable(file: string, builds: [string, string][]): string[] {
  if (!existsSync(file)) return ['(no probe timings were written)'];
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as TimingLine);
  const fmt = (values: number[]): string => {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))] ?? Number.NaN;
    return `${at(0.5).toFixed(1)} / ${at(0.9).toFixed(1)} / ${at(1).toFixed(1)}`;
  };
  const rows: string[] = [];
  for (const [label, script] of builds) {
    for (const kind of ['readyz', 'masters']) {
      const of = lines.filter((l) => l.script === script && l.kind === kind);
      if (!of.length) continue;
      rows.push(
        `| ${label} | ${kind === 'readyz' ? '/readyz' : 'system:masters LIST'} | ${of.length} | ${fmt(of.map((l) => l.sentToAcceptMs))} | ${fmt(of.map((l) => l.acceptToRequestMs))} | ${fmt(of.map((l) => l.requestToFinishMs))} |`,
      );
    }
  }
  return [
    'Where the probes waited (probe-timing.ts in the servers; ms, median / p90 / max over every probe of the run):',
    '',
    '| Build | probe | probes | sent → accepted | accepted → request parsed | parsed → response written |',
    '|---|---|---:|---|---|---|',
    ...rows,
  ];
}

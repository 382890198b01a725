// Kubernetes' API call latency SLOs (sig-scalability api_call_latency): p99 ≤ 1 s for single-object mutating
// calls and GETs, ≤ 5 s for LISTs of one namespace, ≤ 30 s for cluster-wide LISTs.
import type { RowJson, Scope } from './recorder';

export const SLO_THRESHOLD_MS: Record<Scope, number> = { resource: 1000, namespace: 5000, cluster: 30000 };

export interface SloVerdict {
  op: string;
  resource: string;
  scope: Scope;
  p99Ms: number;
  thresholdMs: number;
  pass: boolean;
}

export function sloVerdicts(rows: RowJson[]): SloVerdict[] {
  return rows.map((r) => ({
    op: r.op,
    resource: r.resource,
    scope: r.scope,
    p99Ms: r.p99,
    thresholdMs: SLO_THRESHOLD_MS[r.scope],
    pass: r.p99 <= SLO_THRESHOLD_MS[r.scope],
  }));
}

export function formatVerdicts(verdicts: SloVerdict[]): string {
  const lines = verdicts.map(
    (v) =>
      `  ${v.pass ? 'PASS' : 'FAIL'}  ${`${v.op} ${v.resource} (${v.scope})`.padEnd(48)} p99 ${v.p99Ms.toFixed(1).padStart(9)} ms  ≤ ${v.thresholdMs} ms`,
  );
  const failed = verdicts.filter((v) => !v.pass).length;
  return `SLO (p99 latency, Kubernetes api_call_latency): ${failed === 0 ? 'all pass' : `${failed} of ${verdicts.length} FAIL`}\n${lines.join('\n')}\n`;
}

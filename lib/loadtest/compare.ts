// Two result.json files side by side: a delta table for the terminal and an HTML comparison report.
import { readFileSync } from 'node:fs';
import { histogramsByOp, NINES_TICKS, spectrum, STYLE } from './report';
import type { ResultJson } from './run';
import { escapeHtml as e, lineChart } from './svg';

export function readResult(path: string): ResultJson {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`${path}: not a readable JSON file: ${(err as Error).message}`);
  }
  const r = parsed as Partial<ResultJson>;
  if (r.tool !== 'orch-loadtest' || !Array.isArray(r.rows))
    throw new Error(`${path}: not an orch-loadtest result.json`);
  return r as ResultJson;
}

export interface DeltaRow {
  key: string;
  metric: string;
  a: number;
  b: number;
  /** (b − a) / a in percent; NaN when a is 0. */
  deltaPercent: number;
}

function delta(key: string, metric: string, a: number, b: number): DeltaRow {
  return { key, metric, a, b, deltaPercent: a === 0 ? Number.NaN : ((b - a) / a) * 100 };
}

export function compareResults(a: ResultJson, b: ResultJson): DeltaRow[] {
  const out: DeltaRow[] = [
    delta('total', 'rate/s', a.totals.ratePerSecond, b.totals.ratePerSecond),
    delta('total', 'errors', a.totals.errors, b.totals.errors),
    delta('total', 'p50 ms', a.totals.p50, b.totals.p50),
    delta('total', 'p99 ms', a.totals.p99, b.totals.p99),
  ];
  const keyOf = (r: { op: string; resource: string; scope: string }): string => `${r.op} ${r.resource} (${r.scope})`;
  const bRows = new Map(b.rows.map((r) => [keyOf(r), r]));
  for (const ra of a.rows) {
    const rb = bRows.get(keyOf(ra));
    if (!rb) continue;
    out.push(
      delta(keyOf(ra), 'p50 ms', ra.p50, rb.p50),
      delta(keyOf(ra), 'p99 ms', ra.p99, rb.p99),
      delta(keyOf(ra), 'errors', ra.errors, rb.errors),
    );
  }
  out.push(
    delta('watch', 'lag p99 ms', a.watch.p99, b.watch.p99),
    delta('watch', 'missed events', a.watch.missedEvents, b.watch.missedEvents),
  );
  if (a.server.cpuSeconds !== undefined && b.server.cpuSeconds !== undefined)
    out.push(delta('server', 'CPU seconds', a.server.cpuSeconds, b.server.cpuSeconds));
  if (a.server.rssBytesAfter !== undefined && b.server.rssBytesAfter !== undefined)
    out.push(delta('server', 'RSS MiB', a.server.rssBytesAfter / 2 ** 20, b.server.rssBytesAfter / 2 ** 20));
  return out;
}

const num = (v: number): string => (Number.isInteger(v) ? String(v) : v.toFixed(2));
const pct = (v: number): string => (Number.isNaN(v) ? '-' : `${v >= 0 ? '+' : ''}${v.toFixed(1)}%`);

export function formatComparison(aName: string, bName: string, rows: DeltaRow[]): string {
  const w = Math.max(10, ...rows.map((r) => r.key.length));
  const header = `${'what'.padEnd(w)}  ${'metric'.padEnd(14)}  ${'a'.padStart(10)}  ${'b'.padStart(10)}  ${'delta'.padStart(8)}`;
  const lines = rows.map(
    (r) =>
      `${r.key.padEnd(w)}  ${r.metric.padEnd(14)}  ${num(r.a).padStart(10)}  ${num(r.b).padStart(10)}  ${pct(r.deltaPercent).padStart(8)}`,
  );
  return `a: ${aName}\nb: ${bName}\n${header}\n${lines.join('\n')}\n`;
}

export function renderComparison(aName: string, a: ResultJson, bName: string, b: ResultJson): string {
  const rows = compareResults(a, b);
  const table = rows
    .map(
      (r) =>
        `<tr><td class="l">${e(r.key)}</td><td class="l">${e(r.metric)}</td><td>${num(r.a)}</td><td>${num(r.b)}</td><td class="${r.deltaPercent > 10 && r.metric !== 'rate/s' ? 'fail' : ''}">${pct(r.deltaPercent)}</td></tr>`,
    )
    .join('\n');
  const ha = histogramsByOp(a.rows);
  const hb = histogramsByOp(b.rows);
  const charts = [...ha.keys()]
    .filter((op) => hb.has(op))
    .map((op) =>
      lineChart(
        {
          title: `${op}: latency distribution, a vs b`,
          xLabel: 'percentile',
          yLabel: 'ms (log)',
          logY: true,
          xTicks: NINES_TICKS,
          height: 220,
        },
        [
          { name: 'a', points: spectrum(ha.get(op)!) },
          { name: 'b', points: spectrum(hb.get(op)!) },
        ],
      ),
    )
    .join('\n');
  const p99 = lineChart(
    { title: 'p99 over time (all operations)', xLabel: 'seconds', yLabel: 'ms (log)', logY: true },
    [
      { name: 'a', points: a.timeline.map((i) => [i.t, i.p99]) },
      { name: 'b', points: b.timeline.map((i) => [i.t, i.p99]) },
    ],
  );
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>orch-loadtest comparison</title><style>${STYLE}</style></head><body>
<h1>Load-test comparison</h1>
<p>a: <code>${e(aName)}</code> (${e(a.startedAt)}, ${e(a.target.server)}); b: <code>${e(bName)}</code> (${e(b.startedAt)}, ${e(b.target.server)})</p>
<table><tr><th class="l">what</th><th class="l">metric</th><th>a</th><th>b</th><th>delta</th></tr>${table}</table>
${p99}${charts}
</body></html>
`;
}

// report.html: one self-contained page (inline CSS and SVG, no script, nothing fetched) for one result.json.
import { Histogram } from './histogram';
import type { ResultJson } from './run';
import type { RowJson } from './recorder';
import { escapeHtml as e, lineChart, stackedBars, type Series } from './svg';

export const STYLE = `body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1100px}
table{border-collapse:collapse;margin:8px 0 20px;font-size:12px}th,td{border:1px solid #ddd;padding:3px 7px;text-align:right}
th{background:#f4f4f4}td.l,th.l{text-align:left}.pass{color:#1a7f37;font-weight:bold}.fail{color:#c62828;font-weight:bold}
figure.chart{margin:8px 0 18px}h2{margin-top:28px;border-bottom:1px solid #ddd}code{background:#f4f4f4;padding:1px 4px}`;

const ms = (v: number): string => (Number.isFinite(v) ? v.toFixed(v >= 100 ? 0 : v >= 10 ? 1 : 2) : '-');

/** Nines scale for a percentile spectrum: 0 → 0, 0.9 → 1, 0.99 → 2, 0.999 → 3. */
export function nines(q: number): number {
  return -Math.log10(Math.max(1e-6, 1 - q));
}

export const NINES_TICKS: Array<[number, string]> = [
  [0, 'p0'],
  [nines(0.5), 'p50'],
  [1, 'p90'],
  [2, 'p99'],
  [3, 'p99.9'],
  [4, 'p99.99'],
];

/** A histogram's percentile spectrum: [nines(q), latency at q] at each bucket boundary. */
export function spectrum(h: Histogram): Array<[number, number]> {
  const json = h.toJSON();
  const points: Array<[number, number]> = [];
  let seen = 0;
  for (const [upper, n] of json.buckets) {
    seen += n;
    const q = seen / json.count;
    points.push([Math.min(4, nines(q === 1 ? 1 - 1 / (json.count * 10) : q)), Math.min(upper, json.maxMs)]);
  }
  return points;
}

/** Histograms of the rows merged per operation (over resources and scopes). */
export function histogramsByOp(rows: RowJson[]): Map<string, Histogram> {
  const byOp = new Map<string, Histogram>();
  for (const r of rows) {
    let h = byOp.get(r.op);
    if (!h) byOp.set(r.op, (h = new Histogram()));
    h.merge(Histogram.fromJSON(r.histogram));
  }
  return byOp;
}

function rowsTable(r: ResultJson): string {
  const head =
    '<tr><th class="l">operation</th><th class="l">resource</th><th class="l">scope</th><th>count</th><th>rate/s</th><th>errors</th><th class="l">by code</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>p99.9 ms</th><th>max ms</th></tr>';
  const body = r.rows
    .map(
      (x) =>
        `<tr><td class="l">${e(x.op)}</td><td class="l">${e(x.resource)}</td><td class="l">${x.scope}</td><td>${x.count}</td><td>${x.ratePerSecond}</td><td>${x.errors}</td><td class="l">${e(
          Object.entries(x.errorsByCode)
            .map(([c, n]) => `${c}: ${n}`)
            .join(', '),
        )}</td><td>${ms(x.p50)}</td><td>${ms(x.p90)}</td><td>${ms(x.p99)}</td><td>${ms(x.p999)}</td><td>${ms(x.max)}</td></tr>`,
    )
    .join('\n');
  return `<table>${head}${body}</table>`;
}

function sloTable(r: ResultJson): string {
  const rows = r.slo
    .map(
      (v) =>
        `<tr><td class="${v.pass ? 'pass' : 'fail'} l">${v.pass ? 'PASS' : 'FAIL'}</td><td class="l">${e(v.op)}</td><td class="l">${e(v.resource)}</td><td class="l">${v.scope}</td><td>${ms(v.p99Ms)}</td><td>≤ ${v.thresholdMs}</td></tr>`,
    )
    .join('\n');
  return `<p class="${r.sloPass ? 'pass' : 'fail'}">${r.sloPass ? 'All SLOs met' : `${r.slo.filter((v) => !v.pass).length} SLO(s) broken`}</p>
<table><tr><th class="l">verdict</th><th class="l">operation</th><th class="l">resource</th><th class="l">scope</th><th>p99 ms</th><th>threshold ms</th></tr>${rows}</table>`;
}

function keyValues(obj: Record<string, unknown>): string {
  return `<table>${Object.entries(obj)
    .map(
      ([k, v]) =>
        `<tr><th class="l">${e(k)}</th><td class="l">${e(typeof v === 'object' ? JSON.stringify(v) : String(v))}</td></tr>`,
    )
    .join('')}</table>`;
}

function serverSection(r: ResultJson): string {
  const s = r.server;
  if (!s.available) return `<p>Server metrics not available: ${e(s.error ?? 'unknown')}</p>`;
  const rows = s.requestDuration
    .map(
      (v) =>
        `<tr><td class="l">${e(v.verb)}</td><td>${v.count}</td><td>${ms(v.p50Ms)}</td><td>${ms(v.p90Ms)}</td><td>${ms(v.p99Ms)}</td></tr>`,
    )
    .join('');
  const mib = (b?: number): string => (b === undefined ? '-' : `${(b / 2 ** 20).toFixed(1)} MiB`);
  return `<p>Scraped from <code>/metrics</code> at the start and end of the measured phase. Quantiles are estimated from
<code>apiserver_request_duration_seconds</code> bucket deltas (linear within a bucket, as <code>histogram_quantile</code>).</p>
<table><tr><th class="l">verb</th><th>requests</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th></tr>${rows}</table>
${keyValues({ 'process CPU seconds': s.cpuSeconds ?? '-', 'CPU cores busy (average)': s.cpuCores ?? '-', 'RSS before': mib(s.rssBytesBefore), 'RSS after': mib(s.rssBytesAfter) })}`;
}

export function renderReport(r: ResultJson): string {
  const tl = r.timeline;
  const ops = [...new Set(tl.flatMap((i) => Object.keys(i.ops)))].sort();
  const codes = [...new Set(tl.flatMap((i) => Object.keys(i.errorsByCode)))].sort();
  const percentilesOverTime = lineChart(
    {
      title: 'Latency percentiles over time (all operations; negative seconds are the warm-up)',
      xLabel: 'seconds',
      yLabel: 'ms (log)',
      logY: true,
    },
    [
      { name: 'p50', points: tl.map((i) => [i.t, i.p50]) },
      { name: 'p90', points: tl.map((i) => [i.t, i.p90]) },
      { name: 'p99', points: tl.map((i) => [i.t, i.p99]) },
      { name: 'max', points: tl.map((i) => [i.t, i.max]) },
    ],
  );
  const p99PerOp = lineChart(
    { title: 'p99 latency per operation over time', xLabel: 'seconds', yLabel: 'ms (log)', logY: true },
    ops.map((op) => ({
      name: op,
      points: tl.filter((i) => i.ops[op]).map((i) => [i.t, i.ops[op]!.p99] as [number, number]),
    })),
  );
  const throughput = lineChart(
    { title: 'Throughput per operation', xLabel: 'seconds', yLabel: 'requests/s' },
    ops.map((op) => ({ name: op, points: tl.map((i) => [i.t, i.ops[op]?.count ?? 0] as [number, number]) })),
  );
  const byOp = histogramsByOp(r.rows);
  const distribution = lineChart(
    {
      title: 'Latency distribution per operation (percentile spectrum)',
      xLabel: 'percentile',
      yLabel: 'ms (log)',
      logY: true,
      xTicks: NINES_TICKS,
    },
    [...byOp.entries()].map(([op, h]) => ({ name: op, points: spectrum(h) })),
  );
  const errorSeries: Series[] = codes.map((c) => ({
    name: c,
    points: tl.map((i) => [i.t, i.errorsByCode[c] ?? 0] as [number, number]),
  }));
  const errors = stackedBars(
    {
      title: `Errors per second by status (${r.totals.errors} in the measured phase)`,
      xLabel: 'seconds',
      yLabel: 'errors',
    },
    tl.map((i) => i.t),
    errorSeries,
  );
  const w = r.watch;
  const watchChart = lineChart(
    {
      title: 'Watch delivery lag over time (by acknowledgment second)',
      xLabel: 'seconds',
      yLabel: 'ms (log)',
      logY: true,
    },
    [
      { name: 'lag p50', points: w.timeline.map((i) => [i.t, i.p50]) },
      { name: 'lag p99', points: w.timeline.map((i) => [i.t, i.p99]) },
    ],
  );
  const p = r.profile;
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>orch-loadtest ${e(r.runId)} ${e(r.startedAt)}</title><style>${STYLE}</style></head>
<body>
<h1>Load test ${e(r.runId)}</h1>
<p>${e(r.startedAt)} → ${e(r.finishedAt)} against <code>${e(r.target.server)}</code>${r.target.embedded ? ' (embedded throwaway orch-apiserver)' : ''}${r.target.version ? `, server ${e(r.target.version)}` : ''}.
${p.model === 'open' ? `Open model at ${p.rate} operations/s (latency from each operation's intended send time)` : `Closed model with ${p.concurrency} workers`}, ${p.duration} s measured after ${p.warmup} s of warm-up:
<b>${r.totals.count}</b> requests, <b>${r.totals.ratePerSecond}</b>/s, <b>${r.totals.errors}</b> errors, p50 ${ms(r.totals.p50)} ms, p99 ${ms(r.totals.p99)} ms, max ${ms(r.totals.max)} ms.</p>
<h2>SLOs</h2>${sloTable(r)}
<h2>Latency and throughput over time</h2>${percentilesOverTime}${p99PerOp}${throughput}
<h2>Latency distribution</h2>${distribution}
<h2>Per operation and resource</h2>${rowsTable(r)}
<h2>Errors</h2>${errors}
<h2>Watches</h2>
<p>${w.watchers} watches received ${w.receivedEvents} of ${w.expectedEvents} expected events (<b>${w.missedEvents}</b> missed, ${w.reconnects} reconnects).
Lag from the writer's acknowledgment to the event: p50 ${ms(w.p50)} ms, p90 ${ms(w.p90)} ms, p99 ${ms(w.p99)} ms, max ${ms(w.max)} ms.</p>
${watchChart}
<h2>Server</h2>${serverSection(r)}
<h2>Parameters</h2>${keyValues({ command: r.command, runId: r.runId, ...p })}
<h2>Machine</h2>${keyValues({ ...r.machine })}
</body></html>
`;
}

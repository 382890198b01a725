// Inline SVG charts (no script, no network): line charts on linear or log axes and stacked bars.

export const PALETTE = [
  '#1f77b4',
  '#d62728',
  '#2ca02c',
  '#ff7f0e',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#7f7f7f',
  '#bcbd22',
  '#17becf',
  '#393b79',
  '#637939',
];

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

export interface Series {
  name: string;
  points: Array<[number, number]>;
  color?: string;
}

export interface ChartOptions {
  title: string;
  xLabel: string;
  yLabel: string;
  logY?: boolean;
  /** Tick labels of the x axis (value → text), e.g. for the nines scale of a percentile spectrum. */
  xTicks?: Array<[number, string]>;
  width?: number;
  height?: number;
}

const M = { left: 64, right: 170, top: 28, bottom: 40 };

function fmt(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1000) return `${(v / 1000).toFixed(a >= 10000 ? 0 : 1)}k`;
  if (a >= 10) return v.toFixed(0);
  if (a >= 1) return v.toFixed(1).replace(/\.0$/, '');
  return v.toPrecision(2);
}

function niceTicks(min: number, max: number, count = 5): number[] {
  if (max <= min) return [min];
  const step0 = (max - min) / count;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= step0) ?? step0;
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Math.round(v / step) * step);
  return ticks;
}

function frame(o: ChartOptions, body: string, legend: Series[], w: number, h: number): string {
  const items = legend
    .map(
      (s, i) =>
        `<g transform="translate(${w - M.right + 12},${M.top + 4 + i * 16})"><path d="M0,6 L18,6" stroke="${s.color}" stroke-width="3"/><text x="24" y="10" font-size="11">${escapeHtml(s.name)}</text></g>`,
    )
    .join('');
  return `<figure class="chart"><svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img" aria-label="${escapeHtml(o.title)}">
<text x="${M.left}" y="16" font-size="13" font-weight="bold">${escapeHtml(o.title)}</text>
${body}
<text x="${M.left + (w - M.left - M.right) / 2}" y="${h - 6}" font-size="11" text-anchor="middle">${escapeHtml(o.xLabel)}</text>
<text transform="translate(14,${M.top + (h - M.top - M.bottom) / 2}) rotate(-90)" font-size="11" text-anchor="middle">${escapeHtml(o.yLabel)}</text>
${items}</svg></figure>`;
}

function colored(series: Series[]): Series[] {
  return series.map((s, i) => ({ ...s, color: s.color ?? PALETTE[i % PALETTE.length]! }));
}

export function lineChart(o: ChartOptions, input: Series[]): string {
  const w = o.width ?? 760;
  const h = o.height ?? 280;
  const series = colored(input.filter((s) => s.points.length > 0));
  const xs = series.flatMap((s) => s.points.map((p) => p[0]));
  const ysRaw = series.flatMap((s) => s.points.map((p) => p[1]));
  if (xs.length === 0)
    return frame(o, `<text x="${M.left + 10}" y="${M.top + 40}" font-size="12">no data</text>`, [], w, h);
  const xMin = Math.min(...xs);
  const xMax = Math.max(...xs) > xMin ? Math.max(...xs) : xMin + 1;
  const tf = (v: number): number => (o.logY ? Math.log10(Math.max(v, 0.01)) : v);
  const ys = ysRaw.map(tf);
  let yMin = o.logY ? Math.floor(Math.min(...ys)) : 0;
  let yMax = o.logY ? Math.ceil(Math.max(...ys)) : Math.max(...ys) * 1.1;
  if (yMax <= yMin) yMax = yMin + 1;
  if (!o.logY) yMin = 0;
  const pw = w - M.left - M.right;
  const ph = h - M.top - M.bottom;
  const X = (v: number): number => M.left + ((v - xMin) / (xMax - xMin)) * pw;
  const Y = (v: number): number => M.top + ph - ((tf(v) - yMin) / (yMax - yMin)) * ph;
  const yTicks = o.logY ? Array.from({ length: yMax - yMin + 1 }, (_, i) => 10 ** (yMin + i)) : niceTicks(0, yMax);
  const xTicks = o.xTicks ?? niceTicks(xMin, xMax, 8).map((v) => [v, fmt(v)] as [number, string]);
  const grid = [
    ...yTicks.map(
      (t) =>
        `<path d="M${M.left},${Y(t).toFixed(1)} H${M.left + pw}" stroke="#e5e5e5"/><text x="${M.left - 6}" y="${(Y(t) + 4).toFixed(1)}" font-size="10" text-anchor="end">${fmt(t)}</text>`,
    ),
    ...xTicks
      .filter(([v]) => v >= xMin && v <= xMax)
      .map(
        ([v, label]) =>
          `<path d="M${X(v).toFixed(1)},${M.top} V${M.top + ph}" stroke="#f0f0f0"/><text x="${X(v).toFixed(1)}" y="${M.top + ph + 14}" font-size="10" text-anchor="middle">${escapeHtml(label)}</text>`,
      ),
    `<path d="M${M.left},${M.top} V${M.top + ph} H${M.left + pw}" stroke="#333" fill="none"/>`,
  ].join('\n');
  const lines = series
    .map((s) => {
      const d = s.points.map((p, i) => `${i === 0 ? 'M' : 'L'}${X(p[0]).toFixed(1)},${Y(p[1]).toFixed(1)}`).join(' ');
      const dots =
        s.points.length === 1
          ? `<circle cx="${X(s.points[0]![0]).toFixed(1)}" cy="${Y(s.points[0]![1]).toFixed(1)}" r="3" fill="${s.color}"/>`
          : '';
      return `<path class="series" d="${d}" stroke="${s.color}" stroke-width="1.6" fill="none"><title>${escapeHtml(s.name)}</title></path>${dots}`;
    })
    .join('\n');
  return frame(o, `${grid}\n${lines}`, series, w, h);
}

/** Stacked bars per x (e.g. errors per second by status code); bars are drawn as paths. */
export function stackedBars(o: ChartOptions, xs: number[], input: Series[]): string {
  const w = o.width ?? 760;
  const h = o.height ?? 220;
  const series = colored(input);
  const pw = w - M.left - M.right;
  const ph = h - M.top - M.bottom;
  const xMin = Math.min(...xs, 0);
  const xMax = Math.max(...xs, xMin + 1);
  const totals = xs.map((x) => series.reduce((a, s) => a + (s.points.find((p) => p[0] === x)?.[1] ?? 0), 0));
  const yMax = Math.max(1, ...totals) * 1.1;
  const X = (v: number): number => M.left + ((v - xMin) / (xMax - xMin + 1)) * pw;
  const Y = (v: number): number => M.top + ph - (v / yMax) * ph;
  const bw = Math.max(1, pw / (xMax - xMin + 1) - 1);
  const yTicks = niceTicks(0, yMax);
  const grid = [
    ...yTicks.map(
      (t) =>
        `<path d="M${M.left},${Y(t).toFixed(1)} H${M.left + pw}" stroke="#e5e5e5"/><text x="${M.left - 6}" y="${(Y(t) + 4).toFixed(1)}" font-size="10" text-anchor="end">${fmt(t)}</text>`,
    ),
    ...niceTicks(xMin, xMax, 8).map(
      (v) => `<text x="${X(v).toFixed(1)}" y="${M.top + ph + 14}" font-size="10" text-anchor="middle">${fmt(v)}</text>`,
    ),
    `<path d="M${M.left},${M.top} V${M.top + ph} H${M.left + pw}" stroke="#333" fill="none"/>`,
  ].join('\n');
  const base = new Map<number, number>();
  const bars = series
    .map((s) => {
      const d = s.points
        .filter((p) => p[1] > 0)
        .map(([x, v]) => {
          const b = base.get(x) ?? 0;
          base.set(x, b + v);
          return `M${X(x).toFixed(1)},${Y(b).toFixed(1)} V${Y(b + v).toFixed(1)} h${bw.toFixed(1)} V${Y(b).toFixed(1)} Z`;
        })
        .join(' ');
      return d === ''
        ? ''
        : `<path class="series" d="${d}" fill="${s.color}"><title>${escapeHtml(s.name)}</title></path>`;
    })
    .join('\n');
  const empty =
    series.length === 0
      ? `<text x="${M.left + 10}" y="${M.top + 20}" font-size="12">none</text><path class="series" d="M${M.left},${Y(0).toFixed(1)} H${M.left + pw}" stroke="#2ca02c" stroke-width="2"/>`
      : '';
  return frame(o, `${grid}\n${bars}${empty}`, series, w, h);
}

// Server-side figures from the Prometheus text at /metrics, scraped before and after the measured phase:
// apiserver_request_duration_seconds per verb (quantiles estimated from the bucket deltas, as histogram_quantile
// does) and the process' CPU seconds and resident memory.
import type { ApiClient } from './client';

export interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the sample lines of the Prometheus text exposition format (comments and blank lines skipped). */
export function parsePrometheusText(text: string): MetricSample[] {
  const out: MetricSample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})?\s+(\S+)/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const l of (m[3] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    const value = m[4] === '+Inf' ? Infinity : m[4] === '-Inf' ? -Infinity : Number(m[4]);
    out.push({ name: m[1]!, labels, value });
  }
  return out;
}

export interface Scrape {
  at: string;
  samples: MetricSample[];
}

export async function scrapeMetrics(client: ApiClient): Promise<Scrape | { error: string }> {
  const reply = await client.request('GET', '/metrics', { timeoutMs: 30_000 });
  if (reply.status !== 200) return { error: `GET /metrics answered ${reply.error ?? reply.status}` };
  return { at: new Date().toISOString(), samples: parsePrometheusText(reply.body) };
}

export interface VerbLatency {
  verb: string;
  count: number;
  p50Ms: number;
  p90Ms: number;
  p99Ms: number;
}

export interface ServerFigures {
  available: boolean;
  error?: string;
  requestDuration: VerbLatency[];
  cpuSeconds?: number;
  /** CPU seconds per wall second over the measured phase (1 = one core busy). */
  cpuCores?: number;
  rssBytesBefore?: number;
  rssBytesAfter?: number;
}

/** histogram_quantile over cumulative buckets [(le, count)] sorted by le. */
export function bucketQuantile(q: number, buckets: Array<[number, number]>): number {
  const total = buckets[buckets.length - 1]?.[1] ?? 0;
  if (total === 0) return Number.NaN;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const [le, count] of buckets) {
    if (count >= rank) {
      if (le === Infinity) return prevLe;
      return prevLe + (le - prevLe) * ((rank - prevCount) / Math.max(1e-12, count - prevCount));
    }
    prevLe = le;
    prevCount = count;
  }
  return prevLe;
}

function single(samples: MetricSample[], name: string): number | undefined {
  return samples.find((s) => s.name === name)?.value;
}

/** Bucket counts per verb (summed over the other labels); WATCH and CONNECT are long-running and left out. */
function bucketsByVerb(samples: MetricSample[]): Map<string, Map<number, number>> {
  const byVerb = new Map<string, Map<number, number>>();
  for (const s of samples) {
    if (s.name !== 'apiserver_request_duration_seconds_bucket') continue;
    const verb = s.labels['verb'] ?? '';
    if (verb === 'WATCH' || verb === 'CONNECT' || verb === '') continue;
    const le = s.labels['le'] === '+Inf' ? Infinity : Number(s.labels['le']);
    let m = byVerb.get(verb);
    if (!m) byVerb.set(verb, (m = new Map()));
    m.set(le, (m.get(le) ?? 0) + s.value);
  }
  return byVerb;
}

export function serverFigures(
  before: Scrape | { error: string },
  after: Scrape | { error: string },
  seconds: number,
): ServerFigures {
  if ('error' in before || 'error' in after)
    return {
      available: false,
      error: 'error' in before ? before.error : (after as { error: string }).error,
      requestDuration: [],
    };
  const b = bucketsByVerb(before.samples);
  const a = bucketsByVerb(after.samples);
  const requestDuration: VerbLatency[] = [];
  for (const [verb, buckets] of [...a.entries()].sort()) {
    const delta: Array<[number, number]> = [...buckets.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([le, n]) => [le, n - (b.get(verb)?.get(le) ?? 0)]);
    const count = delta[delta.length - 1]?.[1] ?? 0;
    if (count <= 0) continue;
    const ms = (q: number): number => Math.round(bucketQuantile(q, delta) * 1e6) / 1000;
    requestDuration.push({ verb, count, p50Ms: ms(0.5), p90Ms: ms(0.9), p99Ms: ms(0.99) });
  }
  const cpuB = single(before.samples, 'process_cpu_seconds_total');
  const cpuA = single(after.samples, 'process_cpu_seconds_total');
  const rssB = single(before.samples, 'process_resident_memory_bytes');
  const rssA = single(after.samples, 'process_resident_memory_bytes');
  const figures: ServerFigures = { available: true, requestDuration };
  if (cpuB !== undefined && cpuA !== undefined) {
    figures.cpuSeconds = Math.round((cpuA - cpuB) * 1000) / 1000;
    figures.cpuCores = Math.round(((cpuA - cpuB) / seconds) * 1000) / 1000;
  }
  if (rssB !== undefined) figures.rssBytesBefore = rssB;
  if (rssA !== undefined) figures.rssBytesAfter = rssA;
  return figures;
}

import { ProgressReporter } from './progress';
import { bucketQuantile, parsePrometheusText, serverFigures } from './server-metrics';
import { sloVerdicts } from './slo';
import type { RowJson } from './recorder';

function stream(isTTY: boolean): NodeJS.WritableStream & { isTTY: boolean; text: string } {
  const s = { isTTY, text: '', write: (chunk: string) => ((s.text += chunk), true) };
  return s as unknown as NodeJS.WritableStream & { isTTY: boolean; text: string };
}

const state = (elapsedSeconds: number) => ({
  elapsedSeconds,
  totalSeconds: 60,
  warmup: false,
  ratePerSecond: 50,
  errors: 2,
  p99Ms: 12.34,
  inFlight: 3,
});

describe('progress', () => {
  it('rewrites one line in place on a terminal', () => {
    const out = stream(true);
    const p = new ProgressReporter(out);
    for (let t = 1; t <= 3; t++) p.update(state(t));
    p.finish();
    expect(out.text.split('\r')).toHaveLength(4);
    expect(out.text).toContain('[   3s/60s measure]    50.0 ops/s  errors 2  p99 12.3 ms  in flight 3\x1b[K');
    expect(out.text.endsWith('\n')).toBe(true);
    expect(out.text.split('\n')).toHaveLength(2);
  });

  it('writes a plain line every interval otherwise', () => {
    const out = stream(false);
    const p = new ProgressReporter(out, 10);
    for (let t = 0; t <= 30; t++) p.update(state(t));
    p.finish();
    expect(out.text).not.toContain('\r');
    expect(
      out.text
        .trim()
        .split('\n')
        .map((l) => l.slice(0, 12)),
    ).toEqual(['[   0s/60s m', '[  10s/60s m', '[  20s/60s m', '[  30s/60s m']);
  });
});

const METRICS = (n: number, cpu: number) => `# HELP apiserver_request_duration_seconds x
# TYPE apiserver_request_duration_seconds histogram
apiserver_request_duration_seconds_bucket{verb="GET",resource="pods",le="0.005"} ${n * 0.5}
apiserver_request_duration_seconds_bucket{verb="GET",resource="pods",le="0.025"} ${n * 0.9}
apiserver_request_duration_seconds_bucket{verb="GET",resource="pods",le="0.1"} ${n}
apiserver_request_duration_seconds_bucket{verb="GET",resource="pods",le="+Inf"} ${n}
apiserver_request_duration_seconds_bucket{verb="WATCH",resource="pods",le="+Inf"} 7
process_cpu_seconds_total ${cpu}
process_resident_memory_bytes 1.5e+08
`;

describe('server figures from /metrics', () => {
  it('parses samples with labels (escaped quotes too)', () => {
    const s = parsePrometheusText('a_total{x="q\\"uote",le="+Inf"} 3\n# c\nb 1.5e3\n');
    expect(s).toEqual([
      { name: 'a_total', labels: { x: 'q"uote', le: '+Inf' }, value: 3 },
      { name: 'b', labels: {}, value: 1500 },
    ]);
  });

  it('interpolates quantiles inside buckets like histogram_quantile', () => {
    const buckets: Array<[number, number]> = [
      [0.1, 50],
      [0.2, 100],
      [Infinity, 100],
    ];
    expect(bucketQuantile(0.5, buckets)).toBeCloseTo(0.1);
    expect(bucketQuantile(0.75, buckets)).toBeCloseTo(0.15);
    expect(
      bucketQuantile(0.99, [
        [1, 0],
        [Infinity, 10],
      ]),
    ).toBe(1);
  });

  it('takes the deltas between the scrapes, per verb, without WATCH', () => {
    const before = { at: 't0', samples: parsePrometheusText(METRICS(100, 10)) };
    const after = { at: 't1', samples: parsePrometheusText(METRICS(300, 14)) };
    const f = serverFigures(before, after, 8);
    expect(f.requestDuration).toEqual([{ verb: 'GET', count: 200, p50Ms: 5, p90Ms: 25, p99Ms: 92.5 }]);
    expect(f).toMatchObject({ available: true, cpuSeconds: 4, cpuCores: 0.5, rssBytesAfter: 1.5e8 });
    expect(serverFigures({ error: 'GET /metrics answered 403' }, after, 8)).toEqual({
      available: false,
      error: 'GET /metrics answered 403',
      requestDuration: [],
    });
  });
});

describe('SLO verdicts', () => {
  const row = (op: string, scope: RowJson['scope'], p99: number) =>
    ({ op, resource: 'deployments', scope, p99 }) as RowJson;
  it('apply 1 s to single objects, 5 s to namespace LISTs, 30 s to cluster LISTs', () => {
    const v = sloVerdicts([
      row('get', 'resource', 1000),
      row('update', 'resource', 1001),
      row('list', 'namespace', 4999),
      row('list', 'namespace', 5001),
      row('list', 'cluster', 29000),
      row('list', 'cluster', 31000),
    ]);
    expect(v.map((x) => [x.thresholdMs, x.pass])).toEqual([
      [1000, true],
      [1000, false],
      [5000, true],
      [5000, false],
      [30000, true],
      [30000, false],
    ]);
  });
});

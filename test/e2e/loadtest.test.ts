// orch-loadtest end to end: a 10 s run against its embedded throwaway server, the files it writes, the report
// rendered by headless Chromium, and `compare`.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PNG } from 'pngjs';
import { OPS } from '../../lib/loadtest/profile';
import type { ResultJson } from '../../lib/loadtest/run';
import { runLoadtestCli, type CliRun } from '../helpers/loadtest-cli';

jest.setTimeout(180_000);

const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function chromium(args: string[]): Promise<string> {
  const profileDir = mkdtempSync(join(tmpdir(), 'lt-chromium-'));
  return new Promise<string>((resolve, reject) => {
    execFile(
      'chromium',
      [...CHROMIUM_FLAGS, `--user-data-dir=${profileDir}`, ...args],
      { timeout: 90_000, maxBuffer: 64 * 2 ** 20 },
      (err, stdout, stderr) => {
        rmSync(profileDir, { recursive: true, force: true });
        if (err) reject(new Error(`chromium ${args.join(' ')} failed: ${err.message}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}

const orchTempDirs = (): string[] => readdirSync(tmpdir()).filter((n) => n.startsWith('orch-loadtest-'));

let dir: string;
let run: CliRun;
let result: ResultJson;
let tempDirsBefore: string[];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lt-e2e-'));
  tempDirsBefore = orchTempDirs();
  run = await runLoadtestCli([
    '--duration',
    '10s',
    '--warmup',
    '2s',
    '--rate',
    '40',
    '--seed',
    '4242',
    '--initial-objects',
    '10',
    '--watchers',
    '3',
    '--progress-interval',
    '2',
    '--out',
    dir,
  ]);
  if (run.code !== 0) throw new Error(`orch-loadtest exited ${run.code}\n${run.stderr}\n${run.stdout}`);
  result = JSON.parse(readFileSync(join(dir, 'result.json'), 'utf8')) as ResultJson;
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a 10 s run against the embedded server', () => {
  it('writes result.json and report.html and removes its temporary server directory', () => {
    expect(existsSync(join(dir, 'report.html'))).toBe(true);
    expect(result.tool).toBe('orch-loadtest');
    expect(result.target.embedded).toBe(true);
    expect(result.measuredSeconds).toBe(10);
    expect(orchTempDirs()).toEqual(tempDirsBefore);
  });

  it('ran every operation, at about the target rate, without a single error', () => {
    const ops = new Set(result.rows.map((r) => r.op));
    expect([...ops].sort()).toEqual([...OPS].sort());
    expect(result.totals.errors).toBe(0);
    for (const row of result.rows) {
      expect(row).toMatchObject({ errors: 0, errorsByCode: {} });
      expect(row.count).toBeGreaterThan(0);
      expect(row.p50).toBeLessThanOrEqual(row.p99);
      expect(row.p99).toBeLessThanOrEqual(row.max);
      expect(row.histogram.buckets.reduce((a, [, n]) => a + n, 0)).toBe(row.count);
    }
    expect(result.totals.count).toBeGreaterThanOrEqual(380);
    expect(new Set(result.rows.map((r) => r.resource))).toEqual(
      new Set(['deployments', 'horizontalpodautoscalers', 'flowschemas']),
    );
    expect(new Set(result.rows.filter((r) => r.op === 'list').map((r) => r.scope)).size).toBeGreaterThan(0);
  });

  it('every acknowledged write reached every watch', () => {
    expect(result.watch.watchers).toBe(3);
    expect(result.watch.expectedEvents).toBeGreaterThan(100);
    expect(result.watch.missedEvents).toBe(0);
    expect(result.watch.histogram.count).toBeGreaterThan(0);
  });

  it('records server figures from /metrics and SLO verdicts', () => {
    expect(result.server.available).toBe(true);
    const verbs = result.server.requestDuration.map((v) => v.verb);
    expect(verbs).toEqual(expect.arrayContaining(['GET', 'LIST', 'POST', 'PUT', 'PATCH', 'APPLY', 'DELETE']));
    expect(result.server.cpuSeconds).toBeGreaterThan(0);
    expect(result.server.rssBytesAfter).toBeGreaterThan(10 * 2 ** 20);
    expect(result.slo).toHaveLength(result.rows.length);
    expect(run.stdout).toMatch(/SLO \(p99 latency, Kubernetes api_call_latency\)/);
    expect(run.stdout).toMatch(/PASS {2}get deployments \(resource\)/);
  });

  it('prints plain progress lines when stderr is not a terminal', () => {
    const lines = run.stderr.split('\n').filter((l) => /^\[\s*-?\d+s\/10s (warm-up|measure)\]/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(run.stderr).not.toContain('\r');
  });
});

describe('report.html in headless Chromium', () => {
  it('renders every chart with drawn series, fetching nothing', async () => {
    const html = readFileSync(join(dir, 'report.html'), 'utf8');
    // Self-contained: no script, stylesheet, image or font to fetch at view time.
    expect(html).not.toMatch(/<script|<link|<img|src=|url\(/i);
    const dom = await chromium(['--dump-dom', `file://${join(dir, 'report.html')}`]);
    const charts = dom.split('<figure class="chart">').slice(1);
    expect(charts.length).toBe(6);
    for (const chart of charts) {
      const drawn = [...chart.matchAll(/<path class="series" d="([^"]*)"/g)].map((m) => m[1]!);
      expect(drawn.length).toBeGreaterThan(0);
      for (const d of drawn) expect(d).toMatch(/^M[\d.]+,[\d.]+ /);
    }
  });

  it('a screenshot shows the colored chart lines', async () => {
    const shot = join(dir, 'report.png');
    await chromium(['--window-size=1200,2400', `--screenshot=${shot}`, `file://${join(dir, 'report.html')}`]);
    const png = PNG.sync.read(readFileSync(shot));
    expect(png.width).toBe(1200);
    let colored = 0;
    for (let i = 0; i < png.data.length; i += 4) {
      const r = png.data[i]!;
      const g = png.data[i + 1]!;
      const b = png.data[i + 2]!;
      if (Math.max(r, g, b) - Math.min(r, g, b) > 80) colored += 1;
    }
    // Strongly colored pixels: chart series, legend swatches and PASS verdicts. The same page with the series paths
    // taken out shows about 6,000 of them in this window, with the charts drawn about 24,000.
    expect(colored).toBeGreaterThan(15000);
  });
});

describe('orch-loadtest compare', () => {
  it('prints the deltas of two runs and writes a comparison report', async () => {
    const a = join(dir, 'result.json');
    const out = join(dir, 'comparison.html');
    const cmp = await runLoadtestCli(['compare', a, a, '--out', out]);
    expect(cmp.code).toBe(0);
    expect(cmp.stdout).toMatch(/^total\s+p99 ms\s+[\d.]+\s+[\d.]+\s+\+0\.0%$/m);
    expect(cmp.stdout).toMatch(/^get deployments \(resource\)\s+p50 ms/m);
    const html = readFileSync(out, 'utf8');
    expect(html).toContain('<svg');
    expect(html).toMatch(/<path class="series" d="M/);
  });

  it('rejects a file that is not a result', async () => {
    const cmp = await runLoadtestCli(['compare', join(dir, 'report.html'), join(dir, 'result.json')]);
    expect(cmp.code).toBe(1);
    expect(cmp.stderr).toMatch(/report\.html: not a readable JSON file/);
  });
});

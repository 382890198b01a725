// orch-loadtest against small Kubernetes-style servers that misbehave on purpose: 429 and 500 answers land in the
// right rows under their status codes; slow GETs break the SLO and --fail-on-slo exits 1; watches that leave events
// out are counted as missed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultJson } from '../../lib/loadtest/run';
import { runLoadtestCli } from '../helpers/loadtest-cli';
import { startServer, stop } from './loadtest-fault-server';

jest.setTimeout(120_000);

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'lt-errors-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sum = (rows: ResultJson['rows'], filter: (r: ResultJson['rows'][number]) => boolean, code: string): number =>
  rows.filter(filter).reduce((a, r) => a + (r.errorsByCode[code] ?? 0), 0);

describe('a server answering 429 and 500 on purpose', () => {
  it('records each 429 under its GET rows and each 500 under the PATCH rows, and counts nothing else as an error', async () => {
    const { server, url, tally } = await startServer();
    const out = join(dir, 'errors');
    let run;
    try {
      run = await runLoadtestCli([
        '--server',
        url,
        '--duration',
        '4s',
        '--warmup',
        '0s',
        '--rate',
        '60',
        '--seed',
        '3',
        '--watchers',
        '0',
        '--no-cleanup',
        '--out',
        out,
      ]);
    } finally {
      await stop(server);
    }
    expect(run.code).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as ResultJson;
    expect(tally.sent429).toBeGreaterThan(5);
    expect(tally.sent500).toBeGreaterThan(3);
    expect(sum(result.rows, (r) => r.op === 'get', '429')).toBe(tally.sent429);
    expect(sum(result.rows, (r) => ['patch-merge', 'patch-strategic', 'apply'].includes(r.op), '500')).toBe(
      tally.sent500,
    );
    expect(result.totals.errors).toBe(tally.sent429 + tally.sent500);
    for (const r of result.rows)
      expect(Object.keys(r.errorsByCode).every((c) => (r.op === 'get' ? c === '429' : c === '500'))).toBe(true);
    const gets = result.rows.filter((r) => r.op === 'get').reduce((a, r) => a + r.count, 0);
    expect(gets - sum(result.rows, (r) => r.op === 'get', '429')).toBe(tally.okGets);
    // The error timeline has them too, and the server figures say /metrics was not there.
    expect(result.timeline.reduce((a, i) => a + (i.errorsByCode['429'] ?? 0), 0)).toBe(tally.sent429);
    expect(result.server).toMatchObject({ available: false, error: 'GET /metrics answered 404' });
    // FlowSchemas were written through the Kubernetes group the server's discovery named.
    expect(tally.paths).toContain('POST /apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(
      /Errors per second by status \(\d+ in the measured phase\)/,
    );
  });

  it('exits 1 with --fail-on-slo when GETs take longer than the 1 s SLO, and 0 without it', async () => {
    const { server, url } = await startServer({ slowGetMs: 1200 });
    try {
      const args = [
        '--server',
        url,
        '--duration',
        '3s',
        '--warmup',
        '0s',
        '--rate',
        '20',
        '--seed',
        '3',
        '--watchers',
        '0',
        '--no-cleanup',
        '--kinds',
        'deployments',
        '--mix',
        'get=1,create=1',
      ];
      const failing = await runLoadtestCli([...args, '--fail-on-slo', '--out', join(dir, 'slo')]);
      expect(failing.code).toBe(1);
      expect(failing.stdout).toMatch(/FAIL {2}get deployments \(resource\)\s+p99\s+1[2-9]\d\d\.\d ms {2}≤ 1000 ms/);
      expect(failing.stdout).toMatch(/PASS {2}create deployments \(resource\)/);
      const result = JSON.parse(readFileSync(join(dir, 'slo', 'result.json'), 'utf8')) as ResultJson;
      expect(result.sloPass).toBe(false);
      expect(readFileSync(join(dir, 'slo', 'report.html'), 'utf8')).toMatch(/class="fail l">FAIL</);
      const lenient = await runLoadtestCli([...args, '--out', join(dir, 'slo2')]);
      expect(lenient.code).toBe(0);
    } finally {
      await stop(server);
    }
  });
});

describe('a server whose watches leave events out', () => {
  it('counts exactly the events each watch never received as missed', async () => {
    const { server, url, tally } = await startServer({ faults: false, lossyWatch: true });
    const out = join(dir, 'lossy');
    let run;
    try {
      run = await runLoadtestCli([
        '--server',
        url,
        '--duration',
        '3s',
        '--warmup',
        '0s',
        '--rate',
        '40',
        '--seed',
        '8',
        '--watchers',
        '2',
        '--kinds',
        'deployments',
        '--no-cleanup',
        '--out',
        out,
      ]);
    } finally {
      await stop(server);
    }
    expect(run.code).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as ResultJson;
    expect(tally.watchStarts).toHaveLength(2);
    const expectedMissed = tally.watchStarts.reduce((a, from) => a + tally.dropped.filter((rv) => rv > from).length, 0);
    expect(expectedMissed).toBeGreaterThan(5);
    expect(result.watch.missedEvents).toBe(expectedMissed);
    expect(result.watch.receivedEvents).toBe(result.watch.expectedEvents - expectedMissed);
    expect(run.stdout).toMatch(new RegExp(`watch: 2 watches, \\d+/\\d+ events, ${expectedMissed} missed`));
  });
});

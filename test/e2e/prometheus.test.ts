// End-to-end: a real Prometheus (Debian package `prometheus`, installed by `make test`) scrapes the built server.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../lib/server/free-port';
import { startBinaryServer, type BinaryServer } from '../helpers/binary-server';
import { aDeployment } from '../helpers/fixtures';
import { openWatch } from '../helpers/watch-client';

const PROMETHEUS = spawnSync('sh', ['-c', 'command -v prometheus'], { encoding: 'utf8' }).stdout.trim();
const SCRAPE_DEADLINE_MS = 30_000;
const describeWithPrometheus = PROMETHEUS === '' ? describe.skip : describe;
if (PROMETHEUS === '')
  console.warn('prometheus.test.ts skipped: no `prometheus` on PATH (`make test` installs the Debian package)');

interface QueryResult {
  metric: Record<string, string>;
  value: [number, string];
}

let server: BinaryServer;
let prometheus: ChildProcess;
let prometheusUrl: string;
let workDir: string;
let prometheusLog = '';
const NS = `prom-${process.pid}`;

async function query(expr: string): Promise<QueryResult[]> {
  const res = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(expr)}`);
  const body = (await res.json()) as { status: string; data?: { result: QueryResult[] }; error?: string };
  if (body.status !== 'success') throw new Error(`query ${expr} failed: ${body.error ?? res.status}`);
  return body.data?.result ?? [];
}

/** Queries until the result passes `accept` (Prometheus scrapes every second), failing after the deadline. */
async function queryUntil(expr: string, accept: (r: QueryResult[]) => boolean): Promise<QueryResult[]> {
  const deadline = Date.now() + SCRAPE_DEADLINE_MS;
  for (;;) {
    let result: QueryResult[] = [];
    try {
      result = await query(expr);
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    if (accept(result)) return result;
    if (Date.now() > deadline)
      throw new Error(
        `no acceptable result for ${expr}: ${JSON.stringify(result)}\nprometheus log:\n${prometheusLog.slice(-2000)}`,
      );
    await new Promise((r) => setTimeout(r, 250));
  }
}

describeWithPrometheus('a real Prometheus scraping the server', () => {
  beforeAll(async () => {
    server = await startBinaryServer();
    workDir = mkdtempSync(join(tmpdir(), 'orch-prometheus-'));
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    writeFileSync(
      join(workDir, 'prometheus.yml'),
      [
        'global:',
        '  scrape_interval: 1s',
        '  evaluation_interval: 1s',
        'scrape_configs:',
        '  - job_name: orch-apiserver',
        '    scrape_interval: 1s',
        '    static_configs:',
        `      - targets: ['127.0.0.1:${server.port}']`,
        '',
      ].join('\n'),
    );
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${join(workDir, 'prometheus.yml')}`,
        `--storage.tsdb.path=${join(workDir, 'data')}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    prometheus.stdout?.on('data', (d: Buffer) => (prometheusLog += d.toString()));
    prometheus.stderr?.on('data', (d: Buffer) => (prometheusLog += d.toString()));
    await queryUntil('up{job="orch-apiserver"}', (r) => r[0]?.value[1] === '1');
  }, 60_000);

  afterAll(async () => {
    if (prometheus && prometheus.exitCode === null) {
      const exited = new Promise((r) => prometheus.once('exit', r));
      prometheus.kill('SIGTERM');
      await exited;
    }
    await server?.stop();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  it('sees apiserver_request_total for deployments with Kubernetes labels after requests', async () => {
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
    expect(
      (await post('/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } })).status,
    ).toBe(201);
    for (const name of ['a', 'b', 'c'])
      expect((await post(`/apis/apps/v1/namespaces/${NS}/deployments`, aDeployment(name))).status).toBe(201);
    expect((await fetch(`${server.url}/apis/apps/v1/namespaces/${NS}/deployments/missing`)).status).toBe(404);

    const created = await queryUntil(
      'apiserver_request_total{resource="deployments",verb="POST",code="201"}',
      (r) => Number(r[0]?.value[1]) >= 3,
    );
    // Prometheus drops empty labels (dry_run, subresource) from stored series.
    expect(created[0]?.metric).toEqual({
      __name__: 'apiserver_request_total',
      instance: `127.0.0.1:${server.port}`,
      job: 'orch-apiserver',
      verb: 'POST',
      group: 'apps',
      version: 'v1',
      resource: 'deployments',
      scope: 'resource',
      component: 'apiserver',
      code: '201',
    });
    const missing = await queryUntil(
      'apiserver_request_total{resource="deployments",verb="GET",code="404"}',
      (r) => r.length === 1,
    );
    expect(Number(missing[0]?.value[1])).toBe(1);
  });

  it('sees the request latency histogram, etcd latency, stored objects and process metrics', async () => {
    const buckets = await queryUntil(
      'apiserver_request_duration_seconds_bucket{resource="deployments",verb="POST",le="60"}',
      (r) => r.length > 0,
    );
    expect(Number(buckets[0]?.value[1])).toBeGreaterThanOrEqual(3);
    const etcd = await queryUntil(
      'etcd_request_duration_seconds_count{operation="create",type="deployments.apps"}',
      (r) => r.length > 0,
    );
    expect(Number(etcd[0]?.value[1])).toBeGreaterThanOrEqual(3);
    await queryUntil('apiserver_storage_objects{resource="deployments.apps"}', (r) => Number(r[0]?.value[1]) >= 3);
    await queryUntil('process_resident_memory_bytes{job="orch-apiserver"}', (r) => Number(r[0]?.value[1]) > 0);
  });

  it('follows apiserver_longrunning_requests up while a watch is open and down after', async () => {
    const expr = 'apiserver_longrunning_requests{verb="WATCH",resource="deployments",scope="namespace"}';
    const watch = await openWatch(server.url, `/apis/apps/v1/namespaces/${NS}/deployments?watch=1`);
    expect(watch.status).toBe(200);
    await queryUntil(expr, (r) => r[0]?.value[1] === '1');
    watch.close();
    await queryUntil(expr, (r) => r[0]?.value[1] === '0');
  }, 60_000);
});

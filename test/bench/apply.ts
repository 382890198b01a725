// `make bench` (server-side apply): p50/p99 of applying a 30-container Deployment against a plain PUT of the same
// object, interleaved in one run on one server child process; prints a markdown table (target: apply ≤ 3× PUT).
import { Agent } from 'node:http';
import { httpRequest } from './http-load';
import { runBench, withBenchServer } from './bench-server';
import { percentile } from './stats';

const ROUNDS = Number(process.env['BENCH_APPLY_ROUNDS'] ?? 300);
const WARMUP = Number(process.env['BENCH_APPLY_WARMUP'] ?? 30);
const CONTAINERS = 30;
const NS = 'bench-apply';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
const TARGET = 3;

function log(line: string): void {
  process.stderr.write(`[bench apply] ${line}\n`);
}

/** A realistic Deployment with 30 containers (ports, env, probes, resources, mounts), `replicas` varying per write. */
function deployment(name: string, replicas: number): Record<string, unknown> {
  const containers = Array.from({ length: CONTAINERS }, (_, i) => ({
    name: `c${i}`,
    image: `registry.example.com/team/service-${i}:1.${i}.0`,
    args: ['--port', String(8000 + i), '--log-level', 'info'],
    ports: [{ name: `http-${i}`, containerPort: 8000 + i, protocol: 'TCP' }],
    env: [
      { name: 'SERVICE', value: `service-${i}` },
      { name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: `password-${i}` } } },
    ],
    resources: { requests: { cpu: '100m', memory: '128Mi' }, limits: { cpu: '500m', memory: '256Mi' } },
    readinessProbe: { httpGet: { path: '/ready', port: 8000 + i }, periodSeconds: 5 },
    volumeMounts: [{ name: 'config', mountPath: `/etc/service-${i}` }],
  }));
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: NS, labels: { app: name } },
    spec: {
      replicas,
      selector: { matchLabels: { app: name } },
      template: {
        metadata: { labels: { app: name } },
        spec: { containers, volumes: [{ name: 'config', configMap: { name: 'config' } }] },
      },
    },
  };
}

async function expectStatus(res: Promise<{ status: number; body: string }>, ok: number[]): Promise<void> {
  const { status, body } = await res;
  if (!ok.includes(status)) throw new Error(`unexpected ${status}: ${body.slice(0, 400)}`);
}

runBench(() =>
  withBenchServer('apply', async (server) => {
    const url = server.url;
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    await expectStatus(
      httpRequest(
        agent,
        url,
        'POST',
        '/api/v1/namespaces',
        JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }),
      ),
      [201],
    );
    await expectStatus(httpRequest(agent, url, 'POST', DEPLOYMENTS, JSON.stringify(deployment('put', 1))), [201]);
    // JSON is YAML: the same bytes serve as the apply configuration.
    const apply = (replicas: number): Promise<void> =>
      expectStatus(
        httpRequest(
          agent,
          url,
          'PATCH',
          `${DEPLOYMENTS}/applied?fieldManager=bench`,
          JSON.stringify(deployment('applied', replicas)),
          'application/apply-patch+yaml',
        ),
        [200, 201],
      );
    const put = (replicas: number): Promise<void> =>
      expectStatus(
        httpRequest(agent, url, 'PUT', `${DEPLOYMENTS}/put`, JSON.stringify(deployment('put', replicas))),
        [200],
      );

    const applyMs = new Float64Array(ROUNDS);
    const putMs = new Float64Array(ROUNDS);
    const time = async (op: () => Promise<void>): Promise<number> => {
      const start = process.hrtime.bigint();
      await op();
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    log(`warming up (${WARMUP} of each)`);
    for (let i = 0; i < WARMUP; i++) {
      await apply(1 + (i % 2));
      await put(1 + (i % 2));
    }
    log(`measuring ${ROUNDS} applies and ${ROUNDS} PUTs, interleaved`);
    for (let i = 0; i < ROUNDS; i++) {
      const replicas = 1 + (i % 2);
      applyMs[i] = await time(() => apply(replicas));
      putMs[i] = await time(() => put(replicas));
    }
    agent.destroy();
    applyMs.sort();
    putMs.sort();
    const row = (name: string, ms: Float64Array): string =>
      `| ${name} | ${ms.length} | ${percentile(ms, 0.5).toFixed(2)} | ${percentile(ms, 0.99).toFixed(2)} |`;
    const ratio50 = percentile(applyMs, 0.5) / percentile(putMs, 0.5);
    const ratio99 = percentile(applyMs, 0.99) / percentile(putMs, 0.99);
    const lines = [
      `### Server-side apply of a ${CONTAINERS}-container Deployment vs PUT (sequential, one connection)`,
      '',
      '| operation | requests | p50 ms | p99 ms |',
      '|---|---:|---:|---:|',
      row('apply (application/apply-patch+yaml)', applyMs),
      row('PUT (same object)', putMs),
      '',
      `apply / PUT: p50 ${ratio50.toFixed(2)}×, p99 ${ratio99.toFixed(2)}× (target ≤ ${TARGET}×: ${ratio50 <= TARGET ? 'met' : 'missed'})`,
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }),
);

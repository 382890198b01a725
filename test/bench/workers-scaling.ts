// `node dist/test/bench/workers-scaling.js`: creates/s at concurrency 64 (wrk, else the Node load generator) with
// --workers 1 and 2 on one etcd, beside the raw etcd create-if-absent rate of the same run; into docs/benchmarks.md.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { runBench } from './bench-server';
import { benchRawEtcdCreates } from './etcd-raw';
import { httpRequest, runLoad } from './http-load';
import { machineDescription, prependSection } from './report';
import { LOAD_AT_START } from './report';
import { startServerProcess } from './server-process';
import { findPidByCmdline, type PhaseResult } from './stats';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';
import { createScript, findWrk, runWrk } from './wrk-load';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 10);
const WORKERS = (process.env['BENCH_WORKERS'] ?? '1,2').split(',').map(Number);
const CONCURRENCY = 64;
const log = (line: string): void => void process.stderr.write(`[workers] ${line}\n`);
const ok = (r: PhaseResult): number => (r.requests - r.errors) / r.seconds;

async function main(): Promise<void> {
  const wrk = findWrk();
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-bench-workers-'));
  const etcd = await startEmbeddedEtcd(join(dataDir, 'etcd'));
  const rows: string[] = [];
  try {
    const etcdPid = findPidByCmdline(join(dataDir, 'etcd'));
    const rawRate = async (when: string): Promise<number> => {
      log(`raw etcd creates (${when}), concurrency ${CONCURRENCY}, ${SECONDS}s`);
      const raw = await benchRawEtcdCreates(etcd.clientUrl, CONCURRENCY, SECONDS, etcdPid, 600, `/bench-raw-${when}`);
      rows.push(
        `| raw etcd create-if-absent txn (etcd3 client), ${when} | ${ok(raw).toFixed(0)} | ${raw.errors} | | |`,
      );
      return ok(raw);
    };
    const rawBefore = await rawRate('before');
    let one: number | undefined;
    for (const workers of WORKERS) {
      const server = await startServerProcess(etcd.clientUrl, [], ['--workers', String(workers)]);
      try {
        const agent = new Agent({ keepAlive: false });
        await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', namespaceBody);
        agent.destroy();
        let n = 0;
        // Warm-up (every worker's code optimised, caches filled) at concurrency 16.
        await runLoad(server.url, {
          workload: 'warm-up',
          concurrency: 16,
          seconds: 3,
          next: () => ({ method: 'POST', path: DEPLOYMENTS, body: deploymentBody(`warm-${workers}-${n++}`) }),
        });
        log(`--workers ${workers}: creates, concurrency ${CONCURRENCY}, ${SECONDS}s (${wrk ? 'wrk' : 'node'})`);
        const r = wrk
          ? await runWrk(
              wrk,
              server.url,
              {
                workload: 'POST create Deployment',
                concurrency: CONCURRENCY,
                seconds: SECONDS,
                script: createScript(`wrk-w${workers}-`),
                scriptPath: join(dataDir, `create-w${workers}.lua`),
              },
              undefined,
              etcdPid,
              log,
            )
          : await runLoad(
              server.url,
              {
                workload: 'POST create Deployment',
                concurrency: CONCURRENCY,
                seconds: SECONDS,
                next: () => ({ method: 'POST', path: DEPLOYMENTS, body: deploymentBody(`node-w${workers}-${n++}`) }),
              },
              undefined,
              etcdPid,
            );
        one ??= ok(r);
        rows.push(
          `| apiserver \`--workers ${workers}\`, creates | ${ok(r).toFixed(0)} | ${r.errors} | ${(ok(r) / rawBefore).toFixed(2)}× | ${(ok(r) / one).toFixed(2)}× |`,
        );
        log(
          `--workers ${workers}: ${ok(r).toFixed(0)} creates/s, p50 ${r.p50Ms.toFixed(1)} ms, p99 ${r.p99Ms.toFixed(1)} ms, ${r.errors} errors`,
        );
      } finally {
        await server.stop();
      }
    }
    await rawRate('after');
  } finally {
    await etcd.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const doc = [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — creates/s by --workers`,
    '',
    `Command: \`node dist/test/bench/workers-scaling.js\` (BENCH_SECONDS=${SECONDS}, BENCH_WORKERS=${WORKERS.join(',')}); ${wrk ? 'wrk' : 'Node load generator'}, concurrency ${CONCURRENCY}, one fresh embedded etcd for the whole run, each server fresh with a 3 s warm-up. ${LOAD_AT_START > 2 ? `NOISY: 1-minute load average ${LOAD_AT_START.toFixed(1)} before the run.` : ''}`,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    '| Phase | successful/s | errors | ÷ raw etcd (before) | ÷ 1 worker |',
    '|---|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
  process.stdout.write(`${doc}\n`);
  if (process.env['BENCH_NO_DOCS'] !== '1')
    prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), doc);
}

runBench(main);

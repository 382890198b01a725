// `make bench` (API Priority and Fairness): dispatch overhead with APF on vs off at c64 (GET and create), and the
// protection figures: isolation across levels, fairness within a level, exempt probes under a 2,000-request storm.
// Prints a summary and prepends a section to docs/benchmarks.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench, withBenchServer } from './bench-server';
import { httpRequest, runLoad } from './http-load';
import { machineDescription, prependSection, resultTable } from './report';
import { percentile, type PhaseResult } from './stats';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';
import { ApiClient } from '../helpers/test-server';
import { awaitClassification, createFlowSchema, createPriorityLevel } from '../helpers/flowcontrol';
import { dealHand, hashFlow } from '../../lib/server/flowcontrol/fairqueuing/shuffle-sharding';
import { measureDispatch } from './apf-dispatch';
import { overloadFigures } from './apf-overload';

const SECONDS = Number(process.env['BENCH_SECONDS'] ?? 8);
const LOAD_SECONDS = Number(process.env['BENCH_APF_LOAD_SECONDS'] ?? 5);
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';
const SMALL_SERVER = '--max-requests-inflight=6 --max-mutating-requests-inflight=4';
/**
 * For the overhead runs: 1,600 seats, so global-default (20 of 245 shares: 131 nominal, 98 at start before any
 * borrowing) has more seats than the 64 clients and nothing queues; with the default 600 it starts at 37 seats and
 * the phase measures that limit (throughput bound by etcd latency × seats), not the dispatcher.
 */
const OVERHEAD_SERVER = '--max-requests-inflight=1000 --max-mutating-requests-inflight=600';

function log(line: string): void {
  process.stderr.write(`[bench apf] ${line}\n`);
}

/** The request rate of the fixed-rate GET phase (well below what one core serves). */
const FIXED_RATE = Number(process.env['BENCH_APF_FIXED_RATE'] ?? 2000);

/** GET and create at c64 against a server started with `flags`, then GETs at FIXED_RATE. */
async function overheadPhases(label: string, flags: string): Promise<PhaseResult[]> {
  process.env['BENCH_SERVER_ARGS'] = flags;
  return withBenchServer(`apf-${label}`, async (server) => {
    const agent = new Agent({ keepAlive: true });
    await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', namespaceBody);
    const names: string[] = [];
    for (let i = 0; i < 200; i++) {
      const name = `warm-${i}`;
      await httpRequest(agent, server.url, 'POST', DEPLOYMENTS, deploymentBody(name));
      names.push(name);
    }
    agent.destroy();
    let created = 0;
    const create = await runLoad(
      server.url,
      {
        workload: `POST deployment (APF ${label})`,
        concurrency: 64,
        seconds: SECONDS,
        next: () => ({ method: 'POST', path: DEPLOYMENTS, body: deploymentBody(`${label}-${created++}`) }),
      },
      server.pid,
    );
    let n = 0;
    const get = await runLoad(
      server.url,
      {
        workload: `GET deployment (APF ${label})`,
        concurrency: 64,
        seconds: SECONDS,
        next: () => ({ method: 'GET', path: `${DEPLOYMENTS}/${names[n++ % names.length] ?? ''}` }),
      },
      server.pid,
    );
    // The same GETs at one fixed rate for both configurations: closed-loop rates differ between runs, and a server
    // answering fewer requests per event-loop turn spends more CPU on each, whatever the filter costs.
    const paced = await runLoad(
      server.url,
      {
        workload: `GET deployment at ${FIXED_RATE}/s (APF ${label})`,
        concurrency: 64,
        seconds: SECONDS,
        ratePerSecond: FIXED_RATE,
        next: () => ({ method: 'GET', path: `${DEPLOYMENTS}/${names[n++ % names.length] ?? ''}` }),
      },
      server.pid,
    );
    return [create, get, paced];
  });
}

interface StreamResult {
  statuses: Map<number, number>;
  latencies: number[];
}

/** `count` keep-alive clients of the user `token` sending GETs of `path` back to back for `seconds`. */
async function streams(
  url: string,
  path: string,
  count: number,
  seconds: number,
  token: string,
): Promise<StreamResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: count });
  const statuses = new Map<number, number>();
  const latencies: number[] = [];
  const deadline = Date.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: count }, async () => {
      while (Date.now() < deadline) {
        const t0 = performance.now();
        const status = await httpRequest(agent, url, 'GET', path, undefined, undefined, {
          Authorization: `Bearer ${token}`,
        }).then(
          (r) => r.status,
          () => 0,
        );
        latencies.push(performance.now() - t0);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        if (status === 429) await new Promise((r) => setTimeout(r, 20));
      }
    }),
  );
  agent.destroy();
  return { statuses, latencies };
}

/** Two runs of one phase as one (sums; latencies: the worse of the two). */
function mergePhases(a: PhaseResult, b: PhaseResult): PhaseResult {
  const sum = (x: number | undefined, y: number | undefined): number | undefined =>
    x === undefined || y === undefined ? undefined : x + y;
  const serverCpuMs = sum(a.serverCpuMs, b.serverCpuMs);
  return {
    ...a,
    requests: a.requests + b.requests,
    seconds: a.seconds + b.seconds,
    perSecond: (a.requests + b.requests) / (a.seconds + b.seconds),
    p50Ms: Math.max(a.p50Ms, b.p50Ms),
    p99Ms: Math.max(a.p99Ms, b.p99Ms),
    ...(serverCpuMs === undefined ? {} : { serverCpuMs }),
  };
}

const p99 = (r: StreamResult): number => percentile(Float64Array.from(r.latencies).sort(), 0.99);
const count = (r: StreamResult, status: number): number => r.statuses.get(status) ?? 0;
const total = (r: StreamResult): number => [...r.statuses.values()].reduce((a, b) => a + b, 0);

/** A light user of the `fair` level whose hand of queues shares none with the heavy user's (as the tests pick it). */
function lightFairUser(): string {
  const heavyHand = dealHand(hashFlow('fair', 'fair-heavy'), 8, 2);
  for (let i = 0; ; i++) {
    const user = `fair-light-${i}`;
    if (dealHand(hashFlow('fair', user), 8, 2).every((q) => !heavyHand.includes(q))) return user;
  }
}

const FAIR_LIGHT = lightFairUser();
const tokenOf = (user: string): string => `${user}-token`;

/** Flows are users (bearer tokens, ByUser), as in test/integration/apf-isolation-fairness.test.ts. */
async function protectionFigures(): Promise<string[]> {
  const tokenDir = mkdtempSync(join(tmpdir(), 'bench-apf-tokens-'));
  const tokenFile = join(tokenDir, 'tokens.csv');
  const users = ['iso-heavy', 'iso-light', 'fair-heavy', FAIR_LIGHT, 'storm'];
  writeFileSync(
    tokenFile,
    `${users.map((u) => `${tokenOf(u)},${u},${u}-uid\n`).join('')}${tokenOf('admin')},admin,admin-uid,"system:masters"\n`,
  );
  process.env['BENCH_SERVER_ARGS'] = `${SMALL_SERVER} --token-auth-file=${tokenFile}`;
  try {
    return await withBenchServer('apf-protection', async (server) => {
      const api = new ApiClient(server.url);
      const queuing = { queues: 4, handSize: 2, queueLengthLimit: 5 };
      await createPriorityLevel(api, 'iso-heavy', { shares: 100, queuing });
      await createPriorityLevel(api, 'iso-light', { shares: 100, queuing });
      await createPriorityLevel(api, 'fair', {
        shares: 100,
        queuing: { queues: 8, handSize: 2, queueLengthLimit: 10 },
      });
      const deployments = '/apis/apps/v1/namespaces/default/deployments';
      const hpas = '/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers';
      const listDeployments = [{ verbs: ['list'], apiGroups: ['apps'], resources: ['deployments'], namespaces: ['*'] }];
      const listHpas = [
        { verbs: ['list'], apiGroups: ['autoscaling'], resources: ['horizontalpodautoscalers'], namespaces: ['*'] },
      ];
      const heavyUid = await createFlowSchema(api, 'iso-heavy', 'iso-heavy', listDeployments, { users: ['iso-heavy'] });
      const lightUid = await createFlowSchema(api, 'iso-light', 'iso-light', listDeployments, { users: ['iso-light'] });
      const fairUid = await createFlowSchema(api, 'fair', 'fair', listHpas, {
        users: ['fair-heavy', FAIR_LIGHT],
        distinguisher: 'ByUser',
      });
      await awaitClassification(api, deployments, heavyUid, tokenOf('iso-heavy'));
      await awaitClassification(api, deployments, lightUid, tokenOf('iso-light'));
      await awaitClassification(api, hpas, fairUid, tokenOf('fair-heavy'));
      await awaitClassification(api, hpas, fairUid, tokenOf(FAIR_LIGHT));

      log('isolation: light user alone, then beside 50 streams of the heavy user');
      const idle = await streams(server.url, deployments, 3, LOAD_SECONDS, tokenOf('iso-light'));
      const [heavy, light] = await Promise.all([
        streams(server.url, deployments, 50, LOAD_SECONDS, tokenOf('iso-heavy')),
        streams(server.url, deployments, 3, LOAD_SECONDS, tokenOf('iso-light')),
      ]);

      log('fairness: 30 heavy and 3 light streams of two users in one level (ByUser)');
      const [fairHeavy, fairLight] = await Promise.all([
        streams(server.url, hpas, 30, LOAD_SECONDS, tokenOf('fair-heavy')),
        streams(server.url, hpas, 3, LOAD_SECONDS, tokenOf(FAIR_LIGHT)),
      ]);

      log('overload: 2,000 requests at once, exempt probes meanwhile');
      const overload = await overloadFigures(server, tokenOf('storm'), tokenOf('admin'));

      const fmt = (v: number): string => v.toFixed(1);
      return [
        `Protection (server limit 10 seats: \`${SMALL_SERVER}\`; levels of equal shares, lendable 0 %, borrowing 0 %; flows are token users, ByUser, as in the integration tests; ${LOAD_SECONDS} s per run):`,
        '',
        '| Scenario | Flow | Requests | 200 | 429 | p99 ms |',
        '|---|---|---:|---:|---:|---:|',
        `| isolation, light level alone | 3 streams | ${total(idle)} | ${count(idle, 200)} | ${count(idle, 429)} | ${fmt(p99(idle))} |`,
        `| isolation, beside the heavy level | 3 streams | ${total(light)} | ${count(light, 200)} | ${count(light, 429)} | ${fmt(p99(light))} |`,
        `| isolation, heavy level | 50 streams | ${total(heavy)} | ${count(heavy, 200)} | ${count(heavy, 429)} | ${fmt(p99(heavy))} |`,
        `| fairness, light user (one level) | 3 streams | ${total(fairLight)} | ${count(fairLight, 200)} | ${count(fairLight, 429)} | ${fmt(p99(fairLight))} |`,
        `| fairness, heavy user (one level) | 30 streams | ${total(fairHeavy)} | ${count(fairHeavy, 200)} | ${count(fairHeavy, 429)} | ${fmt(p99(fairHeavy))} |`,
        '',
        `- Isolation: light p99 beside the heavy level is ${(p99(light) / p99(idle)).toFixed(2)}× its idle p99 (target ≤ 2×), ${count(light, 429)} rejections.`,
        `- Fairness: the light user got ${((100 * count(fairLight, 200)) / Math.max(1, total(fairLight))).toFixed(1)} % of what it asked for (target ≥ 90 %).`,
        ...overload,
      ];
    });
  } finally {
    rmSync(tokenDir, { recursive: true, force: true });
  }
}

/** BENCH_APF_PROTECTION_ONLY=1: only the protection figures, printed and not written to the docs. */
const PROTECTION_ONLY = process.env['BENCH_APF_PROTECTION_ONLY'] === '1';

/** BENCH_APF_OVERHEAD_ONLY=1: only the on/off comparison, printed and not written to the docs. */
const OVERHEAD_ONLY = process.env['BENCH_APF_OVERHEAD_ONLY'] === '1';

runBench(async () => {
  if (PROTECTION_ONLY) {
    process.stdout.write(`${(await protectionFigures()).join('\n')}\n`);
    return;
  }
  // Off first, then on, then off again: the machine is shared, so the off figure is the mean of the two runs around on.
  log('overhead: APF off');
  const offBefore = await overheadPhases('off', `${OVERHEAD_SERVER} --enable-priority-and-fairness=false`);
  log('overhead: APF on');
  const on = await overheadPhases('on', OVERHEAD_SERVER);
  log('overhead: APF off again');
  const offAfter = await overheadPhases('off', `${OVERHEAD_SERVER} --enable-priority-and-fairness=false`);
  const off = offBefore.map((r, i) => mergePhases(r, offAfter[i] ?? r));
  if (OVERHEAD_ONLY) {
    process.stdout.write(`${resultTable([...offBefore, ...on, ...offAfter]).join('\n')}\n`);
    return;
  }
  const perReq = (r: PhaseResult | undefined): number => (r?.serverCpuMs ?? Number.NaN) / Math.max(1, r?.requests ?? 1);
  const overhead = (i: number): string => `${((100 * (perReq(on[i]) - perReq(off[i]))) / perReq(off[i])).toFixed(1)} %`;
  const protection = await protectionFigures();
  const micro = measureDispatch();
  const lines = [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — API Priority and Fairness`,
    '',
    `Command: \`node dist/test/bench/apf.js\` (BENCH_SECONDS=${SECONDS})`,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    `Dispatch overhead at c64, APF on (1.26 bootstrap configuration, anonymous requests in global-default) vs off (max-in-flight), both with \`${OVERHEAD_SERVER}\` so that no request queues; run off, on, off:`,
    '',
    ...resultTable([...offBefore, ...on, ...offAfter]),
    '',
    `- Server CPU per request, APF on vs the mean of the two off runs: create ${overhead(0)}, GET ${overhead(1)}, GET at a fixed ${FIXED_RATE}/s ${overhead(2)} (target < 5 %; on a shared machine compare with the spread between the two off runs; the fixed-rate phase compares the two at equal load).`,
    `- In process (\`node dist/test/bench/apf-dispatch.js\`): classification ${micro.classifyNs.toFixed(0)} ns, admission + finish + metrics ${(micro.dispatchNs - micro.classifyNs).toFixed(0)} ns per request, i.e. ${((100 * (micro.dispatchNs - micro.classifyNs)) / 1e3 / (perReq(off[1]) * 1e3)).toFixed(1)} % of the server CPU of a GET (${perReq(off[1]).toFixed(3)} ms).`,
    '',
    ...protection,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (WRITE_DOCS) prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), lines.join('\n'));
});

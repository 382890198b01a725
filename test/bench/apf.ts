// `make bench` (API Priority and Fairness): dispatch overhead with APF on vs off at c64 (GET and create), and the
// protection figures: isolation across levels, fairness within a level, exempt probes under a 2,000-request storm.
// Prints a summary and prepends a section to docs/benchmarks.md.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench, withBenchServer } from './bench-server';
import { httpRequest } from './http-load';
import { machineDescription, prependSection } from './report';
import { percentile } from './stats';
import { ApiClient } from '../helpers/test-server';
import { awaitClassification, createFlowSchema, createPriorityLevel } from '../helpers/flowcontrol';
import { dealHand, hashFlow } from '../../lib/server/flowcontrol/fairqueuing/shuffle-sharding';
import { measureDispatch } from './apf-dispatch';
import { overloadFigures } from './apf-overload';
import { FIXED_RATE, measureOverhead, OVERHEAD_SERVER, overheadTable } from './apf-overhead';

const LOAD_SECONDS = Number(process.env['BENCH_APF_LOAD_SECONDS'] ?? 5);
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';
const SMALL_SERVER = '--max-requests-inflight=6 --max-mutating-requests-inflight=4';

function log(line: string): void {
  process.stderr.write(`[bench apf] ${line}\n`);
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
  log('overhead: APF off and on side by side, alternating rounds');
  const overhead = await measureOverhead();
  if (OVERHEAD_ONLY) {
    process.stdout.write(`${overheadTable(overhead).join('\n')}\n`);
    if (overhead.profile) process.stdout.write(`\n${overhead.profile.join('\n')}\n`);
    return;
  }
  const protection = await protectionFigures();
  const micro = measureDispatch();
  const get = overhead.figures.find((f) => f.workload.startsWith('GET deployment at'));
  const lines = [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — API Priority and Fairness`,
    '',
    `Command: \`node dist/test/bench/apf.js\` (BENCH_APF_ROUNDS=${overhead.rounds}, BENCH_APF_PHASE_SECONDS=${overhead.phaseSeconds})`,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    `Dispatch overhead, APF on (1.26 bootstrap configuration, anonymous requests in global-default) vs off (max-in-flight), both with \`${OVERHEAD_SERVER}\` so that no request queues. Both servers run side by side (each on its own etcd); each of ${overhead.rounds} rounds loads both at once with the same workload for ${overhead.phaseSeconds} s (one load generator), so the machine's load hits both alike; per round the server CPU per request (/proc) of each, and the paired ratio (target: on vs off < 5 %):`,
    '',
    ...overheadTable(overhead),
    '',
    `- In process (\`node dist/test/bench/apf-dispatch.js\`): classification ${micro.classifyNs.toFixed(0)} ns, admission + finish + metrics ${(micro.dispatchNs - micro.classifyNs).toFixed(0)} ns, the whole filter on a ServerResponse ${micro.filterNs.toFixed(0)} ns per request, i.e. ${((100 * micro.filterNs) / 1e3 / (get?.offUs ?? Number.NaN)).toFixed(1)} % of the server CPU of a GET at ${FIXED_RATE}/s (${(get?.offUs ?? Number.NaN).toFixed(0)} µs).`,
    '',
    ...protection,
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  if (WRITE_DOCS) prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), lines.join('\n'));
});

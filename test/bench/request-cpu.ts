// Server CPU per request of Deployment creates and GETs at concurrency 64 (wrk), without a profiler attached: the
// server process's CPU (/proc) over successful requests. With BENCH_BASE_SCRIPT (another build's
// dist/cmd/apiserver.js) it is an A/B run: the two builds alternate round by round on the same machine, each on a
// fresh etcd, so both see the same background load. `node dist/test/bench/request-cpu.js` (`make bench-request-cpu`).
// REQUEST_CPU_ROUNDS (3), REQUEST_CPU_SECONDS (6); BENCH_NO_DOCS=1 prints without writing docs/benchmarks.md.
// REQUEST_CPU_NODE_FLAGS="|--v8-pool-size=1|--single-threaded-gc": this build once per variant of node flags
// ('|'-separated; an empty variant runs without flags), alternating like the builds (V8's GC thread settings).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench, withBenchServer } from './bench-server';
import { httpRequest, runLoad } from './http-load';
import { machineDescription, publishSection } from './report';
import { median, type PhaseResult } from './stats';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';
import { createScript, findWrk, getScript, runWrk } from './wrk-load';

const ROUNDS = Number(process.env['REQUEST_CPU_ROUNDS'] ?? 3);
const SECONDS = Number(process.env['REQUEST_CPU_SECONDS'] ?? 6);
/** Seconds of creates at c16 before the measured phases (V8 still optimises the create path during the first ones). */
const WARMUP_SECONDS = Number(process.env['REQUEST_CPU_WARMUP_SECONDS'] ?? 2);
const CONCURRENCY = 64;
const BASE = process.env['BENCH_BASE_SCRIPT'];
/** BENCH_THIS_SCRIPT: the build measured as "this build" (default: the one this script belongs to). */
const THIS_BUILD = process.env['BENCH_THIS_SCRIPT'] ?? join(__dirname, '..', '..', 'cmd', 'apiserver.js');
const NODE_FLAG_VARIANTS = process.env['REQUEST_CPU_NODE_FLAGS']?.split('|').map((v) => v.split(/\s+/).filter(Boolean));

const log = (line: string): void => void process.stderr.write(`[request-cpu] ${line}\n`);

interface Sample {
  createUs: number;
  getUs: number;
  createPerSecond: number;
  getPerSecond: number;
  load: number;
}

const perRequestUs = (r: PhaseResult): number => ((r.serverCpuMs ?? NaN) * 1000) / (r.requests - r.errors);

let phase = 0;
/** One build on a fresh etcd: warm-up creates, then the measured create phase, then GETs of the created objects. */
async function measure(script: string, wrk: string, nodeArgs: string[]): Promise<Sample> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-request-cpu-'));
  process.env['BENCH_SERVER_SCRIPT'] = script;
  try {
    return await withBenchServer(
      'request-cpu',
      async (server) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const ns = await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', namespaceBody);
        agent.destroy();
        if (ns.status !== 201) throw new Error(`creating namespace bench: ${ns.status} ${ns.body}`);
        let n = 0;
        const names: string[] = [];
        await runLoad(server.url, {
          workload: 'warm-up',
          concurrency: 16,
          seconds: WARMUP_SECONDS,
          next: () => {
            const name = `warm-${(n++).toString(36)}`;
            return { method: 'POST', path: DEPLOYMENTS, body: deploymentBody(name), tag: name };
          },
          onSuccess: (req) => void (req.tag && names.push(req.tag)),
        });
        const common = { concurrency: CONCURRENCY, seconds: SECONDS };
        const load = loadavg()[0] ?? 0;
        const create = await runWrk(
          wrk,
          server.url,
          {
            ...common,
            workload: 'create',
            script: createScript(`ab${phase++}-`),
            scriptPath: join(dir, 'create.lua'),
          },
          server.pid,
        );
        writeFileSync(join(dir, 'names.txt'), `${names.join('\n')}\n`);
        const get = await runWrk(
          wrk,
          server.url,
          {
            ...common,
            workload: 'get',
            script: getScript(join(dir, 'names.txt'), 2),
            scriptPath: join(dir, 'get.lua'),
          },
          server.pid,
        );
        if (create.errors > 0 || get.errors > 0)
          throw new Error(`errors: ${JSON.stringify(create.errorsByKind)} ${JSON.stringify(get.errorsByKind)}`);
        return {
          createUs: perRequestUs(create),
          getUs: perRequestUs(get),
          createPerSecond: create.perSecond,
          getPerSecond: get.perSecond,
          load,
        };
      },
      nodeArgs,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const wrk = findWrk();
  if (!wrk) throw new Error('wrk not found (make wrk)');
  const variants: Array<[string, string, string[]]> = (NODE_FLAG_VARIANTS ?? [[]]).map((flags) => [
    NODE_FLAG_VARIANTS ? `this build, node ${flags.length > 0 ? flags.join(' ') : 'without flags'}` : 'this build',
    THIS_BUILD,
    flags,
  ]);
  const builds: Array<[string, string, string[]]> = BASE
    ? [['before (BENCH_BASE_SCRIPT)', BASE, []], ...variants]
    : variants;
  const samples = new Map<string, Sample[]>(builds.map(([label]) => [label, []]));
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order each round so neither build always runs first.
    const order = round % 2 ? [...builds].reverse() : builds;
    for (const [label, script, nodeArgs] of order) {
      const s = await measure(script, wrk, nodeArgs);
      samples.get(label)?.push(s);
      log(
        `round ${round + 1} ${label}: create ${s.createUs.toFixed(0)} µs, GET ${s.getUs.toFixed(1)} µs (load ${s.load.toFixed(2)})`,
      );
    }
  }
  const fmt = (xs: number[], digits: number): string =>
    `${median(xs).toFixed(digits)} (${xs.map((x) => x.toFixed(digits)).join(', ')})`;
  const loads = [...samples.values()].flat().map((s) => s.load);
  const noisy = Math.max(...loads) > 2 ? ' NOISY (load average above 2)' : '';
  const doc = [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — server CPU per create and GET, c${CONCURRENCY} (wrk)${noisy}`,
    '',
    `Command: \`make bench-request-cpu\` (\`node dist/test/bench/request-cpu.js\`; ${ROUNDS} rounds of ${SECONDS} s per workload, ${WARMUP_SECONDS} s warm-up${BASE ? ', A/B against BENCH_BASE_SCRIPT, builds alternating' : ''}${NODE_FLAG_VARIANTS ? `, REQUEST_CPU_NODE_FLAGS=\`${process.env['REQUEST_CPU_NODE_FLAGS']}\`` : ''}). Machine:`,
    '',
    ...machineDescription(),
    `- 1-minute load average at each phase's start: ${loads.map((l) => l.toFixed(2)).join(', ')}`,
    '',
    `Server CPU per successful request: the apiserver process's CPU time (/proc, all threads) during the wrk phase over its successful requests; no profiler attached. Each round starts a fresh etcd and server, warms up with ${WARMUP_SECONDS} s of creates at c16, then runs the create phase and a GET phase over the warm-up's objects. Median of the rounds (each round's figure in brackets).`,
    '',
    '| Build | create µs/req | GET µs/req | creates/s | GETs/s |',
    '|---|---:|---:|---:|---:|',
    ...builds.map(([label]) => {
      const s = samples.get(label) ?? [];
      return `| ${label} | ${fmt(
        s.map((x) => x.createUs),
        0,
      )} | ${fmt(
        s.map((x) => x.getUs),
        1,
      )} | ${median(s.map((x) => x.createPerSecond)).toFixed(0)} | ${median(s.map((x) => x.getPerSecond)).toFixed(0)} |`;
    }),
    '',
  ].join('\n');
  publishSection(doc);
}

runBench(main);

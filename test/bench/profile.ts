// `make profile`: the create and GET workloads at concurrency 64 (wrk, or the Node load generator without it) against
// the server under --cpu-prof; writes per-request CPU by area and the top functions into docs/benchmarks.md.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench, withBenchServer } from './bench-server';
import type { CpuProfile } from './cpu-profile';
import { httpRequest, runLoad, type LoadSpec } from './http-load';
import { breakdown, type ProfileBreakdown } from './profile-areas';
import { machineDescription, prependSection, resultTable } from './report';
import type { PhaseResult } from './stats';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';
import { createScript, findWrk, getScript, runWrk } from './wrk-load';

const SECONDS = Number(process.env['PROFILE_SECONDS'] ?? 10);
const CONCURRENCY = Number(process.env['PROFILE_CONCURRENCY'] ?? 64);
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';
/** PROFILE_NODE_ARGS: more node flags for the server (e.g. `--max-semi-space-size=64`), space-separated. */
const EXTRA_NODE_ARGS = (process.env['PROFILE_NODE_ARGS'] ?? '').split(' ').filter(Boolean);

const log = (line: string): void => void process.stderr.write(`[profile] ${line}\n`);
const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

interface Profiled {
  workload: string;
  result: PhaseResult;
  breakdown: ProfileBreakdown;
}

let counter = 0;
function createSpec(concurrency: number, seconds: number, created: string[]): LoadSpec {
  return {
    workload: 'POST create Deployment',
    concurrency,
    seconds,
    next: () => {
      const name = `prof-${(counter++).toString(36)}`;
      return { method: 'POST', path: DEPLOYMENTS, body: deploymentBody(name), tag: name };
    },
    onSuccess: (req) => void (req.tag && created.push(req.tag)),
  };
}

/** One workload on a fresh etcd and server: set-up and warm-up, then the measured phase, whose samples are kept. */
async function profileWorkload(kind: 'create' | 'get', wrk: string | undefined): Promise<Profiled> {
  const dir = mkdtempSync(join(tmpdir(), `orch-profile-${kind}-`));
  try {
    let window: [number, number] = [0, 0];
    const result = await withBenchServer(
      `profile-${kind}`,
      async (server) => {
        const agent = new Agent({ keepAlive: true, maxSockets: 1 });
        const ns = await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', namespaceBody);
        agent.destroy();
        if (ns.status !== 201) throw new Error(`creating namespace bench: ${ns.status} ${ns.body}`);
        const created: string[] = [];
        log(`${kind}: warm-up`);
        await runLoad(server.url, createSpec(16, 2, created));
        const getSpec: LoadSpec = {
          workload: 'GET Deployment',
          concurrency: CONCURRENCY,
          seconds: SECONDS,
          next: () => ({
            method: 'GET',
            path: `${DEPLOYMENTS}/${created[Math.floor(Math.random() * created.length)]}`,
          }),
        };
        if (kind === 'get') await runLoad(server.url, { ...getSpec, concurrency: 16, seconds: 2 });
        log(`${kind}: measured phase, concurrency ${CONCURRENCY}, ${SECONDS}s (${wrk ? 'wrk' : 'node'})`);
        const from = nowUs();
        let r: PhaseResult;
        if (wrk && kind === 'create') {
          r = await runWrk(
            wrk,
            server.url,
            {
              workload: 'POST create Deployment',
              concurrency: CONCURRENCY,
              seconds: SECONDS,
              script: createScript('wrk-prof-'),
              scriptPath: join(dir, 'create.lua'),
            },
            server.pid,
            undefined,
            log,
          );
        } else if (wrk) {
          writeFileSync(join(dir, 'names.txt'), `${created.join('\n')}\n`);
          r = await runWrk(
            wrk,
            server.url,
            {
              workload: 'GET Deployment',
              concurrency: CONCURRENCY,
              seconds: SECONDS,
              script: getScript(join(dir, 'names.txt'), 2),
              scriptPath: join(dir, 'get.lua'),
            },
            server.pid,
            undefined,
            log,
          );
        } else {
          r = await runLoad(
            server.url,
            kind === 'create' ? createSpec(CONCURRENCY, SECONDS, created) : getSpec,
            server.pid,
          );
        }
        window = [from, nowUs()];
        return r;
      },
      ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...EXTRA_NODE_ARGS],
    );
    // With --workers N (BENCH_SERVER_ARGS) every process writes a profile; the busiest one is the serving worker.
    const profiles = readdirSync(dir)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as CpuProfile);
    if (profiles.length === 0) throw new Error(`the server wrote no .cpuprofile into ${dir}`);
    const profile = profiles.sort((a, b) => b.samples.length - a.samples.length)[0]!;
    const b = breakdown(profile, window[0], window[1]);
    if (b.busyUs === 0) throw new Error('no profile samples fall inside the measured phase (clock mismatch?)');
    return { workload: result.workload, result, breakdown: b };
  } finally {
    // PROFILE_KEEP=1 keeps the .cpuprofile files (their directory is logged) for a look at the call stacks.
    if (process.env['PROFILE_KEEP'] === '1') log(`${kind}: profiles kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}

const us = (v: number, requests: number): string => (v / requests).toFixed(1);

const pct = (v: number, total: number): string => `${((100 * v) / total).toFixed(1)}%`;
const cell = (s: string): string => `\`${s.replace(/\|/g, '\\|').replace(/`/g, "'")}\``;

function section(p: Profiled): string[] {
  const ok = p.result.requests - p.result.errors;
  const b = p.breakdown;
  // Samples are wall-clock ticks of a busy main thread (preempted time included on a loaded machine); shares are
  // turned into µs with the server's measured CPU (/proc) for the phase.
  const cpuUs = p.result.serverCpuMs !== undefined ? p.result.serverCpuMs * 1000 : b.busyUs;
  const scale = cpuUs / b.busyUs;
  const per = (v: number): string => us(v * scale, ok);
  return [
    `### ${p.workload}, concurrency ${p.result.concurrency}: ${(ok / p.result.seconds).toFixed(0)} successful req/s, ${p.result.errors} errors; server CPU ${us(cpuUs, ok)} µs per request (/proc; the profile saw the main thread busy ${(b.busyUs / 1e6).toFixed(2)} s of a ${b.windowSeconds.toFixed(1)} s window)`,
    '',
    '| Area | self µs/req | self % | inclusive µs/req |',
    '|---|---:|---:|---:|',
    ...[...b.areas]
      .sort((x, y) => y.selfUs - x.selfUs)
      .map((a) => `| ${a.area} | ${per(a.selfUs)} | ${pct(a.selfUs, b.busyUs)} | ${per(a.inclusiveUs)} |`),
    '',
    `Top self time (a native leaf is shown with the nearest located caller, \`leaf ← caller\`):`,
    '',
    "| # | µs/req | % | function | frame's area |",
    '|---:|---:|---:|---|---|',
    ...b.topSelf.map((f, i) => `| ${i + 1} | ${per(f.us)} | ${pct(f.us, b.busyUs)} | ${cell(f.fn)} | ${f.area} |`),
    '',
    'Top inclusive time, project code (the request listener itself left out):',
    '',
    "| # | µs/req | % | function | frame's area |",
    '|---:|---:|---:|---|---|',
    ...b.topInclusive.map((f, i) => `| ${i + 1} | ${per(f.us)} | ${pct(f.us, b.busyUs)} | ${cell(f.fn)} | ${f.area} |`),
    '',
  ];
}

async function main(): Promise<void> {
  const wrk = process.env['BENCH_LOAD_GENS'] === 'node' ? undefined : findWrk();
  if (!wrk) log('wrk not found: the Node load generator drives the measured phases');
  const runs = [await profileWorkload('create', wrk), await profileWorkload('get', wrk)];
  const serverArgs = process.env['BENCH_SERVER_ARGS'] ?? '';
  const doc = [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — CPU profile per request`,
    '',
    `Command: \`make profile\` (\`node dist/test/bench/profile.js\`; PROFILE_SECONDS=${SECONDS}, PROFILE_CONCURRENCY=${CONCURRENCY}${serverArgs ? `, BENCH_SERVER_ARGS="${serverArgs}"` : ''})`,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    `Each workload runs on a fresh embedded etcd and a fresh server started with \`node --cpu-prof\` (\`--log-level warn\`), after a 2 s warm-up at concurrency 16; only the samples of the measured phase count (the V8 profile clock and the bench's hrtime are both CLOCK_MONOTONIC). "Self" charges each sample to one area: a native leaf (JSON.parse, writev …) goes to the nearest caller with a source location, and Node.js internals or unclassified npm code (socket writes, event emitters, promise jobs) to the nearest caller in a specific area (so a writev under HTTP/2 counts as etcd3/gRPC, under the HTTP response as response writing); what remains under "other Node.js internals" has no such caller (socket reads, timers, microtask runs). "inclusive" charges it to every area on its stack, so inclusive figures overlap. Percentages are shares of the main thread's non-idle samples; µs per request = share × the server process's CPU during the phase (/proc, all its threads) ÷ successful requests, because on a loaded machine the sampler also counts time the busy thread was preempted. The table's area column charges generic frames to their caller's area; the top-function tables name the frame's own area. The machine is shared: figures are noisy.`,
    '',
    ...resultTable(runs.map((r) => r.result)),
    '',
    ...runs.flatMap(section),
  ].join('\n');
  process.stdout.write(`${doc}\n`);
  if (WRITE_DOCS) {
    const path = join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md');
    prependSection(path, doc);
    log(`wrote ${path}`);
  }
}

runBench(main);

// APF dispatch overhead, on vs off, measured so that the figure means something on a shared machine: both servers
// (each on its own etcd) run side by side for the whole measurement, and every workload runs in ROUNDS short phases
// that load both servers at the same time (same rate, same concurrency, one load generator), so that a change in
// the machine's load hits both alike. Per round, the server's CPU per request (/proc) of each; the figure is the
// median over the rounds of the paired ratio on / off (the medians of each side and their spread are printed too). BENCH_APF_PROFILE=1 runs both servers under --cpu-prof and prints, per function,
// the self CPU µs per request of the fixed-rate GET phases with APF on minus off (test/bench/apf-profile-diff.ts).
// Standalone: `node dist/test/bench/apf-overhead.js` (prints; `make bench` runs it from apf.js).
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runBench, withBenchServer } from './bench-server';
import { httpRequest, runLoad, type LoadRequest } from './http-load';
import { profileDiff, type ProfileWindow } from './apf-profile-diff';
import type { ServerProcess } from './server-process';
import { median, type PhaseResult } from './stats';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';

/**
 * 1,600 seats, so global-default (20 of 245 shares: 131 nominal, 98 at start before any borrowing) has more seats
 * than the 64 clients and nothing queues; with the default 600 it starts at 37 seats and the phase measures that
 * limit (throughput bound by etcd latency × seats), not the dispatcher.
 */
export const OVERHEAD_SERVER = '--max-requests-inflight=1000 --max-mutating-requests-inflight=600';
const OFF = '--enable-priority-and-fairness=false';

const ROUNDS = Number(process.env['BENCH_APF_ROUNDS'] ?? 5);
const PHASE_SECONDS = Number(process.env['BENCH_APF_PHASE_SECONDS'] ?? 3);
/** The request rate of the fixed-rate GET phase (well below what one core serves). */
export const FIXED_RATE = Number(process.env['BENCH_APF_FIXED_RATE'] ?? 1000);
/** The request rate of the fixed-rate create phase. */
export const CREATE_RATE = Number(process.env['BENCH_APF_CREATE_RATE'] ?? 150);
const PROFILE = process.env['BENCH_APF_PROFILE'] === '1';

const nowUs = (): number => Number(process.hrtime.bigint() / 1000n);

function log(line: string): void {
  process.stderr.write(`[bench apf-overhead] ${line}\n`);
}

interface Workload {
  name: string;
  concurrency: number;
  ratePerSecond?: number;
  next(n: number): LoadRequest;
}

interface Side {
  label: 'off' | 'on';
  server: ServerProcess;
  names: string[];
  created: number;
  /** Per workload: the rounds' phases. */
  phases: Map<string, PhaseResult[]>;
  windows: ProfileWindow[];
}

export interface OverheadFigure {
  workload: string;
  /** Median server CPU µs per request over the rounds. */
  offUs: number;
  onUs: number;
  /** Lowest and highest round, µs per request. */
  offRange: [number, number];
  onRange: [number, number];
  /** Median requests per second over the rounds. */
  offRate: number;
  onRate: number;
  errors: number;
  /** Median over the rounds of (on − off) / off of the same round, %. */
  overheadPct: number;
  /** Lowest and highest round's (on − off) / off, %. */
  overheadRange: [number, number];
}

export interface OverheadResult {
  rounds: number;
  phaseSeconds: number;
  figures: OverheadFigure[];
  /** With BENCH_APF_PROFILE=1: the per-function diff lines. */
  profile?: string[];
}

function workloads(side: Side): Workload[] {
  let n = 0;
  const get = (): LoadRequest => ({
    method: 'GET',
    path: `${DEPLOYMENTS}/${side.names[n++ % side.names.length] ?? ''}`,
  });
  const create = (): LoadRequest => ({
    method: 'POST',
    path: DEPLOYMENTS,
    body: deploymentBody(`${side.label}-${side.created++}`),
  });
  return [
    { name: `GET deployment at ${FIXED_RATE}/s`, concurrency: 64, ratePerSecond: FIXED_RATE, next: get },
    { name: 'GET deployment, closed loop', concurrency: 64, next: get },
    { name: `POST deployment at ${CREATE_RATE}/s`, concurrency: 64, ratePerSecond: CREATE_RATE, next: create },
    { name: 'POST deployment, closed loop', concurrency: 64, next: create },
  ];
}

async function warmUp(side: Side): Promise<void> {
  const agent = new Agent({ keepAlive: true });
  await httpRequest(agent, side.server.url, 'POST', '/api/v1/namespaces', namespaceBody);
  for (let i = 0; i < 200; i++) {
    const name = `warm-${i}`;
    await httpRequest(agent, side.server.url, 'POST', DEPLOYMENTS, deploymentBody(name));
    side.names.push(name);
  }
  for (let i = 0; i < 400; i++) await httpRequest(agent, side.server.url, 'GET', `${DEPLOYMENTS}/warm-${i % 200}`);
  agent.destroy();
}

async function phase(side: Side, w: Workload): Promise<void> {
  const from = nowUs();
  const r = await runLoad(
    side.server.url,
    {
      workload: w.name,
      concurrency: w.concurrency,
      seconds: PHASE_SECONDS,
      ...(w.ratePerSecond === undefined ? {} : { ratePerSecond: w.ratePerSecond }),
      next: (i) => w.next(i),
    },
    side.server.pid,
  );
  if (w.ratePerSecond !== undefined && w.name.startsWith('GET'))
    side.windows.push({ fromUs: from, toUs: nowUs(), requests: r.requests });
  const list = side.phases.get(w.name) ?? [];
  list.push(r);
  side.phases.set(w.name, list);
}

function figure(name: string, off: PhaseResult[], on: PhaseResult[]): OverheadFigure {
  const cpu = (ps: PhaseResult[]): number[] => ps.map((p) => (1000 * (p.serverCpuMs ?? Number.NaN)) / p.requests);
  const offCpu = cpu(off);
  const onCpu = cpu(on);
  const offUs = median(offCpu);
  const onUs = median(onCpu);
  const paired = offCpu.map((o, i) => (100 * ((onCpu[i] ?? Number.NaN) - o)) / o);
  return {
    workload: name,
    offUs,
    onUs,
    offRange: [Math.min(...offCpu), Math.max(...offCpu)],
    onRange: [Math.min(...onCpu), Math.max(...onCpu)],
    offRate: median(off.map((p) => p.perSecond)),
    onRate: median(on.map((p) => p.perSecond)),
    errors: [...off, ...on].reduce((s, p) => s + p.errors, 0),
    overheadPct: median(paired),
    overheadRange: [Math.min(...paired), Math.max(...paired)],
  };
}

/** Both servers side by side; ROUNDS rounds of every workload, each phase loading both at once. */
export async function measureOverhead(): Promise<OverheadResult> {
  const profDir = PROFILE ? mkdtempSync(join(tmpdir(), 'orch-apf-prof-')) : undefined;
  const nodeArgs = (label: string): string[] =>
    profDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profDir, label)}`] : [];
  const sides: Side[] = [];
  const withSide = <T>(label: 'off' | 'on', flags: string, body: () => Promise<T>): Promise<T> => {
    process.env['BENCH_SERVER_ARGS'] = flags;
    return withBenchServer(
      `apf-${label}`,
      (server) => {
        sides.push({ label, server, names: [], created: 0, phases: new Map(), windows: [] });
        return body();
      },
      nodeArgs(label),
    );
  };
  try {
    await withSide('off', `${OVERHEAD_SERVER} ${OFF}`, () =>
      withSide('on', OVERHEAD_SERVER, async () => {
        for (const side of sides) await warmUp(side);
        for (let round = 0; round < ROUNDS; round++) {
          log(`round ${round + 1} of ${ROUNDS}`);
          const lists = sides.map((s) => workloads(s));
          for (let w = 0; w < (lists[0]?.length ?? 0); w++)
            await Promise.all(sides.map((side, i) => phase(side, lists[i]![w]!)));
        }
      }),
    );
    const [off, on] = [sides.find((s) => s.label === 'off')!, sides.find((s) => s.label === 'on')!];
    const figures = [...off.phases.keys()].map((name) => figure(name, off.phases.get(name)!, on.phases.get(name)!));
    return {
      rounds: ROUNDS,
      phaseSeconds: PHASE_SECONDS,
      figures,
      ...(profDir ? { profile: profileDiff(join(profDir, 'off'), off.windows, join(profDir, 'on'), on.windows) } : {}),
    };
  } finally {
    if (profDir) rmSync(profDir, { recursive: true, force: true });
  }
}

/** The figures as a markdown table. */
export function overheadTable(r: OverheadResult): string[] {
  const f = (v: number): string => v.toFixed(1);
  const pct = (v: number): string => `${v >= 0 ? '+' : ''}${v.toFixed(1)} %`;
  return [
    '| Workload (per server) | req/s off / on (median) | server CPU µs/req off: median (min–max) | on: median (min–max) | on vs off, paired rounds: median (min–max) | errors |',
    '|---|---|---|---|---|---:|',
    ...r.figures.map(
      (x) =>
        `| ${x.workload} | ${x.offRate.toFixed(0)} / ${x.onRate.toFixed(0)} | ${f(x.offUs)} (${f(x.offRange[0])}–${f(x.offRange[1])}) | ${f(x.onUs)} (${f(x.onRange[0])}–${f(x.onRange[1])}) | ${pct(x.overheadPct)} (${pct(x.overheadRange[0])} to ${pct(x.overheadRange[1])}) | ${x.errors} |`,
    ),
  ];
}

if (require.main === module)
  runBench(async () => {
    const r = await measureOverhead();
    process.stdout.write(`${overheadTable(r).join('\n')}\n`);
    if (r.profile) process.stdout.write(`\n${r.profile.join('\n')}\n`);
  });

// The overload figures of `node dist/test/bench/apf.js`: 2,000 LISTs at once from one flow (one user) against a
// 10-seat server, with exempt probes (/readyz and a system:masters LIST) measured twice: from the storm's own process
// (its client has 2,000 connections to open and answers to read first) and from a process of their own, every
// 100 ms from the storm's start until well after, so the probe at the start (behind the storm's connections in the
// accept queue) and the probes once the storm is queued are told apart.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { httpRequest } from './http-load';
import type { ProbeResult } from './apf-probe';
import type { ServerProcess } from './server-process';

const STORM = 2000;
const STORM_PATH = '/apis/apps/v1/deployments';

function rssMiB(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (key: string): number => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

export interface Storm {
  statuses: Map<number, number>;
  /** From the first request sent to the last answer. */
  ms: number;
}

export function storm(url: string, token: string): Promise<Storm> {
  const agent = new Agent({ keepAlive: false });
  const t0 = performance.now();
  const statuses = new Map<number, number>();
  return Promise.all(
    Array.from({ length: STORM }, () =>
      httpRequest(agent, url, 'GET', STORM_PATH, undefined, undefined, { Authorization: `Bearer ${token}` }).then(
        (r) => r.status,
        () => 0,
      ),
    ),
  ).then((all) => {
    for (const s of all) statuses.set(s, (statuses.get(s) ?? 0) + 1);
    agent.destroy();
    return { statuses, ms: performance.now() - t0 };
  });
}

/** Probes from a child process, started before the storm and told "go" as the storm starts. */
export async function probedStorm(
  server: ServerProcess,
  stormToken: string,
  adminToken: string,
): Promise<[Storm, ProbeResult[]]> {
  const child = spawn(
    process.execPath,
    [join(__dirname, 'apf-probe.js'), server.url, adminToken, '4', '100', String(server.pid)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const probes: ProbeResult[] = [];
  const lines = createInterface({ input: child.stdout });
  lines.on('line', (line) => probes.push(JSON.parse(line) as ProbeResult));
  const exited = new Promise((r) => child.once('exit', r));
  await new Promise((r) => setTimeout(r, 300)); // the child's start-up
  child.stdin.end('go\n');
  const result = await storm(server.url, stormToken);
  const stuck = setTimeout(() => child.kill(), 20_000);
  await exited;
  clearTimeout(stuck);
  return [result, probes.sort((a, b) => a.sentMs - b.sentMs)];
}

export async function overloadFigures(
  server: ServerProcess,
  stormToken: string,
  adminToken: string,
): Promise<string[]> {
  const fmt = (v: number): string => v.toFixed(1);
  const before = rssMiB(server.pid);
  // 1. Probes from the storm's own process (the earlier method): five /readyz, one after the other.
  const agent = new Agent({ keepAlive: false });
  const first = storm(server.url, stormToken);
  const sameProcess: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    await httpRequest(agent, server.url, 'GET', '/readyz');
    sameProcess.push(performance.now() - t0);
  }
  const firstStorm = await first;
  agent.destroy();
  // 2. Probes from their own process.
  const [secondStorm, probes] = await probedStorm(server, stormToken, adminToken);
  const after = rssMiB(server.pid);
  const counts = (s: Storm): string => [...s.statuses].map(([st, n]) => `${st}×${n}`).join(', ');
  const startProbes = probes.filter((p) => p.sentMs < 150);
  const during = probes.filter((p) => p.sentMs >= 150 && p.sentMs < secondStorm.ms);
  const afterStorm = probes.filter((p) => p.sentMs >= secondStorm.ms);
  const worst = (ps: ProbeResult[]): string => (ps.length ? fmt(Math.max(...ps.map((p) => p.ms))) : '–');
  const median = (ps: ProbeResult[], of: (p: ProbeResult) => number = (p) => p.ms): string => {
    const sorted = ps.map(of).sort((a, b) => a - b);
    return sorted.length ? fmt(sorted[Math.floor(sorted.length / 2)] ?? 0) : '–';
  };
  const cpu = (p: ProbeResult): number => p.serverCpuMs;
  const worstCpu = (ps: ProbeResult[]): string => (ps.length ? fmt(Math.max(...ps.map(cpu))) : '–');
  const bad = probes.filter((p) => p.status !== 200).length;
  return [
    `Overload: ${STORM} LISTs (\`${STORM_PATH}\`, new connection each) at once from one user (one flow of global-default), twice:`,
    '',
    `- Storm 1: ${counts(firstStorm)} in ${fmt(firstStorm.ms)} ms; /readyz probes from the storm's own process, one after the other: ${sameProcess.map(fmt).join(', ')} ms.`,
    `- Storm 2: ${counts(secondStorm)} in ${fmt(secondStorm.ms)} ms; probes from a separate process every 100 ms, alternately /readyz and a system:masters LIST (both exempt), ${probes.length} probes, ${bad} not 200:`,
    `  - sent at the storm's start (first 150 ms, behind the storm's connections): ${startProbes.map((p) => `${p.kind} ${fmt(p.ms)}`).join(', ')} ms`,
    `  - sent while the storm is in flight (150 ms until its last answer): ${during.length} probes, median ${median(during)} ms, worst ${worst(during)} ms; server CPU used while they waited (the work ahead of them, about their latency on a quiet machine): median ${median(during, cpu)} ms, worst ${worstCpu(during)} ms`,
    `  - sent after the storm: ${afterStorm.length} probes, median ${median(afterStorm)} ms, worst ${worst(afterStorm)} ms`,
    `- Server memory: RSS ${fmt(before.rss)} MiB before the storms, ${fmt(after.rss)} MiB after, peak ${fmt(after.peak)} MiB.`,
  ];
}

// Formats benchmark results as markdown (table, machine, targets) and prepends a dated section to docs/benchmarks.md.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { cpus, loadavg, totalmem, platform, release } from 'node:os';
import { dirname, join } from 'node:path';
import { findEtcdBinary } from '../../lib/server/embedded-etcd';
import type { PhaseResult } from './stats';

export interface Target {
  name: string;
  measured: string;
  pass: boolean;
}

const DOC_TITLE = '# Benchmarks';

/** One-minute load average before the run (other work on the machine skews results). */
export const LOAD_AT_START = loadavg()[0] ?? 0;

export function machineDescription(): string[] {
  const cpuList = cpus();
  let etcdVersion = 'unknown';
  const etcd = findEtcdBinary();
  if (etcd) {
    try {
      etcdVersion =
        execFileSync(etcd, ['--version'], { encoding: 'utf8' })
          .split('\n')[0]
          ?.replace(/^etcd Version:\s*/, '') ?? 'unknown';
    } catch {
      // keep 'unknown'
    }
  }
  return [
    `- CPU: ${cpuList[0]?.model.trim() ?? 'unknown'} × ${cpuList.length}`,
    `- Memory: ${(totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `- OS: ${platform()} ${release()}`,
    `- Node: ${process.version}`,
    `- etcd: ${etcdVersion}`,
    `- 1-minute load average before the run: ${LOAD_AT_START.toFixed(2)}`,
  ];
}

const ms = (v: number): string => (Number.isNaN(v) ? '–' : v < 10 ? v.toFixed(2) : v.toFixed(1));

/** Machine CPU not used by the benchmark's own processes (other work on the machine), when measurable. */
function other(r: PhaseResult): number | undefined {
  if (r.machineCpuMs === undefined) return undefined;
  return Math.max(0, r.machineCpuMs - (r.serverCpuMs ?? 0) - (r.etcdCpuMs ?? 0) - (r.clientCpuMs ?? 0));
}

export function resultTable(results: PhaseResult[]): string[] {
  const rows = results.map((r) => {
    const kinds = Object.entries(r.errorsByKind)
      .map(([k, n]) => `${k}×${n}`)
      .join(', ');
    const window = r.cpuSeconds ?? r.seconds;
    const pct = (cpuMs: number | undefined): string =>
      cpuMs === undefined ? '–' : `${((100 * cpuMs) / 1000 / window).toFixed(0)}%`;
    const perReq = r.serverCpuMs === undefined ? '–' : (r.serverCpuMs / Math.max(1, r.requests)).toFixed(2);
    return `| ${r.workload} | ${r.loadGen ?? 'node'} | ${r.concurrency} | ${r.requests} | ${r.perSecond.toFixed(0)} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${r.errors}${kinds ? ` (${kinds})` : ''} | ${perReq} | ${pct(r.serverCpuMs)} / ${pct(r.etcdCpuMs)} / ${pct(r.clientCpuMs)} / ${pct(other(r))} |`;
  });
  return [
    '| Workload | Load gen | Concurrency | Requests | Req/s | p50 ms | p99 ms | Errors | Server CPU ms/req | CPU % of a core: server / etcd / load gen / other |',
    '|---|---|---:|---:|---:|---:|---:|---|---:|---:|',
    ...rows,
  ];
}

export function targetLines(targets: Target[]): string[] {
  return targets.map((t) => `- **${t.pass ? 'PASS' : 'FAIL'}** ${t.name}: ${t.measured}`);
}

/** `afterTargets`: extra lines under the target list (e.g. the same figures for the other load generator). */
export function markdownSection(
  date: Date,
  command: string,
  notes: string[],
  results: PhaseResult[],
  targets: Target[],
  afterTargets: string[] = [],
): string {
  return [
    `## ${date.toISOString().replace(/\.\d+Z$/, 'Z')}`,
    '',
    `Command: \`${command}\``,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    ...notes,
    '',
    ...resultTable(results),
    '',
    'Targets:',
    '',
    ...targetLines(targets),
    '',
    ...(afterTargets.length > 0 ? [...afterTargets, ''] : []),
  ].join('\n');
}

/** Inserts `section` right under the title of `path`, keeping every earlier section. */
export function prependSection(path: string, section: string): void {
  mkdirSync(dirname(path), { recursive: true });
  let rest = '';
  if (existsSync(path)) {
    const text = readFileSync(path, 'utf8');
    rest = text.startsWith(DOC_TITLE) ? text.slice(text.indexOf('\n') + 1 || text.length) : text;
    rest = rest.replace(/^\s*\n/, '');
  }
  writeFileSync(path, `${DOC_TITLE}\n\n${section}${rest ? `\n${rest}` : ''}`);
}

/** Prints a bench's section and, unless BENCH_NO_DOCS=1, puts it at the top of docs/benchmarks.md. */
export function publishSection(doc: string): void {
  process.stdout.write(`${doc}\n`);
  if (process.env['BENCH_NO_DOCS'] !== '1')
    prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), doc);
}

// Watch cache fill time A/B: N Deployments written once to a real etcd (as cache-memory.ts writes them), then the
// Cacher of this build and of another (BENCH_CACHE_BUILD=<other dist>), each through its own build's etcd client, fill
// from it in turns, several rounds, beside a raw etcd range of the same keys (etcd3 client, bytes only). Each fill runs in a new process (memory as fresh as
// at a server's start-up); wall time and that process's CPU per fill.
// Run: `node dist/test/bench/cache-fill.js` (`make bench-cache-fill`). BENCH_CACHE_OBJECTS (default 100000),
// BENCH_FILL_ROUNDS (default 3), BENCH_FILL_PAGES=<n,m,…> (page sizes to measure each build with), BENCH_FILL_PROFILE=<path prefix> (a CPU
// profile of each fill). The figures are printed and prepended to docs/benchmarks.md (BENCH_NO_DOCS=1: printed only).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import type { Cacher } from '../../lib/storage/cacher/cacher';
import type { EtcdStorage } from '../../lib/storage/etcd/store';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { PREFIX, writeObjects } from './cache-memory';
import { machineDescription, publishSection, LOAD_AT_START } from './report';

const OBJECTS = Number(process.env['BENCH_CACHE_OBJECTS'] ?? 100_000);
const ROUNDS = Number(process.env['BENCH_FILL_ROUNDS'] ?? 3);
const THIS_BUILD = resolve(join(__dirname, '..', '..'));
const OTHER_BUILD =
  process.env['BENCH_CACHE_BUILD'] === undefined ? undefined : resolve(process.env['BENCH_CACHE_BUILD']);

interface Build {
  name: string;
  dir: string;
  Cacher: typeof Cacher;
  EtcdStorage: typeof EtcdStorage;
  /** Resolves when the work a fill leaves for after ready is done (builds without such work: undefined). */
  fillsSettled?: () => Promise<void>;
}

async function load(dir: string, name: string): Promise<Build> {
  const { Cacher } = (await import(
    join(dir, 'lib/storage/cacher/cacher.js')
  )) as typeof import('../../lib/storage/cacher/cacher');
  const { EtcdStorage } = (await import(
    join(dir, 'lib/storage/etcd/store.js')
  )) as typeof import('../../lib/storage/etcd/store');
  const fill = (await import(join(dir, 'lib/storage/cacher/cache-fill.js'))) as { fillsSettled?: () => Promise<void> };
  return { name, dir, Cacher, EtcdStorage, ...(fill.fillsSettled ? { fillsSettled: fill.fillsSettled } : {}) };
}

function log(line: string): void {
  process.stderr.write(`[bench cache-fill] ${line}\n`);
}

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

interface Figure {
  ms: number;
  cpuMs: number;
  /** The part of cpuMs in the kernel (page faults of new memory, socket reads). */
  sysMs?: number;
  /** Until the fill's work after ready is done too (objects moved off the pages' responses), wall and CPU. */
  settledMs?: number;
  settledCpuMs?: number;
}

/**
 * One measurement in a new process (fresh memory, as at a server's start-up): `node <this script> child <what>
 * <etcd url>` prints its Figure as JSON; `what` is a build's dist directory or `raw`.
 */
function inChild(what: string, etcdUrl: string, page: number | undefined): Figure {
  const out = execFileSync(process.execPath, [__filename, 'child', what, etcdUrl, String(page ?? '')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out) as Figure;
}

async function child(what: string, etcdUrl: string, page: number | undefined): Promise<void> {
  // A build's fill reads etcd through that build's client (its channel options are part of the fill).
  const clientOf =
    what === 'raw'
      ? newEtcdClient
      : ((await import(join(what, 'lib/storage/etcd/client.js'))) as typeof import('../../lib/storage/etcd/client'))
          .newEtcdClient;
  const client = clientOf(etcdUrl);
  try {
    const figure = what === 'raw' ? await rawRanges(client) : await fillOnce(await load(what, what), client, page);
    process.stdout.write(JSON.stringify(figure));
  } finally {
    client.close();
  }
}

/** One fill of a new Cacher of `build` (pages of 10,000, progress logged), dropped afterwards. */
async function fillOnce(build: Build, client: ReturnType<typeof newEtcdClient>, page?: number): Promise<Figure> {
  const cacher = new build.Cacher({
    storage: new build.EtcdStorage(client),
    prefix: PREFIX,
    keyOf: (o) => `${PREFIX}${o.metadata.namespace ?? ''}/${o.metadata.name}`,
    capacity: 1000,
    minAgeMs: 75_000,
    bookmarkIntervalMs: 60_000,
    ...(page === undefined ? {} : { fillPageSize: page }),
    log: pino({ level: process.env['BENCH_FILL_LOG'] ?? 'warn' }, pino.destination(2)),
  });
  const profile = process.env['BENCH_FILL_PROFILE'];
  const session = profile === undefined ? undefined : await startProfile();
  const started = performance.now();
  const cpu0 = cpuUs();
  const sys0 = process.cpuUsage().system;
  cacher.start();
  await cacher.waitReady();
  if (session !== undefined && profile !== undefined)
    await stopProfile(session, `${profile}-${build.name.replace(/\W+/g, '-')}-${process.pid}.cpuprofile`);
  const figure: Figure = {
    ms: performance.now() - started,
    cpuMs: (cpuUs() - cpu0) / 1000,
    sysMs: (process.cpuUsage().system - sys0) / 1000,
  };
  if (build.fillsSettled !== undefined) {
    await build.fillsSettled();
    figure.settledMs = performance.now() - started;
    figure.settledCpuMs = (cpuUs() - cpu0) / 1000;
  }
  const count = cacher.list(PREFIX).items.length;
  await cacher.stop();
  if (count !== OBJECTS) throw new Error(`${build.name}: filled ${count} objects`);
  return figure;
}

/** BENCH_FILL_PROFILE=<path prefix>: each fill's CPU profile is written to <prefix>-<build>.cpuprofile. */
async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return session;
}

async function stopProfile(session: Session, path: string): Promise<void> {
  const { profile } = await session.post('Profiler.stop');
  writeFileSync(path, JSON.stringify(profile));
  session.disconnect();
}

/** Every key read with the etcd3 client in ranges of 10,000, values as bytes only (dropped page by page). */
async function rawRanges(client: ReturnType<typeof newEtcdClient>): Promise<Figure> {
  const started = performance.now();
  const cpu0 = cpuUs();
  const sys0 = process.cpuUsage().system;
  let count = 0;
  let start = Buffer.from(PREFIX);
  const end = Buffer.from(PREFIX.replace(/\/$/, '0'));
  let revision: string | undefined;
  for (;;) {
    const res = await client.kv.range({ key: start, range_end: end, limit: 10_000, ...(revision ? { revision } : {}) });
    revision ??= res.header.revision;
    count += res.kvs.length;
    const last = res.kvs[res.kvs.length - 1];
    if (!res.more || last === undefined) break;
    start = Buffer.concat([last.key, Buffer.from([0])]);
  }
  if (count !== OBJECTS) throw new Error(`raw ranges read ${count} objects`);
  return {
    ms: performance.now() - started,
    cpuMs: (cpuUs() - cpu0) / 1000,
    sysMs: (process.cpuUsage().system - sys0) / 1000,
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

/** A fill to measure: a build's Cacher with a page size (undefined: its default). */
interface Variant {
  name: string;
  dir: string;
  page: number | undefined;
}

function variants(): Variant[] {
  const builds = [{ name: 'this build', dir: THIS_BUILD }];
  if (OTHER_BUILD !== undefined) builds.push({ name: 'other build', dir: OTHER_BUILD });
  const pages = (process.env['BENCH_FILL_PAGES'] ?? '').split(',').filter((p) => p !== '');
  if (pages.length === 0) return builds.map((b) => ({ ...b, page: undefined }));
  return builds.flatMap((b) => pages.map((p) => ({ name: `${b.name}, pages of ${p}`, dir: b.dir, page: Number(p) })));
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-bench-fill-'));
  const etcd = await startEmbeddedEtcd(dir);
  const client = newEtcdClient(etcd.clientUrl);
  try {
    const measured = variants();
    log(`writing ${OBJECTS} Deployments`);
    const jsonBytes = await writeObjects(client, OBJECTS);
    const figures = new Map<string, { source: string; list: Figure[] }>([
      ['raw etcd ranges', { source: 'etcd3 client', list: [] }],
      ...measured.map((v) => [v.name, { source: v.dir, list: [] }] as [string, { source: string; list: Figure[] }]),
    ]);
    const note = (name: string, round: number, f: Figure): void => {
      figures.get(name)?.list.push(f);
      const sys = f.sysMs === undefined ? '' : `, system ${f.sysMs.toFixed(0)} ms`;
      const settled =
        f.settledMs === undefined
          ? ''
          : `; objects on own bytes at ${f.settledMs.toFixed(0)} ms (CPU ${f.settledCpuMs?.toFixed(0)} ms)`;
      log(`round ${round + 1}: ${name}: ${f.ms.toFixed(0)} ms (CPU ${f.cpuMs.toFixed(0)} ms${sys})${settled}`);
    };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternating order, so no variant always runs first.
      for (const v of round % 2 === 0 ? measured : [...measured].reverse())
        note(v.name, round, inChild(v.dir, etcd.clientUrl, v.page));
      note('raw etcd ranges', round, inChild('raw', etcd.clientUrl, undefined));
    }
    const rows = [...figures].map(([name, { source, list }]) => {
      const each = list.map((f) => `${f.ms.toFixed(0)} (${f.cpuMs.toFixed(0)})`).join(', ');
      const settled = list.filter((f) => f.settledMs !== undefined);
      const after =
        settled.length === 0
          ? ''
          : `${median(settled.map((f) => f.settledMs ?? 0)).toFixed(0)} ms (CPU ${median(settled.map((f) => f.settledCpuMs ?? 0)).toFixed(0)} ms)`;
      return `| ${name} (${source}) | ${median(list.map((f) => f.ms)).toFixed(0)} ms | ${median(list.map((f) => f.cpuMs)).toFixed(0)} ms | ${after} | ${each} |`;
    });
    publishSection(
      [
        `## Watch cache fill A/B (${new Date().toISOString().replace(/\.\d+Z$/, 'Z')})${LOAD_AT_START > 2 ? ' — NOISY' : ''}`,
        '',
        `Command: \`node dist/test/bench/cache-fill.js\`${OTHER_BUILD ? ` with BENCH_CACHE_BUILD=${OTHER_BUILD}` : ''}. On a local etcd: ${OBJECTS} Deployments (${(jsonBytes / OBJECTS).toFixed(0)} B of JSON each) written with raw puts, then ${ROUNDS} rounds of: a new Cacher of each build fills from etcd in a new process (order alternating), and a raw etcd3 range of every key in pages of 10,000 in a new process. Wall time and that process's CPU until the cache is ready (serving), and for builds that move the fill's objects off the pages' responses after ready, until that is done too.`,
        '',
        'Machine:',
        '',
        ...machineDescription(),
        '',
        '| what | median wall until ready | median CPU until ready | median until the objects are on bytes of their own (after ready) | each round: wall (CPU) ms until ready |',
        '|---|---|---|---|---|',
        ...rows,
        '',
      ].join('\n'),
    );
  } finally {
    client.close();
    await etcd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const run =
  process.argv[2] === 'child'
    ? child(process.argv[3] ?? '', process.argv[4] ?? '', process.argv[5] ? Number(process.argv[5]) : undefined)
    : main();
void run.catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

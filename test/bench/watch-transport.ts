// `node dist/test/bench/watch-transport.js` (`make bench-etcd-watch`): in process, the CPU and heap a client pays per
// etcd watch event received through etcd3's watch manager, over grpc-js and over node:http2 (h2-watch.ts), in
// alternating rounds on one embedded etcd. Each round forks a follower (a client of newEtcdClient watching a prefix,
// its transport chosen with decodeWatchesDirectly) while this process writes puts of a 2.9 KiB value (8 writers); the
// follower's CPU (process.cpuUsage, all threads) and allocated heap (v8.GCProfiler) over BENCH_WATCH_EVENTS (default
// 5000) events count, after BENCH_WATCH_WARM_UP (default 2000) events not counted. BENCH_WATCH_ROUNDS (default 5);
// BENCH_WATCH_SELF_WRITES=1: the follower writes them itself (create-if-absent Txns over node:http2, 64 at a time).
// BENCH_WATCH_NODE_ARGS adds node flags to the follower (`--cpu-prof`); BENCH_WATCH_PUBLISH=1 writes the section into
// docs/benchmarks.md.
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GCProfiler } from 'node:v8';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import type { Etcd3 } from 'etcd3';
import { COMPARE_CREATE, COMPARE_EQUAL, txn, UNARY_TRANSPORTS } from '../../lib/storage/etcd/kv-unary';
import { cheapResumeRevision, decodeWatchesDirectly, type WatchTransport } from '../../lib/storage/etcd/watch-stream';
import { LOAD_AT_START, machineDescription, publishSection } from './report';

const ROUNDS = Number(process.env['BENCH_WATCH_ROUNDS'] ?? 5);
const EVENTS = Number(process.env['BENCH_WATCH_EVENTS'] ?? 5000);
/** Events received before the measured ones (the follower's code compiled and warm). */
const WARM_UP = Number(process.env['BENCH_WATCH_WARM_UP'] ?? 2000);
const WRITERS = 8;
/** BENCH_WATCH_SELF_WRITES=1: the follower makes the writes itself (64 at a time), so a figure is a create's etcd part. */
const SELF_WRITES = process.env['BENCH_WATCH_SELF_WRITES'] === '1';
const SELF_WRITERS = 64;
const PREFIX = '/registry/bench-watch/';
const VALUE = Buffer.from(JSON.stringify({ kind: 'Deployment', data: 'x'.repeat(2900) }));
const TRANSPORTS: WatchTransport[] = ['grpcJs', 'h2'];

interface Figures {
  cpuUs: number;
  heapBytes: number;
}

/** Heap bytes allocated while the profiler ran: growth between collections plus what each collection freed. */
function allocated(stats: ReturnType<GCProfiler['stop']>, startUsed: number, endUsed: number): number {
  let total = 0;
  let last = startUsed;
  for (const gc of stats?.statistics ?? []) {
    total += gc.beforeGC.heapStatistics.usedHeapSize - last;
    last = gc.afterGC.heapStatistics.usedHeapSize;
  }
  return total + endUsed - last;
}

async function follow(url: string, transport: WatchTransport, events: number, tag: string): Promise<void> {
  const client = newEtcdClient(url);
  decodeWatchesDirectly(client, transport);
  const watcher = client.watch().prefix(PREFIX).watcher();
  cheapResumeRevision(watcher);
  let seen = 0;
  const profiler = new GCProfiler();
  let cpu: NodeJS.CpuUsage | undefined;
  let used = 0;
  watcher.on('connected', () => {
    process.send?.('ready');
    if (SELF_WRITES) void writeCreates(client, tag, SELF_WRITERS);
  });
  watcher.on('put', () => {
    if (++seen === WARM_UP) {
      used = process.memoryUsage().heapUsed;
      profiler.start();
      cpu = process.cpuUsage();
    }
    if (seen < WARM_UP + events) return;
    const spent = process.cpuUsage(cpu);
    const stats = profiler.stop();
    const heapBytes = allocated(stats, used, process.memoryUsage().heapUsed);
    const figures: Figures = { cpuUs: (spent.user + spent.system) / events, heapBytes: heapBytes / events };
    process.send?.(figures, () => {
      void watcher.cancel().finally(() => {
        client.close();
        process.exit(0);
      });
    });
  });
}

/** Create-if-absent Txns of the value over node:http2 (kv-unary.ts), as the server writes a create. */
async function writeCreates(client: Etcd3, tag: string, writers: number): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < WARM_UP + EVENTS) {
        const key = Buffer.from(`${PREFIX}${tag}-${next++}`);
        await txn(
          client,
          {
            compare: [{ key, target: COMPARE_CREATE, result: COMPARE_EQUAL, createRevision: 0 }],
            success: [{ requestPut: { key, value: VALUE } }],
          },
          UNARY_TRANSPORTS.h2,
        );
      }
    }),
  );
}

async function round(url: string, transport: WatchTransport, tag: string): Promise<Figures> {
  const execArgv = (process.env['BENCH_WATCH_NODE_ARGS'] ?? '').split(' ').filter((a) => a !== '');
  const child = fork(__filename, ['follow', url, transport, String(EVENTS), tag], { execArgv });
  const result = new Promise<Figures>((resolve, reject) => {
    child.on('message', (m) => {
      if (typeof m === 'object') resolve(m as unknown as Figures);
    });
    child.on('exit', (code) => reject(new Error(`follower exited with ${code}`)));
  });
  await new Promise<void>((resolve) => child.once('message', () => resolve()));
  if (!SELF_WRITES) {
    const writer = newEtcdClient(url);
    await writeCreates(writer, tag, WRITERS);
    writer.close();
  }
  return result;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? NaN;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-bench-watch-'));
  const etcd = await startEmbeddedEtcd(join(dataDir, 'etcd'));
  const figures = new Map<WatchTransport, Figures[]>(TRANSPORTS.map((t) => [t, []]));
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const t of r % 2 === 0 ? TRANSPORTS : [...TRANSPORTS].reverse()) {
        const f = await round(etcd.clientUrl, t, `r${r}${t}`);
        figures.get(t)?.push(f);
        process.stderr.write(
          `round ${r} ${t}: ${f.cpuUs.toFixed(1)} µs CPU, ${f.heapBytes.toFixed(0)} B heap per event\n`,
        );
      }
    }
  } finally {
    await etcd.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  const rows = TRANSPORTS.map((t) => {
    const xs = figures.get(t) ?? [];
    const cpu = xs.map((x) => x.cpuUs);
    const heap = xs.map((x) => x.heapBytes);
    return `| ${t} | ${median(cpu).toFixed(1)} | ${cpu.map((x) => x.toFixed(0)).join(', ')} | ${median(heap).toFixed(0)} |`;
  });
  const noisy = LOAD_AT_START > 2 ? ` NOISY: 1-minute load average ${LOAD_AT_START.toFixed(1)} before the run.` : '';
  const section = [
    `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — CPU and heap per received etcd watch event, by transport`,
    '',
    `Command: \`node dist/test/bench/watch-transport.js\` (BENCH_WATCH_ROUNDS=${ROUNDS}, BENCH_WATCH_EVENTS=${EVENTS}${SELF_WRITES ? ', BENCH_WATCH_SELF_WRITES=1' : ''}): ${EVENTS} create-if-absent Txns of a ${VALUE.length}-byte value (${SELF_WRITES ? `made by the follower itself over node:http2, ${SELF_WRITERS} at a time, so the figures are a create's whole etcd part: its Txn and its watch event` : `${WRITERS} writers`}) into one embedded etcd, received by a forked follower through etcd3's watch manager (newEtcdClient, one prefix watch), transports alternating per round; the follower's CPU (process.cpuUsage) and allocated heap (v8.GCProfiler) over the ${EVENTS} events after ${WARM_UP} uncounted ones.${noisy}`,
    '',
    'Machine:',
    '',
    ...machineDescription(),
    '',
    '| Watch transport | µs CPU per event (median) | rounds | heap bytes allocated per event (median) |',
    '|---|---:|---|---:|',
    ...rows,
    '',
  ].join('\n');
  process.stdout.write(`${section}\n`);
  if (process.env['BENCH_WATCH_PUBLISH'] === '1') publishSection(section);
}

if (process.argv[2] === 'follow') {
  const [url = '', transport = 'h2', events = '0', tag = 'follow'] = process.argv.slice(3);
  void follow(url, transport as WatchTransport, Number(events), tag);
} else {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}

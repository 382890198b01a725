// In-process CPU of one unary etcd Txn (a create-if-absent, as EtcdStorage.create sends) by the way it is made: through
// the etcd3 client as the server builds it, through grpc-js on the same channel with etcd3's (de)serializers, with
// pre-built request bytes and a minimal decoder, and on channels with other options. The variants alternate round by
// round at concurrency 64 on one fresh etcd, so they share the machine's load; the figure is this process's CPU
// (process.cpuUsage) per call, each round's figure in the last column (rounds alternate, so a round's figures pair up
// across variants). `make bench-etcd-unary` (ETCD_UNARY_ROUNDS 5, ETCD_UNARY_CALLS 4000, ETCD_UNARY_ONLY 'a;b').
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { join } from 'node:path';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { EtcdStorage } from '../../lib/storage/etcd/store';
import { percentile } from './stats';
import { etcdUnaryVariants, type UnaryVariant } from './etcd-unary-variants';

const ROUNDS = Number(process.env['ETCD_UNARY_ROUNDS'] ?? 5);
const CALLS = Number(process.env['ETCD_UNARY_CALLS'] ?? 4000);
const CONCURRENCY = 64;

interface Sample {
  cpuUs: number;
  /** Heap growth per call over the round: the allocations when no GC ran (run with a large --max-semi-space-size). */
  heapKb: number;
  gcs: number;
}

let gcs = 0;
new PerformanceObserver((list) => void (gcs += list.getEntries().length)).observe({ entryTypes: ['gc'] });

async function runVariant(variant: UnaryVariant, round: number): Promise<Sample> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < CALLS) {
      const n = next++;
      await variant.call(`/bench-unary/${variant.name}/${round}/${n.toString(36)}`);
    }
  };
  const gcsBefore = gcs;
  const heapBefore = process.memoryUsage().heapUsed;
  const before = process.cpuUsage();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const used = process.cpuUsage(before);
  const heapKb = (process.memoryUsage().heapUsed - heapBefore) / 1024 / CALLS;
  await new Promise((r) => setImmediate(r)); // let the observer report this round's GCs
  return { cpuUs: (used.user + used.system) / CALLS, heapKb, gcs: gcs - gcsBefore };
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-etcd-unary-'));
  const etcd = await startEmbeddedEtcd(dir);
  try {
    const variants = await etcdUnaryVariants(etcd.clientUrl, (url) => new EtcdStorage(newEtcdClient(url)));
    const only = process.env['ETCD_UNARY_ONLY']?.split(';');
    const chosen = only ? variants.filter((v) => only.includes(v.name)) : variants;
    const figures = new Map<string, Sample[]>(chosen.map((v) => [v.name, []]));
    for (const v of chosen) await runVariant(v, -1); // warm-up: connections, JIT
    for (let round = 0; round < ROUNDS; round++) {
      for (const v of round % 2 === 0 ? chosen : [...chosen].reverse())
        figures.get(v.name)?.push(await runVariant(v, round));
    }
    process.stdout.write(
      `# etcd unary Txn, ${CALLS} calls x ${ROUNDS} rounds at c${CONCURRENCY}, load ${loadavg()[0]?.toFixed(2)}\n`,
    );
    process.stdout.write(
      '| variant | µs CPU per call: median (min–max) | heap kB per call (rounds without GC) | what | µs per round |\n',
    );
    process.stdout.write('|---|---|---|---|---|\n');
    for (const v of chosen) {
      const samples = figures.get(v.name) ?? [];
      const xs = samples.map((s) => s.cpuUs);
      const range = `${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)}`;
      const cpu = percentile(Float64Array.from(xs).sort(), 0.5).toFixed(1);
      const heaps = samples.filter((s) => s.gcs === 0).map((s) => s.heapKb);
      const heap = heaps.length ? percentile(Float64Array.from(heaps).sort(), 0.5).toFixed(2) : 'n/a (GC ran)';
      const rounds = xs.map((x) => x.toFixed(0)).join(' ');
      process.stdout.write(`| ${v.name} | ${cpu} (${range}) | ${heap} | ${v.what} | ${rounds} |\n`);
    }
    for (const v of chosen) await v.close();
  } finally {
    await etcd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
});

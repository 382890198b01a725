// The longest event-loop stall around a LIST of every object from a watch cache right after its fill is ready (the
// fill's values still pending, see lib/storage/cacher/pending-object.ts): `list` alone (every pending entry decoded in
// one go) against `decoded` then `list` (decoded in slices between other work first, as LISTs and watch states from
// the cache are served). A timer every millisecond measures the stall. Each mode in a new process, alternating.
// Run: `node dist/test/bench/fill-list-stall.js` (BENCH_CACHE_OBJECTS, default 100000; BENCH_STALL_ROUNDS, default 2).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { Cacher } from '../../lib/storage/cacher/cacher';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { EtcdStorage } from '../../lib/storage/etcd/store';
import { PREFIX, writeObjects } from './cache-memory';

const ROUNDS = Number(process.env['BENCH_STALL_ROUNDS'] ?? 2);
type Mode = 'list' | 'decoded';

async function child(etcdUrl: string, mode: Mode): Promise<void> {
  const client = newEtcdClient(etcdUrl);
  const cacher = new Cacher({
    storage: new EtcdStorage(client),
    prefix: PREFIX,
    keyOf: (o) => `${PREFIX}${o.metadata.namespace ?? ''}/${o.metadata.name}`,
    capacity: 1000,
    minAgeMs: 75_000,
    bookmarkIntervalMs: 60_000,
    log: pino({ level: 'warn' }),
  });
  cacher.start();
  await cacher.waitReady();
  let last = performance.now();
  let worst = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - last - 1);
    last = now;
  }, 1);
  const started = performance.now();
  if (mode === 'decoded') await cacher.decoded(PREFIX);
  const count = cacher.list(PREFIX).items.length;
  const listMs = performance.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 20));
  clearInterval(tick);
  await cacher.stop();
  client.close();
  process.stdout.write(
    `${JSON.stringify({ mode, count, listMs: Math.round(listMs), worstStallMs: Math.round(worst) })}\n`,
  );
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-bench-stall-'));
  const etcd = await startEmbeddedEtcd(dir);
  try {
    const client = newEtcdClient(etcd.clientUrl);
    await writeObjects(client);
    client.close();
    for (let round = 0; round < ROUNDS; round++)
      for (const mode of round % 2 === 0 ? ['list', 'decoded'] : ['decoded', 'list'])
        process.stdout.write(
          execFileSync(process.execPath, [__filename, 'child', etcd.clientUrl, mode], { encoding: 'utf8' }),
        );
  } finally {
    await etcd.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fail = (err: unknown): void => {
  process.stderr.write(`${String(err)}\n`);
  process.exit(1);
};
if (process.argv[2] === 'child') child(process.argv[3] ?? '', process.argv[4] as Mode).catch(fail);
else if (require.main === module) main().catch(fail);

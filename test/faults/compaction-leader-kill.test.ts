// Three server processes (the built binary) on a three-member etcd, compacting every 2 s: compaction happens once per
// interval across the replicas (never twice in one interval), and when the replica that has been compacting is killed
// with SIGKILL another one takes over within 15 s. Counted from the replicas' logs and from etcd's own metric.
import { spawn, type ChildProcess } from 'node:child_process';
import { Etcd3 } from 'etcd3';
import { startEtcdCluster, type EtcdCluster } from '../helpers/etcd-cluster';
import { APISERVER_BINARY } from '../helpers/binary-server';
import { eventually } from '../helpers/test-server';

jest.setTimeout(120_000);

const INTERVAL_MS = 2_000;
const OBSERVE_MS = 10_000;
const TAKEOVER_LIMIT_MS = 15_000;

interface Compaction {
  replica: number;
  at: number;
  revision: number;
}

interface Replica {
  child: ChildProcess;
  serving: Promise<void>;
}

let cluster: EtcdCluster | undefined;
let writer: Etcd3 | undefined;
let ticker: NodeJS.Timeout | undefined;
const replicas: Replica[] = [];
const compactions: Compaction[] = [];

function startReplica(index: number, etcdUrls: string[]): Replica {
  const child = spawn(
    process.execPath,
    [
      APISERVER_BINARY,
      '--port=0',
      `--etcd-servers=${etcdUrls.join(',')}`,
      `--etcd-compaction-interval=${INTERVAL_MS / 1000}s`,
      '--logging-format=json',
      '--log-level=info',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let serving: () => void = () => undefined;
  const servingPromise = new Promise<void>((r) => (serving = r));
  let partial = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; time?: number; revision?: number };
      if (entry.msg === 'serving') serving();
      if (entry.msg === 'compacted etcd')
        compactions.push({ replica: index, at: Number(entry.time), revision: Number(entry.revision) });
    }
  });
  child.stderr?.resume();
  return { child, serving: servingPromise };
}

/** etcd's count of compactions a member applied (the histogram of compaction durations counts one per compaction). */
async function etcdCompactionCount(clientUrl: string): Promise<number> {
  const text = await (await fetch(`${clientUrl}/metrics`)).text();
  const line = text
    .split('\n')
    .find((l) => l.startsWith('etcd_debugging_mvcc_db_compaction_total_duration_milliseconds_count'));
  if (!line) throw new Error('etcd exposes no compaction count');
  return Number(line.split(' ')[1]);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

beforeAll(async () => {
  cluster = await startEtcdCluster({ size: 3 });
  const urls = cluster.clientUrls;
  if ((await etcdCompactionCount(urls[0] as string)) !== 0) throw new Error('a new etcd cluster reports compactions');
  for (let i = 0; i < 3; i++) replicas.push(startReplica(i, urls));
  await Promise.race([
    Promise.all(replicas.map((r) => r.serving)),
    sleep(60_000).then(() => Promise.reject(new Error('replicas did not serve within 60 s'))),
  ]);
  // A trickle of writes keeps etcd's revision moving, so that every round has history to compact.
  writer = new Etcd3({ hosts: urls });
  let n = 0;
  ticker = setInterval(
    () =>
      void writer
        ?.put('compaction-test/tick')
        .value(String(n++))
        .catch(() => undefined),
    100,
  );
});

function stopReplicas(): Promise<unknown> {
  return Promise.all(
    replicas.map(
      (r) =>
        new Promise<void>((resolve) => {
          if (r.child.exitCode !== null || r.child.signalCode !== null) return resolve();
          r.child.once('exit', () => resolve());
          r.child.kill('SIGKILL');
        }),
    ),
  );
}

afterAll(async () => {
  if (ticker) clearInterval(ticker);
  writer?.close();
  await stopReplicas();
  await cluster?.stop();
});

describe('compaction across replicas', () => {
  it('compacts once per interval in total, and resumes within 15 s after the compacting replica is killed', async () => {
    const c = cluster as EtcdCluster;
    await eventually(async () => compactions.length >= 2, 20_000, 'two compactions');
    await sleep(OBSERVE_MS);
    const before = compactions.slice();
    const victim = (before[before.length - 1] as Compaction).replica;
    replicas[victim]?.child.kill('SIGKILL');
    const killedAt = Date.now();
    await eventually(
      async () => compactions.some((x) => x.at > killedAt),
      TAKEOVER_LIMIT_MS,
      'a compaction by another replica',
    );
    const takeover = compactions.find((x) => x.at > killedAt) as Compaction;
    const takeoverMs = takeover.at - killedAt;
    await sleep(OBSERVE_MS);
    // Stop every replica, so that no compaction is under way when etcd's count is read.
    await stopReplicas();
    await sleep(500);
    const all = compactions.slice();
    const etcdCount = await etcdCompactionCount(c.clientUrls[0] as string);

    expect(takeover.replica).not.toBe(victim);
    expect(takeoverMs).toBeLessThan(TAKEOVER_LIMIT_MS);
    expect(all.filter((x) => x.at > killedAt).every((x) => x.replica !== victim)).toBe(true);
    // Never two compactions in one interval: successive ones (by whichever replica) are at least most of an interval
    // apart, each to a later revision; and one every interval: apart from the kill, no gap reaches two intervals.
    const gaps = all.slice(1).map((x, i) => ({
      ms: x.at - (all[i] as Compaction).at,
      acrossKill: (all[i] as Compaction).at < killedAt && x.at > killedAt,
    }));
    expect(gaps.filter((g) => g.ms < INTERVAL_MS * 0.75)).toEqual([]);
    expect(gaps.filter((g) => !g.acrossKill && g.ms >= INTERVAL_MS * 2)).toEqual([]);
    expect(all.every((x, i) => i === 0 || x.revision > (all[i - 1] as Compaction).revision)).toBe(true);
    // etcd applied the compactions the replicas logged (it had applied none before they started), and at most one more
    // per SIGKILL (the victim's, the final stop's): a replica killed between sending a compaction and logging it.
    expect(etcdCount).toBeGreaterThanOrEqual(all.length);
    expect(etcdCount).toBeLessThanOrEqual(all.length + 2);
    const byReplica = [0, 1, 2].map((r) => all.filter((x) => x.replica === r).length);
    const ms = gaps.map((g) => g.ms);
    const spanIntervals = ((all[all.length - 1] as Compaction).at - (all[0] as Compaction).at) / INTERVAL_MS;
    console.log(
      `compactions: ${all.length} over ${spanIntervals.toFixed(1)} intervals of ${INTERVAL_MS} ms (by replica ${byReplica.join('/')}; etcd counted ${etcdCount}); gaps ${Math.min(...ms)}–${Math.max(...ms)} ms; compacting replica ${victim} killed, replica ${takeover.replica} compacted ${takeoverMs} ms later`,
    );
  });
});

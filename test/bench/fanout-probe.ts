// The fan-out benchmark's latency decomposition (BENCH_FANOUT_DECOMPOSE=1): in the writers' process, an etcd watch
// on the watched objects' prefix (when etcd hands a write's event to a watcher: what the server's own etcd watch
// sees, give or take its event loop) and one more raw watch opened after the 1,000 (the last socket a flush writes
// to, read by a nearly idle process). With the first and last receipt per write among the watchers' process's
// sockets, each write's delivery splits into etcd, server (timer + writing) and the watchers' own reading.
import type { Socket } from 'node:net';
import type { Etcd3, Watcher } from 'etcd3';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { now, rawWatch } from './raw-watch';

export interface FanOutProbe {
  /** Arrival time of each revision's event at the etcd watch in this process. */
  etcdAt: Map<number, number>;
  /** Receipt time of each revision at the probe watch (the last socket in the server's group). */
  probeAt: Map<number, number>;
  stop(): Promise<void>;
}

export async function startProbe(
  etcdUrl: string,
  etcdPrefix: string,
  port: number,
  path: string,
): Promise<FanOutProbe> {
  const etcdAt = new Map<number, number>();
  const probeAt = new Map<number, number>();
  const client: Etcd3 = newEtcdClient(etcdUrl);
  const watcher: Watcher = await client.watch().prefix(etcdPrefix).create();
  watcher.on('data', (res) => {
    const at = now();
    for (const e of res.events) etcdAt.set(Number(e.kv.mod_revision), at);
  });
  const socket: Socket = await rawWatch(port, path, (rv, at) => void (probeAt.has(rv) || probeAt.set(rv, at)));
  return {
    etcdAt,
    probeAt,
    stop: async () => {
      socket.destroy();
      await watcher.cancel().catch(() => undefined);
      client.close();
    },
  };
}

/** Quantiles of `at(rv) - ackedAt(rv)` over the acknowledged revisions that `at` has. */
function delays(acked: Map<number, number>, at: (rv: number) => number | undefined): number[] {
  const out: number[] = [];
  for (const [rv, ackedAt] of acked) {
    const t = at(rv);
    if (t !== undefined) out.push(t - ackedAt);
  }
  return out.sort((a, b) => a - b);
}

function quantiles(sorted: number[]): string {
  const q = (p: number): string =>
    (sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN).toFixed(1);
  return `p50 ${q(0.5)}, p99 ${q(0.99)}, max ${q(1)} ms (${sorted.length} writes)`;
}

/** One line per stage: from the PATCH's acknowledgment to each point the event passes. */
export function decomposition(
  acked: Map<number, number>,
  probe: FanOutProbe,
  firstAt: Map<number, number>,
  lastAt: Map<number, number>,
): string[] {
  /** etcd's events of the measured writes (not the warm-up's). */
  const etcdAt = new Map([...probe.etcdAt].filter(([rv]) => acked.has(rv)));
  return [
    `ack → etcd watch event (writers' process): ${quantiles(delays(acked, (rv) => probe.etcdAt.get(rv)))}`,
    `ack → first of the 1,000 sockets read (watchers' process): ${quantiles(delays(acked, (rv) => firstAt.get(rv)))}`,
    `ack → last of the 1,000 sockets read (watchers' process): ${quantiles(delays(acked, (rv) => lastAt.get(rv)))}`,
    `ack → probe socket read (writers' process; the group's last socket): ${quantiles(delays(acked, (rv) => probe.probeAt.get(rv)))}`,
    // The commit's own clock: the acknowledgment lags etcd's event by however long the server takes to answer.
    `etcd watch event → first socket read: ${quantiles(delays(etcdAt, (rv) => firstAt.get(rv)))}`,
    `etcd watch event → last socket read: ${quantiles(delays(etcdAt, (rv) => lastAt.get(rv)))}`,
  ];
}

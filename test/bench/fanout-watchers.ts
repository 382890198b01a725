// The fan-out benchmark's watchers, in a process of their own (forked by lists-watch.ts): the writers' process
// timestamps acknowledgments without waiting behind 1,000 sockets' worth of reads, and receipt times here
// include this process's own queueing, as a real client's would. Times are wall-clock ms (timeOrigin + now).
import type { Socket } from 'node:net';
import { rawWatch } from './raw-watch';

export type ParentMessage =
  | { type: 'open'; port: number; path: string; watchers: number }
  | { type: 'finish'; total: number; acked: Array<[number, number]>; waitMs: number }
  | { type: 'cpu' };

export type ChildMessage =
  | { type: 'opened' }
  | { type: 'cpu'; ms: number }
  | {
      type: 'result';
      complete: number;
      delivered: number;
      latencies: { p50: number; p99: number; max: number };
      /** Latencies in 1 ms buckets (the last one holds everything above), to merge several processes' results. */
      histogram: number[];
      max: number;
      /** Per revision: the first and the last receipt time among this process's sockets. */
      spread: Array<[number, number, number]>;
    };

/** The histogram's range: latencies above it count in its last bucket. */
const HISTOGRAM_MS = 60_000;

const sockets: Socket[] = [];
let counts = new Int32Array(0);
/**
 * Receipt times by resourceVersion, one per watcher that received it (`n` so far), in an array allocated once per
 * revision: recording an event allocates nothing, so this process's garbage collection does not delay its reads.
 */
const received = new Map<number, { times: Float64Array; n: number }>();

function send(message: ChildMessage): void {
  process.send?.(message);
}

async function open(port: number, path: string, watchers: number): Promise<void> {
  counts = new Int32Array(watchers);
  for (let w = 0; w < watchers; w++) {
    sockets.push(
      await rawWatch(port, path, (rv, at) => {
        counts[w] = (counts[w] ?? 0) + 1;
        let times = received.get(rv);
        if (times === undefined) received.set(rv, (times = { times: new Float64Array(watchers), n: 0 }));
        if (times.n < watchers) times.times[times.n++] = at;
      }),
    );
  }
  send({ type: 'opened' });
}

async function finish(total: number, acked: Array<[number, number]>, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline && counts.some((c) => c < total)) await new Promise((r) => setTimeout(r, 100));
  for (const s of sockets) s.destroy();
  const ackedAt = new Map(acked);
  const latencies: number[] = [];
  for (const [rv, { times: all, n }] of received) {
    const times = all.subarray(0, n);
    const at = ackedAt.get(rv);
    // A warm-up write's event (not measured).
    if (at === undefined) continue;
    for (const t of times) latencies.push(Math.max(0, t - at));
  }
  latencies.sort((a, b) => a - b);
  const q = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))] ?? NaN;
  const histogram: number[] = [];
  for (const ms of latencies) {
    const bucket = Math.min(HISTOGRAM_MS, Math.floor(ms));
    histogram[bucket] = (histogram[bucket] ?? 0) + 1;
  }
  for (let i = 0; i < histogram.length; i++) histogram[i] ??= 0;
  const spread: Array<[number, number, number]> = [];
  for (const [rv, { times, n }] of received) {
    const got = times.subarray(0, n);
    spread.push([rv, got.reduce((a, b) => Math.min(a, b), Infinity), got.reduce((a, b) => Math.max(a, b), -Infinity)]);
  }
  send({
    type: 'result',
    complete: counts.filter((c) => c === total).length,
    delivered: latencies.length,
    latencies: { p50: q(0.5), p99: q(0.99), max: q(1) },
    histogram,
    max: latencies.length === 0 ? NaN : q(1),
    spread,
  });
}

process.on('message', (message: ParentMessage) => {
  if (message.type === 'open') void open(message.port, message.path, message.watchers);
  else if (message.type === 'cpu') {
    const usage = process.cpuUsage();
    send({ type: 'cpu', ms: (usage.user + usage.system) / 1000 });
  } else void finish(message.total, message.acked, message.waitMs).then(() => process.exit(0));
});

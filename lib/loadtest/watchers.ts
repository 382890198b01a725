// Long-running watches over the run's objects: every acknowledged write should arrive as an event; the delivery
// lag is the time from the writer's acknowledgment to the event's arrival (0 when the event came first).
import type { ApiClient } from './client';
import { Histogram, percentilesOf, type HistogramJson, type Percentiles } from './histogram';
import { KIND_INFO, RUN_LABEL, collectionPath } from './objects';
import type { KindName } from './profile';

interface Watcher {
  kind: KindName;
  startRv: number;
  lastRv: number;
  received: Map<number, number>;
  reconnects: number;
  errors: string[];
  stop: () => void;
  stopped: boolean;
  loop: Promise<void>;
}

export interface WatchSummary extends Percentiles {
  watchers: number;
  /** Events the watchers should have received (writes acknowledged after each watch started, per watcher). */
  expectedEvents: number;
  receivedEvents: number;
  missedEvents: number;
  reconnects: number;
  errors: string[];
  histogram: HistogramJson;
  /** Per second of the measured phase (by acknowledgment time): lag p50/p99. */
  timeline: Array<{ t: number; count: number; p50: number; p99: number }>;
}

export class WatchTracker {
  private readonly acks = new Map<KindName, Map<number, number>>();
  private readonly watchers: Watcher[] = [];

  constructor(
    private readonly client: ApiClient,
    private readonly runId: string,
    private readonly now: () => number,
  ) {}

  onAck = (kind: KindName, resourceVersion: string, ackAt: number): void => {
    const rv = Number(resourceVersion);
    if (!Number.isFinite(rv)) return;
    let m = this.acks.get(kind);
    if (!m) this.acks.set(kind, (m = new Map()));
    m.set(rv, ackAt);
  };

  /** Starts `count` watches spread over the kinds (cluster-wide, selecting this run's objects). */
  async start(kinds: KindName[], count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const kind = kinds[i % kinds.length]!;
      const path = `${collectionPath(KIND_INFO[kind])}?labelSelector=${encodeURIComponent(`${RUN_LABEL}=${this.runId}`)}`;
      const rv = await this.currentResourceVersion(path);
      const w: Watcher = {
        kind,
        startRv: rv,
        lastRv: rv,
        received: new Map(),
        reconnects: 0,
        errors: [],
        stop: () => undefined,
        stopped: false,
        loop: Promise.resolve(),
      };
      w.loop = this.run(w, path);
      this.watchers.push(w);
    }
  }

  private async currentResourceVersion(path: string): Promise<number> {
    const list = await this.client.request('GET', `${path}&limit=1`, { timeoutMs: 30_000 });
    if (list.status !== 200)
      throw new Error(`watch setup: LIST ${path} answered ${list.error ?? list.status}: ${list.body.slice(0, 300)}`);
    return Number((JSON.parse(list.body) as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion);
  }

  private async run(w: Watcher, path: string): Promise<void> {
    while (!w.stopped) {
      let expired = false;
      const stream = this.client.watch(`${path}&watch=1&resourceVersion=${w.lastRv}`, (event, receivedAt) => {
        if (event['type'] === 'ERROR') {
          // Typically 410 Expired: the resourceVersion left the server's window; events in between are missed.
          const st = event['object'] as { code?: number; message?: string } | undefined;
          if (w.errors.length < 10) w.errors.push(`ERROR event ${st?.code ?? ''} ${st?.message ?? ''}`.trim());
          expired = true;
          stream.abort();
          return;
        }
        const obj = event['object'] as { metadata?: { resourceVersion?: string } } | undefined;
        const rv = Number(obj?.metadata?.resourceVersion);
        if (!Number.isFinite(rv) || event['type'] === 'BOOKMARK') return;
        if (!w.received.has(rv)) w.received.set(rv, receivedAt);
        if (rv > w.lastRv) w.lastRv = rv;
      });
      w.stop = stream.abort;
      if (w.stopped) stream.abort();
      const end = await stream.done;
      if (w.stopped) return;
      // The server closed the watch (its timeout) or it failed: resume from the last event seen, or list again.
      w.reconnects += 1;
      if (end.status !== 200 || end.error) {
        if (w.errors.length < 10) w.errors.push(`${end.error ?? end.status} ${end.body.slice(0, 200)}`.trim());
        if (end.status === 410) expired = true;
        await new Promise((r) => setTimeout(r, 200));
      }
      if (expired) w.lastRv = await this.currentResourceVersion(path).catch(() => w.lastRv);
    }
  }

  /** Waits up to graceMs for outstanding events, then closes every watch. */
  async stop(graceMs: number): Promise<void> {
    const deadline = this.now() + graceMs;
    while (this.now() < deadline && this.missing() > 0) await new Promise((r) => setTimeout(r, 50));
    for (const w of this.watchers) {
      w.stopped = true;
      w.stop();
    }
    await Promise.all(this.watchers.map((w) => w.loop));
  }

  private missing(): number {
    let n = 0;
    for (const w of this.watchers) {
      for (const rv of this.acks.get(w.kind)?.keys() ?? []) if (rv > w.startRv && !w.received.has(rv)) n += 1;
    }
    return n;
  }

  summary(measureStart: number): WatchSummary {
    const all = new Histogram();
    const perSecond = new Map<number, Histogram>();
    let expected = 0;
    let received = 0;
    for (const w of this.watchers) {
      for (const [rv, ackAt] of this.acks.get(w.kind) ?? []) {
        if (rv <= w.startRv) continue;
        expected += 1;
        const at = w.received.get(rv);
        if (at === undefined) continue;
        received += 1;
        if (ackAt < measureStart) continue;
        const lag = Math.max(0, at - ackAt);
        all.recordMs(lag);
        const second = Math.floor((ackAt - measureStart) / 1000);
        let h = perSecond.get(second);
        if (!h) perSecond.set(second, (h = new Histogram()));
        h.recordMs(lag);
      }
    }
    return {
      watchers: this.watchers.length,
      expectedEvents: expected,
      receivedEvents: received,
      missedEvents: expected - received,
      reconnects: this.watchers.reduce((a, w) => a + w.reconnects, 0),
      errors: this.watchers.flatMap((w) => w.errors).slice(0, 10),
      ...percentilesOf(all),
      histogram: all.toJSON(),
      timeline: [...perSecond.entries()]
        .sort((a, b) => a[0] - b[0])
        .map(([t, h]) => {
          const p = percentilesOf(h);
          return { t, count: h.count, p50: p.p50, p99: p.p99 };
        }),
    };
  }
}

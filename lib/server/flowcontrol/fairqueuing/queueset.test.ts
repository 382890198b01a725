import { QueueSet, type Clock, type QueuingConfig } from './queueset';
import { FqRequest, type WorkEstimate } from './request';
import { dealHand, hashFlow } from './shuffle-sharding';
import { seededRandom } from '../../../../test/helpers/seeded-random';

/** A clock moved by hand; timers fire when it passes them (stale ones are ignored by the queue set). */
class FakeClock implements Clock {
  ms = 1000;
  timers: Array<{ at: number; fn: () => void }> = [];
  now = (): number => this.ms;
  after = (ms: number, fn: () => void): NodeJS.Timeout => {
    this.timers.push({ at: this.ms + ms, fn });
    return {} as NodeJS.Timeout;
  };
  advance(ms: number): void {
    this.ms += ms;
    const due = this.timers.filter((t) => t.at <= this.ms);
    this.timers = this.timers.filter((t) => t.at > this.ms);
    for (const t of due) t.fn();
  }
}

const ONE: WorkEstimate = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
const config = (over: Partial<QueuingConfig> = {}): QueuingConfig => ({
  queues: 64,
  handSize: 6,
  queueLengthLimit: 50,
  requestWaitLimitMs: 15_000,
  ...over,
});

function request(flow: string, work: WorkEstimate = ONE, onDispatch?: (r: FqRequest) => void): FqRequest {
  const req = new FqRequest(flow, '', work);
  req.onDecision = (ok) => {
    if (ok) onDispatch?.(req);
  };
  return req;
}

describe('shuffle sharding', () => {
  it('deals the mixed-radix digits of the hash, skipping cards already dealt', () => {
    expect(dealHand(0n, 10, 4)).toEqual([0, 1, 2, 3]);
    // 5 = 1 + 4 × 1: digit 1 mod 4, then 1 mod 3 → card 1 shifted past the 1 already dealt.
    expect(dealHand(5n, 4, 2)).toEqual([1, 2]);
  });

  it('gives each flow a fixed hand of distinct queues, spread evenly over the deck (seeded)', () => {
    const random = seededRandom(20261126);
    const counts = new Array<number>(64).fill(0);
    for (let i = 0; i < 4000; i++) {
      const flow = `flow-${Math.floor(random() * 1e9)}`;
      const hand = dealHand(hashFlow('fs', flow), 64, 6);
      expect(new Set(hand).size).toBe(6);
      expect(hand.every((c) => c >= 0 && c < 64)).toBe(true);
      expect(dealHand(hashFlow('fs', flow), 64, 6)).toEqual(hand);
      for (const c of hand) counts[c] = (counts[c] ?? 0) + 1;
    }
    // 24,000 cards over 64 queues: 375 each on average.
    expect(Math.min(...counts)).toBeGreaterThan(300);
    expect(Math.max(...counts)).toBeLessThan(450);
  });

  it('hashes the flow schema and the distinguisher separately', () => {
    expect(hashFlow('ab', 'c')).not.toBe(hashFlow('a', 'bc'));
    expect(hashFlow('fs', 'alice')).toBe(hashFlow('fs', 'alice'));
  });
});

describe('QueueSet', () => {
  it('dispatches at once while seats are free, then queues', () => {
    const clock = new FakeClock();
    const qs = new QueueSet(config(), 2, clock);
    expect(qs.start(request('a'))).toBe('executing');
    expect(qs.start(request('a'))).toBe('executing');
    expect(qs.start(request('a'))).toBe('waiting');
    expect(qs.totSeatsInUse).toBe(2);
    expect(qs.totRequestsWaiting).toBe(1);
  });

  it('takes turns between flows by virtual finish time, not by arrival', () => {
    const clock = new FakeClock();
    const qs = new QueueSet(config({ queues: 128, handSize: 1 }), 1, clock);
    const order: string[] = [];
    const running: FqRequest[] = [];
    const first = request('heavy');
    expect(qs.start(first)).toBe('executing');
    running.push(first);
    for (let i = 0; i < 6; i++) qs.start(request('heavy', ONE, (r) => running.push(r)));
    for (let i = 0; i < 3; i++) qs.start(request('light', ONE, (r) => running.push(r)));
    while (running.length > 0) {
      const r = running.shift() as FqRequest;
      clock.advance(3);
      order.push(r.flowSchema);
      qs.finish(r);
    }
    // The first heavy request ran already, so the light flow's queue is due first; then they alternate.
    expect(order).toEqual(['heavy', 'light', 'heavy', 'light', 'heavy', 'light', 'heavy', 'heavy', 'heavy', 'heavy']);
  });

  it('advances virtual time at min(seats asked, limit) / active queues', () => {
    const clock = new FakeClock();
    const qs = new QueueSet(config({ queues: 128, handSize: 1 }), 10, clock);
    qs.start(request('a'));
    clock.advance(1000);
    qs.start(request('a'));
    // One active queue using 1 seat for 1 s.
    expect(qs.currentR).toBeCloseTo(1, 6);
    qs.start(request('b'));
    clock.advance(1000);
    qs.start(request('c'));
    // Two active queues, 3 seats in use: 3 / 2 per second.
    expect(qs.currentR).toBeCloseTo(2.5, 6);
  });

  it('rejects with queue-full when the seats are taken and the dealt queue is at its length limit', () => {
    const clock = new FakeClock();
    const qs = new QueueSet(config({ queues: 1, handSize: 1, queueLengthLimit: 2 }), 1, clock);
    expect(qs.start(request('a'))).toBe('executing');
    expect(qs.start(request('a'))).toBe('waiting');
    expect(qs.start(request('a'))).toBe('waiting');
    expect(qs.start(request('a'))).toBe('queue-full');
  });

  it('without queues (Reject) rejects with concurrency-limit at the limit', () => {
    const qs = new QueueSet(config({ queues: 0 }), 1, new FakeClock());
    const first = request('a');
    expect(qs.start(first)).toBe('executing');
    expect(qs.start(request('a'))).toBe('concurrency-limit');
    qs.finish(first);
    expect(qs.start(request('a'))).toBe('executing');
  });

  it('rejects a request that waited past the wait limit with time-out', () => {
    const clock = new FakeClock();
    const qs = new QueueSet(config({ requestWaitLimitMs: 100 }), 1, clock);
    qs.start(request('a'));
    const waiting = new FqRequest('a', '', ONE);
    expect(qs.start(waiting)).toBe('waiting');
    const decisions: boolean[] = [];
    waiting.onDecision = (ok) => decisions.push(ok);
    clock.advance(150);
    expect(decisions).toEqual([false]);
    expect(waiting.rejectReason).toBe('time-out');
    expect(qs.totRequestsWaiting).toBe(0);
  });

  it('lets a request wider than the limit run alone, and keeps final seats for the additional latency', () => {
    const clock = new FakeClock();
    const qs = new QueueSet(config(), 4, clock);
    const wide = request('a', { initialSeats: 10, finalSeats: 0, additionalLatencyMs: 0 });
    expect(qs.start(wide)).toBe('executing');
    const dispatched: FqRequest[] = [];
    const write = request('b', { initialSeats: 1, finalSeats: 3, additionalLatencyMs: 5 }, (r) => dispatched.push(r));
    expect(qs.start(write)).toBe('waiting');
    qs.finish(wide);
    expect(dispatched).toEqual([write]);
    expect(qs.totSeatsInUse).toBe(3);
    qs.finish(write);
    expect(qs.totSeatsInUse).toBe(3); // lingering
    clock.advance(5);
    expect(qs.totSeatsInUse).toBe(0);
  });

  it('keeps waiting requests across a reconfiguration that removes queues', () => {
    const clock = new FakeClock();
    const qs = new QueueSet(config({ queues: 8, handSize: 2 }), 1, clock);
    const dispatched: FqRequest[] = [];
    const first = request('a');
    qs.start(first);
    for (let i = 0; i < 5; i++) qs.start(request(`f${i}`, ONE, (r) => dispatched.push(r)));
    qs.setConfig(config({ queues: 1, handSize: 1 }));
    expect(qs.totRequestsWaiting).toBe(5);
    qs.finish(first);
    while (dispatched.length < 5) qs.finish(dispatched[dispatched.length - 1] as FqRequest);
    expect(qs.totRequestsWaiting).toBe(0);
    qs.finish(dispatched[4] as FqRequest);
    expect(qs.idle).toBe(true);
    expect(qs.queues.length).toBe(1);
  });

  it('cancels a waiting request whose client left', () => {
    const qs = new QueueSet(config(), 1, new FakeClock());
    qs.start(request('a'));
    const waiting = new FqRequest('a', '', ONE);
    qs.start(waiting);
    const decisions: boolean[] = [];
    waiting.onDecision = (ok) => decisions.push(ok);
    qs.cancel(waiting);
    expect(decisions).toEqual([false]);
    expect(waiting.rejectReason).toBe('cancelled');
    expect(qs.totRequestsWaiting).toBe(0);
  });
});

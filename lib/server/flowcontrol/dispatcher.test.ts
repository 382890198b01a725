import { computeConcurrencyAllocation } from './borrowing';
import { Dispatcher } from './dispatcher';
import { compileClassifier } from './classifier';
import { FqRequest } from './fairqueuing/request';
import { bootstrapFlowSchemas, bootstrapPriorityLevels } from './testing/bootstrap-config';
import { dumpPriorityLevels, dumpQueues, goDuration, tabulate } from './debug-dump';

/** Real time, with timers that do not keep the test process alive. */
const clock = { now: () => performance.now(), after: (ms: number, fn: () => void) => setTimeout(fn, ms).unref() };
const ONE = { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };

function level(name: string, shares: number, lendablePercent: number, extra: Record<string, unknown> = {}) {
  return {
    apiVersion: 'flowcontrol.apiserver.k8s.io/v1beta3',
    kind: 'PriorityLevelConfiguration',
    metadata: { name, uid: `uid-${name}` },
    spec: {
      type: 'Limited',
      limited: {
        nominalConcurrencyShares: shares,
        lendablePercent,
        limitResponse: { type: 'Queue', queuing: { queues: 8, handSize: 2, queueLengthLimit: 50 } },
        ...extra,
      },
    },
  };
}

describe('concurrency allocation', () => {
  it('finds one fair proportion so the levels sum to the total within their bounds', () => {
    const { allocs } = computeConcurrencyAllocation(100, [
      { lowerBound: 10, upperBound: 100, target: 80 },
      { lowerBound: 10, upperBound: 100, target: 20 },
      { lowerBound: 5, upperBound: 5, target: 50 },
    ]);
    expect(allocs.reduce((a, b) => a + b, 0)).toBeCloseTo(100, 6);
    expect(allocs[2]).toBe(5);
    expect(allocs[0] as number).toBeCloseTo(76, 6);
    expect(allocs[1] as number).toBeCloseTo(19, 6);
  });

  it('returns the lower bounds when they already exceed the total', () => {
    expect(
      computeConcurrencyAllocation(10, [
        { lowerBound: 8, upperBound: 20, target: 8 },
        { lowerBound: 8, upperBound: 20, target: 8 },
      ]).allocs,
    ).toEqual([8, 8]);
  });
});

describe('Dispatcher', () => {
  it('derives nominal, lower and upper limits from shares and percentages (1.26 formulas)', () => {
    const d = new Dispatcher({ serverConcurrencyLimit: 600, requestWaitLimitMs: 15_000 });
    d.configure(bootstrapPriorityLevels());
    const byName = new Map(d.levels().map((l) => [l.name, l]));
    // Shares: leader-election 10, node-high 40, system 30, workload-high 40, workload-low 100, global-default 20, catch-all 5 = 245.
    expect(byName.get('workload-low')?.nominalCL).toBe(Math.ceil((600 * 100) / 245));
    expect(byName.get('workload-low')?.minCL).toBe(245 - Math.round((245 * 90) / 100));
    expect(byName.get('global-default')?.nominalCL).toBe(49);
    expect(byName.get('catch-all')?.nominalCL).toBe(13);
    expect(byName.get('exempt')?.queues).toBeUndefined();
    const sum = d.levels().reduce((s, l) => s + l.currentCL, 0);
    expect(sum).toBeGreaterThanOrEqual(600);
    expect(sum).toBeLessThanOrEqual(607);
  });

  it('lends idle seats to a busy level at the next re-allocation', () => {
    const d = new Dispatcher({ serverConcurrencyLimit: 20, requestWaitLimitMs: 15_000, clock });
    d.configure([level('busy', 1, 50), level('idle', 1, 50)]);
    const classifier = compileClassifier([], []);
    const busy = (name: string) => ({
      ...classifier.classify({
        user: { name: 'u', groups: [] },
        info: { isResourceRequest: false, path: '/', verb: 'get' },
      }),
      priorityLevel: { name, uid: '' },
      distinguisher: name,
    });
    const before = d.levels().find((l) => l.name === 'busy')?.currentCL ?? 0;
    for (let i = 0; i < 40; i++) d.admit(busy('busy'), ONE);
    d.reallocate();
    const after = d.levels().find((l) => l.name === 'busy')?.currentCL ?? 0;
    expect(after).toBeGreaterThan(before);
    const idle = d.levels().find((l) => l.name === 'idle');
    expect(idle?.currentCL).toBeLessThan(idle?.nominalCL ?? 0); // it lent seats
    expect(idle?.currentCL).toBeGreaterThanOrEqual(idle?.minCL ?? Infinity);
  });

  it('keeps queued requests when the level is reconfigured, and quiesces a deleted level until it drains', () => {
    // Shares 1 of 6 (catch-all has 5): 2 seats of 12.
    const d = new Dispatcher({ serverConcurrencyLimit: 12, requestWaitLimitMs: 15_000, clock });
    d.configure([level('only', 1, 0)]);
    const c = { flowSchema: { name: 'fs', uid: '' }, priorityLevel: { name: 'only', uid: '' }, distinguisher: '' };
    const tickets = Array.from({ length: 5 }, () => d.admit(c, ONE));
    expect(tickets.filter((t) => t instanceof FqRequest && t.state === 'waiting')).toHaveLength(3);
    d.configure([
      level('only', 1, 0, {
        limitResponse: { type: 'Queue', queuing: { queues: 2, handSize: 1, queueLengthLimit: 10 } },
      }),
    ]);
    expect(tickets.filter((t) => t instanceof FqRequest && t.state === 'waiting')).toHaveLength(3);
    d.configure([]);
    expect(dumpPriorityLevels(d)).toMatch(/only,\s+\d+,\s+false,\s+true,\s+3,\s+2/);
    for (let round = 0; round < 5; round++)
      for (const t of tickets) if (t instanceof FqRequest && t.state === 'executing') d.finish(t);
    expect(
      d
        .levels()
        .map((l) => l.name)
        .sort(),
    ).toEqual(['catch-all', 'exempt']);
  });

  it('dumps levels and queues as Go tabwriter tables', () => {
    const d = new Dispatcher({ serverConcurrencyLimit: 600, requestWaitLimitMs: 15_000 });
    d.configure(bootstrapPriorityLevels());
    const levels = dumpPriorityLevels(d).split('\n');
    expect(levels[0]).toBe('PriorityLevelName, ActiveQueues, IsIdle, IsQuiescing, WaitingRequests, ExecutingRequests');
    expect(levels).toContain('exempt,            <none>,       <none>, <none>,      <none>,          <none>');
    expect(levels).toContain('global-default,    0,            true,   false,       0,               0');
    const queues = dumpQueues(d);
    expect(queues.split('\n')[0]).toBe(
      'PriorityLevelName, Index,  PendingRequests, ExecutingRequests, SeatsInUse, NextDispatchR, InitialSeatsSum, MaxSeatsSum, TotalWorkSum',
    );
    expect(queues).toContain(
      'workload-low,      127,    0,               0,                 0,          0.00000000ss,  0,               0,           0.00000000ss',
    );
    expect(queues).not.toContain('catch-all,'); // a Reject level has no queues
    expect(
      tabulate([
        ['a', 'b'],
        ['ccccccccc', 'd'],
      ]),
    ).toBe('a,         b\nccccccccc, d\n');
    expect(goDuration(0)).toBe('0s');
    expect(goDuration(5)).toBe('5ms');
    expect(goDuration(5 / 3)).toBe('1.666667ms');
    expect(bootstrapFlowSchemas().length).toBeGreaterThan(0);
  });
});

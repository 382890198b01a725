import { rateLimited, type HealthCheck } from './healthz';

/** A check whose calls are counted and settled by the test. */
function controlled(): {
  check: HealthCheck;
  calls: number;
  settle: (err?: Error) => void;
  settleCall: (index: number, err?: Error) => void;
} {
  const pending: Array<((err?: Error) => void) | undefined> = [];
  const state = {
    calls: 0,
    /** Settles the oldest call not settled yet. */
    settle: (err?: Error) => state.settleCall(pending.findIndex(Boolean), err),
    settleCall: (index: number, err?: Error) => {
      const settle = pending[index];
      pending[index] = undefined;
      settle?.(err);
    },
    check: {
      name: 'etcd',
      check: () =>
        new Promise<void>((resolve, reject) => {
          state.calls++;
          pending.push((err) => (err ? reject(err) : resolve()));
        }),
    },
  };
  return state;
}

const settled = (p: Promise<void>): Promise<string> =>
  p.then(
    () => 'ok',
    (err: unknown) => (err instanceof Error ? err.message : String(err)),
  );

describe('rateLimited health check (kube-apiserver etcd check: one request per half its timeout)', () => {
  it('calls the inner check at most once per interval; checks in between get the last outcome at once', async () => {
    let now = 0;
    const inner = controlled();
    const limited = rateLimited(inner.check, 1000, new Error('not yet established'), () => now);
    expect(limited.name).toBe('etcd');

    const first = settled(limited.check());
    // While the first call is in flight, no outcome exists yet: the initial error.
    now = 10;
    expect(await settled(limited.check())).toBe('not yet established');
    inner.settle();
    expect(await first).toBe('ok');
    now = 500;
    expect(await settled(limited.check())).toBe('ok');
    expect(inner.calls).toBe(1);

    // Past the interval: a new call, whose failure the next checks report until the following call.
    now = 1000;
    const second = settled(limited.check());
    expect(inner.calls).toBe(2);
    inner.settle(new Error('etcd down'));
    expect(await second).toBe('etcd down');
    now = 1999;
    expect(await settled(limited.check())).toBe('etcd down');
    expect(inner.calls).toBe(2);
  });

  it('keeps the outcome of the call sent last when an older call settles later', async () => {
    let now = 0;
    const inner = controlled();
    const limited = rateLimited(inner.check, 1000, new Error('initial'), () => now);
    const slow = settled(limited.check()); // sent at 0
    now = 1000;
    const fast = settled(limited.check()); // sent at 1000
    // The outcomes arrive in reverse: the call sent at 1000 succeeds, then the one sent at 0 fails (timed out).
    inner.settleCall(1);
    expect(await fast).toBe('ok');
    inner.settleCall(0, new Error('timed out'));
    expect(await slow).toBe('timed out');
    now = 1500;
    expect(await settled(limited.check())).toBe('ok');
    expect(inner.calls).toBe(2);
  });
});

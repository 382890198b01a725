import { castGrpcError } from 'etcd3';
import { MemberHealth, MemberPolicy, NotSentRetryPolicy } from './fault-handling';
import { MemberSkippedError } from './etcd-errors';

const noConnection = (): Error =>
  castGrpcError(Object.assign(new Error('14 UNAVAILABLE: No connection established'), { code: 14 }));
const timedOut = (): Error =>
  castGrpcError(Object.assign(new Error('14 UNAVAILABLE: etcdserver: request timed out'), { code: 14 }));
const dropped = (): Error =>
  castGrpcError(Object.assign(new Error('14 UNAVAILABLE: Connection dropped'), { code: 14 }));

describe('member health', () => {
  it('skips a failed member only while another is not backing off, and forgets on success', async () => {
    const health = new MemberHealth(['a', 'b']);
    const a = new MemberPolicy(health, 'a');
    await expect(a.execute(() => Promise.reject(noConnection()))).rejects.toThrow('No connection established');
    await expect(a.execute(() => 'never called')).rejects.toBeInstanceOf(MemberSkippedError);
    health.failed('b');
    // Every member backing off: none is refused.
    await expect(a.execute(() => 'ok')).resolves.toBe('ok');
    expect(health.backingOff('a')).toBe(false);
  });

  it('does not hold etcd answering "timed out" against a live member', async () => {
    const health = new MemberHealth(['a', 'b']);
    const a = new MemberPolicy(health, 'a');
    for (let i = 0; i < 5; i++) await expect(a.execute(() => Promise.reject(timedOut()))).rejects.toThrow('timed out');
    expect(health.backingOff('a')).toBe(false);
  });

  it('backs off a member longer after each failure, capped at 2 s', () => {
    const health = new MemberHealth(['a', 'b']);
    for (let i = 0; i < 10; i++) health.failed('a', 0);
    expect(health.backingOff('a', 1999)).toBe(true);
    expect(health.backingOff('a', 2000)).toBe(false);
  });
});

describe('retrying calls that were not sent', () => {
  it('retries a call that never reached etcd, and never one that may have', async () => {
    const policy = new NotSentRetryPolicy(new MemberHealth(['a', 'b']));
    let calls = 0;
    await expect(
      policy.execute(() => (++calls < 3 ? Promise.reject(noConnection()) : Promise.resolve('done'))),
    ).resolves.toBe('done');
    expect(calls).toBe(3);
    calls = 0;
    await expect(policy.execute(() => (++calls, Promise.reject(dropped())))).rejects.toThrow('Connection dropped');
    expect(calls).toBe(1);
    calls = 0;
    await expect(policy.execute(() => (++calls, Promise.reject(timedOut())))).rejects.toThrow('timed out');
    expect(calls).toBe(1);
  });

  it('gives up within its budget, and at once when etcd has been down for a while', async () => {
    const health = new MemberHealth(['a']);
    const policy = new NotSentRetryPolicy(health, 200);
    const started = Date.now();
    await expect(policy.execute(() => Promise.reject(noConnection()))).rejects.toThrow('No connection established');
    expect(Date.now() - started).toBeLessThan(1000);
    health.failed('a', Date.now() - 10_000);
    let calls = 0;
    await expect(
      new NotSentRetryPolicy(health).execute(() => (++calls, Promise.reject(noConnection()))),
    ).rejects.toThrow();
    expect(calls).toBe(1);
  });
});

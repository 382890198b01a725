import { reportEtcdFailure, setEtcdFailureLogger } from './failure-log';

describe('etcd failure log', () => {
  const lines: Array<{ fields: Record<string, unknown>; msg: string }> = [];
  beforeAll(() => {
    jest.useFakeTimers();
    setEtcdFailureLogger({
      warn: ((fields: Record<string, unknown>, msg: string) => lines.push({ fields, msg })) as never,
    });
  });
  afterAll(() => {
    setEtcdFailureLogger(undefined);
    jest.useRealTimers();
  });

  it('writes one line per failure class per second, then the count of the rest, without stacks', () => {
    const now = Date.now();
    for (let i = 0; i < 270; i++) reportEtcdFailure('not-sent', 'etcdserver: no leader', now + i);
    reportEtcdFailure('timeout', 'etcdserver: request timed out', now + 5);
    expect(lines).toEqual([
      { fields: { failure: 'not-sent', error: 'etcdserver: no leader' }, msg: 'etcd request failed' },
      { fields: { failure: 'timeout', error: 'etcdserver: request timed out' }, msg: 'etcd request failed' },
    ]);
    jest.advanceTimersByTime(1000);
    expect(lines.slice(2)).toEqual([
      {
        fields: { failure: 'not-sent', error: 'etcdserver: no leader', count: 269 },
        msg: 'etcd requests failed in the last second',
      },
    ]);
    expect(JSON.stringify(lines)).not.toContain('stack');
  });
});

// SharedRevisionRead: every caller is answered by a read started after it called; the callers of one event-loop turn
// share a read; at most maxInFlight reads are in flight.
import { SharedRevisionRead } from './shared-revision-read';

/** A revision source whose reads answer when the test says so; each read's answer is its start order (1, 2, …). */
function controlledReads(): { started: number; answer(n: number, err?: Error): void; read: () => Promise<number> } {
  const pending = new Map<number, { resolve: (v: number) => void; reject: (e: Error) => void }>();
  const source = {
    started: 0,
    answer(n: number, err?: Error) {
      const p = pending.get(n);
      if (!p) throw new Error(`read ${n} not in flight`);
      pending.delete(n);
      if (err) p.reject(err);
      else p.resolve(n);
    },
    read: () =>
      new Promise<number>((resolve, reject) => {
        source.started++;
        pending.set(source.started, { resolve, reject });
      }),
  };
  return source;
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SharedRevisionRead', () => {
  it('shares one read among the callers of one turn, started after they called', async () => {
    const source = controlledReads();
    const shared = new SharedRevisionRead(source.read, 2);
    const a = shared.read();
    const b = shared.read();
    expect(source.started).toBe(0);
    await turn();
    expect(source.started).toBe(1);
    source.answer(1);
    expect(await a).toBe(1);
    expect(await b).toBe(1);
  });

  it('starts a new read for a caller that came while one is in flight, without waiting for it', async () => {
    const source = controlledReads();
    const shared = new SharedRevisionRead(source.read, 2);
    const first = shared.read();
    await turn();
    const second = shared.read();
    await turn();
    expect(source.started).toBe(2);
    source.answer(2);
    expect(await second).toBe(2);
    source.answer(1);
    expect(await first).toBe(1);
  });

  it('holds callers beyond maxInFlight reads until one answers, then starts one read for all of them', async () => {
    const source = controlledReads();
    const shared = new SharedRevisionRead(source.read, 2);
    const reads = [shared.read()];
    await turn();
    reads.push(shared.read());
    await turn();
    const held = [shared.read(), shared.read()];
    await turn();
    await turn();
    expect(source.started).toBe(2);
    source.answer(1);
    await turn();
    expect(source.started).toBe(3);
    source.answer(3);
    source.answer(2);
    expect(await Promise.all([...reads, ...held])).toEqual([1, 2, 3, 3]);
  });

  it('fails the callers of a failed read only; the next caller gets a new read', async () => {
    const source = controlledReads();
    const shared = new SharedRevisionRead(source.read, 2);
    const failed = shared.read();
    await turn();
    source.answer(1, new Error('etcd down'));
    await expect(failed).rejects.toThrow('etcd down');
    const next = shared.read();
    await turn();
    source.answer(2);
    expect(await next).toBe(2);
  });
});

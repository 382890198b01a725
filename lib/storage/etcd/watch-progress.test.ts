import type { IWatchResponse } from 'etcd3';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { newEtcdClient } from './client';
import { answersInOrder, watchProgressOf } from './watch-progress';
import { watchChanges } from './change-watcher';

const shared = useTestEtcd();

async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('answersInOrder', () => {
  it.each([
    ['3.4.23', false],
    ['3.4.30', false],
    ['3.4.31', true],
    ['3.5.12', false],
    ['3.5.13', true],
    ['3.6.0', true],
    ['4.0.0', true],
    ['2.3.8', false],
    ['unknown', false],
  ])('etcd %s: %s', (version, expected) => {
    expect(answersInOrder(version)).toBe(expected);
  });
});

describe('progress requests on the shared watch stream (real etcd)', () => {
  it("are answered on the test etcd, but the answer can claim a revision whose events a watch has not received, so this version's answers are never applied", async () => {
    const client = newEtcdClient(shared.etcd().clientUrl);
    try {
      const { version } = await client.maintenance.status();
      const progress = watchProgressOf(client);
      if (progress === undefined) throw new Error('no progress requester on the client');
      const atAnswer: number[] = [];
      const sinkProgress: number[] = [];
      // Whether the answer overtakes the events depends on etcd's background catch-up: up to three tries.
      for (let attempt = 0; attempt < 3 && !atAnswer.some((n) => n < 200); attempt++) {
        const prefix = `/progress-test/${Date.now()}-${attempt}/`;
        const filler = 'x'.repeat(32 * 1024);
        let last = 0;
        for (let i = 0; i < 200; i++) {
          const value = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `c${i}` }, filler });
          last = Number((await client.put(`${prefix}${i}`).value(value)).header.revision);
        }
        // A watch from the first of those writes: etcd catches it up in the background (an unsynced watcher).
        let received = 0;
        const answersBefore = progress.answers;
        const handle = await watchChanges(client, prefix, last - 200, {
          changes: (batch) => (received += batch.length),
          progress: (revision) => sinkProgress.push(revision),
          error: (err) => {
            throw err;
          },
        });
        try {
          expect(progress.requestUntrusted()).toBe(true);
          await until(() => progress.answers > answersBefore);
          atAnswer.push(received);
          expect(progress.lastAnswer).toBeGreaterThanOrEqual(last);
          await until(() => received === 200);
        } finally {
          await handle.cancel();
        }
      }
      if (answersInOrder(version)) {
        // Newer etcd: answers only once every watcher is synced, after the events.
        expect(atAnswer.every((n) => n === 200)).toBe(true);
      } else {
        // etcd before 3.4.31 / 3.5.13: the answer (the store's revision) came before the watch had its events ...
        expect(atAnswer.some((n) => n < 200)).toBe(true);
        // ... so it reaches no watch, and request() says no answer will be applied.
        expect(sinkProgress).toEqual([]);
        expect(progress.request()).toBe(false);
      }
    } finally {
      client.close();
    }
  });

  it('leave the watches on the stream working (etcd3 never sees an answer for a watch it does not know)', async () => {
    const client = newEtcdClient(shared.etcd().clientUrl);
    try {
      const prefix = `/progress-live/${Date.now()}/`;
      const progress = watchProgressOf(client);
      const seen: string[] = [];
      const watcher = await client.watch().prefix(prefix).create();
      watcher.on('data', (res: IWatchResponse) => seen.push(...res.events.map((e) => e.kv.key.toString())));
      for (let i = 0; i < 3; i++) expect(progress?.requestUntrusted()).toBe(true);
      await until(() => (progress?.answers ?? 0) >= 3);
      await client.put(`${prefix}a`).value('1');
      await until(() => seen.length === 1);
      expect(seen).toEqual([`${prefix}a`]);
      await watcher.cancel();
    } finally {
      client.close();
    }
  });
});

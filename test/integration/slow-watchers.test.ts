// Bounded watchers: a client that stops reading (a raw socket with a tiny receive buffer, never read) is closed
// after a short grace once its unread bytes pass a few hundred KiB, counted in apiserver_terminated_watchers_total;
// its stream ends cleanly after what was queued, and it resumes from the last resourceVersion it got.
import { spawn } from 'node:child_process';
import { startTestServer, createNamespace, eventually, type TestServer } from '../helpers/test-server';
import { openWatch } from '../helpers/watch-client';
import { aDeployment } from '../helpers/fixtures';
import { STOPPED_READER } from '../helpers/stopped-reader';

const NS = 'slow';
const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;

let ts: TestServer;
beforeAll(async () => {
  ts = await startTestServer();
  await createNamespace(ts.api, NS);
});
afterAll(() => ts.stop());

async function terminated(): Promise<number> {
  const text = (await ts.api.get('/metrics')).text;
  const line = text
    .split('\n')
    .find((l) => l.startsWith('apiserver_terminated_watchers_total{') && l.includes('resource="deployments.apps"'));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('a watcher that stops reading', () => {
  it('is closed after its buffer fills, counted, and resumes from its last resourceVersion', async () => {
    const created = await ts.api.post(DEPLOYMENTS, aDeployment('target'));
    const rv = created.body.metadata.resourceVersion as string;
    const before = await terminated();
    const fast = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&resourceVersion=${rv}`);
    const slow = spawn(
      'python3',
      ['-c', STOPPED_READER, new URL(ts.url).port, `${DEPLOYMENTS}?watch=1&resourceVersion=${rv}`],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let output = '';
    slow.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    const exited = new Promise<void>((resolve) => slow.once('exit', () => resolve()));
    try {
      await eventually(async () => output.includes('connected'), 5000, 'the slow client to connect');
      // 100 KiB writes until the server closes the stopped watcher: far more than the kernel's socket buffers
      // plus the server's per-watcher bound.
      const blob = 'x'.repeat(100 * 1024);
      let writes = 0;
      const deadline = Date.now() + 30_000;
      while ((await terminated()) === before && Date.now() < deadline) {
        for (let n = 0; n < 5; n++, writes++)
          expect(
            (await ts.api.patch(`${DEPLOYMENTS}/target`, { metadata: { annotations: { blob: `${writes}-${blob}` } } }))
              .status,
          ).toBe(200);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await terminated()).toBe(before + 1);

      // More writes after the close; then the stopped client reads what it was sent and finds the stream ended.
      for (let n = 0; n < 3; n++, writes++)
        expect(
          (await ts.api.patch(`${DEPLOYMENTS}/target`, { metadata: { annotations: { blob: `${writes}-${blob}` } } }))
            .status,
        ).toBe(200);
      const after = (await ts.api.patch(`${DEPLOYMENTS}/target`, { metadata: { annotations: { blob: 'after' } } })).body
        .metadata.resourceVersion as string;
      // The reader that keeps up got everything.
      const events = await fast.next(writes + 1, 30_000);
      expect(events.map((e) => e.object.metadata.annotations.blob.split('-')[0])).toEqual([
        ...Array.from({ length: writes }, (_, n) => String(n)),
        'after',
      ]);
      slow.kill('SIGUSR1');
      await exited;
      const match = /events=(\d+) last=(\d*) clean=(\w+)/.exec(output);
      expect(match).not.toBeNull();
      const [, count, last, clean] = match as RegExpExecArray;
      expect(clean).toBe('True');
      expect(Number(count)).toBeLessThan(writes);

      // Resuming from the last resourceVersion it got delivers exactly what it missed, in order.
      const resumed = await openWatch(ts.url, `${DEPLOYMENTS}?watch=1&resourceVersion=${last === '' ? rv : last}`);
      const missed = await resumed.next(writes - Number(count) + 1, 30_000);
      resumed.close();
      expect(missed.map((e) => e.object.metadata.annotations.blob.split('-')[0])).toEqual([
        ...Array.from({ length: writes - Number(count) }, (_, n) => String(n + Number(count))),
        'after',
      ]);
      expect(missed[missed.length - 1]?.object.metadata.resourceVersion).toBe(after);
      // Only the stopped watcher was closed.
      expect(await terminated()).toBe(before + 1);
    } finally {
      fast.close();
      slow.kill('SIGKILL');
    }
  }, 90_000);
});

// --workers 2 on the built binary with its embedded etcd: both workers serve one port, a watch on one sees writes
// through the other, /metrics sums both, a killed worker is restarted, SIGTERM stops every process with exit 0.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { APISERVER_BINARY } from '../helpers/binary-server';
import { openWatch } from '../helpers/watch-client';

jest.setTimeout(120_000);

interface LogLine {
  msg?: string;
  worker?: number | string;
  pid?: number;
  port?: number;
  workerIndex?: number;
  workerPid?: number;
}

/** The binary's JSON log lines, with a way to wait for one that matches. */
class Logs {
  readonly lines: LogLine[] = [];
  #waiters: Array<() => void> = [];
  #partial = '';
  push(chunk: string): void {
    const parts = (this.#partial + chunk).split('\n');
    this.#partial = parts.pop() ?? '';
    for (const text of parts) {
      try {
        this.lines.push(JSON.parse(text) as LogLine);
      } catch {
        continue;
      }
    }
    this.#waiters.splice(0).forEach((w) => w());
  }
  waitFor(match: (line: LogLine) => boolean, what: string, timeoutMs = 45_000): Promise<LogLine> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () =>
          reject(
            new Error(
              `no log line "${what}" within ${timeoutMs} ms; last lines:\n${this.lines
                .slice(-15)
                .map((l) => JSON.stringify(l))
                .join('\n')}`,
            ),
          ),
        timeoutMs,
      );
      const check = (): void => {
        const found = this.lines.find(match);
        if (found) {
          clearTimeout(timer);
          resolve(found);
        } else this.#waiters.push(check);
      };
      check();
    });
  }
}

/** One request on a fresh connection (no keep-alive), so the cluster hands each to the next worker in turn. */
function call(port: number, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent: false,
        headers: body ? { 'Content-Type': 'application/json' } : {},
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function childPids(pid: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter((n) => n > 0);
  } catch {
    return [];
  }
}

function counter(metrics: string, pattern: RegExp): number {
  return metrics
    .split('\n')
    .filter((l) => pattern.test(l))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

describe('--workers 2', () => {
  let dataDir: string;
  let child: ChildProcess;
  const logs = new Logs();
  let exited: Promise<number | null>;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'orch-workers-'));
    child = spawn(process.execPath, [APISERVER_BINARY, '--port=0', `--data-dir=${dataDir}`, '--workers=2'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.setEncoding('utf8').on('data', (c: string) => logs.push(c));
    child.stderr?.resume();
    exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
  });

  afterAll(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    for (const line of logs.lines)
      if (typeof line.workerPid === 'number' && alive(line.workerPid)) process.kill(line.workerPid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('serves from two worker processes, shares writes through etcd, sums metrics, restarts a killed worker and stops cleanly', async () => {
    await logs.waitFor((l) => l.msg === 'all workers serving', 'all workers serving');
    const serving = logs.lines.filter((l) => l.msg === 'serving');
    expect(serving).toHaveLength(2);
    const pids = new Set(serving.map((l) => l.pid));
    expect(pids.size).toBe(2);
    expect(pids.has(child.pid)).toBe(false);
    expect(new Set(serving.map((l) => l.worker))).toEqual(new Set([1, 2]));
    const port = serving[0]!.port!;
    expect(serving[1]!.port).toBe(port);

    // A watch is held by one worker; namespace creates on fresh connections go to the workers in turn, so both write.
    const list = await call(port, 'GET', '/api/v1/namespaces');
    const rv = (JSON.parse(list.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
    const watch = await openWatch(`http://127.0.0.1:${port}`, `/api/v1/namespaces?watch=true&resourceVersion=${rv}`);
    expect(watch.status).toBe(200);
    const names = ['w-a', 'w-b', 'w-c', 'w-d'];
    for (const name of names) {
      const created = await call(port, 'POST', '/api/v1/namespaces', {
        apiVersion: 'v1',
        kind: 'Namespace',
        metadata: { name },
      });
      expect(created.status).toBe(201);
    }
    const events = await watch.next(4, 15_000);
    expect(events.map((e) => [e.type, e.object.metadata.name])).toEqual(names.map((n) => ['ADDED', n]));
    watch.close();

    // Each worker counted its own creates; any worker's /metrics shows the sum.
    for (let i = 0; i < 2; i++) {
      const metrics = await call(port, 'GET', '/metrics');
      expect(metrics.status).toBe(200);
      expect(counter(metrics.text, /^apiserver_request_total\{verb="POST",.*resource="namespaces".*code="201"/)).toBe(
        4,
      );
    }

    // A killed worker is replaced by a new process under the same index; the server keeps serving meanwhile.
    const victim = serving[0]!;
    process.kill(victim.pid!, 'SIGKILL');
    const restarted = await logs.waitFor(
      (l) => l.msg === 'worker serving' && l.workerIndex === victim.worker && l.workerPid !== victim.pid,
      'restarted worker serving',
    );
    expect(alive(restarted.workerPid!)).toBe(true);
    for (let i = 0; i < 4; i++) expect((await call(port, 'GET', '/api/v1/namespaces/w-a')).status).toBe(200);

    // SIGTERM on the primary: every worker and the embedded etcd stop, and the primary exits 0.
    const children = childPids(child.pid!);
    expect(children.length).toBe(3); // two workers and etcd
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of children) expect(alive(pid)).toBe(false);
    await expect(call(port, 'GET', '/healthz')).rejects.toThrow();
  });
});

// Starts dist/cmd/apiserver.js as a child process on a free port and waits for /readyz; stops it with SIGTERM.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Agent } from 'node:http';
import { freePort } from '../../lib/server/free-port';
import { httpRequest } from './http-load';

export interface ServerProcess {
  url: string;
  pid: number;
  stop(): Promise<void>;
  /** SIGKILL without waiting (for process 'exit' handlers). */
  killNow(): void;
}

const READY_TIMEOUT_MS = 30_000;

/** `extraNodeArgs` go before the script (e.g. `--cpu-prof`), `extraServerArgs` after it (e.g. `--workers 2`); the server logs at warn so request logging costs nothing. */
export async function startServerProcess(
  etcdUrl: string,
  extraNodeArgs: string[] = [],
  extraServerArgs: string[] = [],
  /** Another build's dist/cmd/apiserver.js (default: BENCH_SERVER_SCRIPT, else this build's). */
  scriptPath?: string,
  /** Every line the server writes to stdout or stderr (e.g. `--trace-gc-nvp` output). */
  onLine?: (line: string) => void,
): Promise<ServerProcess> {
  const port = await freePort();
  // BENCH_SERVER_SCRIPT: another build's dist/cmd/apiserver.js (A/B runs against an earlier commit).
  const script = scriptPath ?? process.env['BENCH_SERVER_SCRIPT'] ?? join(__dirname, '..', '..', 'cmd', 'apiserver.js');
  // BENCH_SERVER_ARGS: extra apiserver flags for experiments, e.g. "--watch-cache=false".
  const serverArgs = (process.env['BENCH_SERVER_ARGS'] ?? '').split(/\s+/).filter(Boolean);
  const child = spawn(
    process.execPath,
    [
      ...extraNodeArgs,
      script,
      '--port',
      String(port),
      '--etcd-servers',
      etcdUrl,
      '--log-level',
      'warn',
      ...serverArgs,
      ...extraServerArgs,
    ],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const tail: string[] = [];
  /** Whole lines of one stream (a chunk may end mid-line). */
  const keeper = (): ((chunk: Buffer) => void) => {
    let partial = '';
    return (chunk) => {
      const parts = (partial + chunk.toString('utf8')).split('\n');
      partial = parts.pop() ?? '';
      const lines = parts.filter(Boolean);
      if (onLine) for (const line of lines) onLine(line);
      tail.push(...lines);
      tail.splice(0, Math.max(0, tail.length - 30));
    };
  };
  child.stdout?.on('data', keeper());
  child.stderr?.on('data', keeper());
  const url = `http://127.0.0.1:${port}`;
  const server: ServerProcess = {
    url,
    pid: child.pid ?? -1,
    stop: () => stopChild(child),
    killNow: () => void child.kill('SIGKILL'),
  };
  const agent = new Agent({ keepAlive: false });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`apiserver exited (${child.exitCode ?? child.signalCode}) before ready:\n${tail.join('\n')}`);
      const status = await httpRequest(agent, url, 'GET', '/readyz').then(
        (r) => r.status,
        () => 0,
      );
      if (status === 200) return server;
      if (Date.now() > deadline)
        throw new Error(`apiserver not ready on ${url} after ${READY_TIMEOUT_MS} ms:\n${tail.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (err) {
    await stopChild(child);
    throw err;
  } finally {
    agent.destroy();
  }
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

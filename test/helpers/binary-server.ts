// Starts test etcd plus the BUILT server binary (`node dist/cmd/apiserver.js`) as a child process, for end-to-end tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { startTestEtcd, type TestEtcd } from './etcd';

export const APISERVER_BINARY = resolve(__dirname, '../../dist/cmd/apiserver.js');

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 15_000;
const TAIL_LINES = 40;

export interface BinaryServer {
  /** Base URL, e.g. `http://127.0.0.1:40123`. */
  url: string;
  port: number;
  etcd: TestEtcd;
  /** SIGTERM, wait for the process to exit, then stop etcd. */
  stop(): Promise<void>;
}

interface ServingLine {
  msg?: unknown;
  port?: unknown;
  address?: unknown;
  tls?: unknown;
}

/** Keeps the last lines of a stream, for error messages. */
class Tail {
  private readonly lines: string[] = [];
  private partial = '';
  constructor(private readonly onLine?: (line: string) => void) {}
  push(chunk: string): void {
    const parts = (this.partial + chunk).split('\n');
    this.partial = parts.pop() ?? '';
    for (const line of parts) {
      this.lines.push(line);
      if (this.lines.length > TAIL_LINES) this.lines.shift();
      this.onLine?.(line);
    }
  }
  text(): string {
    return [...this.lines, this.partial].filter((l) => l !== '').join('\n');
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((done) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      done(true);
    });
  });
}

/** Extra flags are appended after `--port 0 --etcd-servers <url>`, e.g. `['--feature-gates=APIListChunking=false']`. */
export async function startBinaryServer(extraFlags: string[] = []): Promise<BinaryServer> {
  if (!existsSync(APISERVER_BINARY)) {
    throw new Error(`${APISERVER_BINARY} does not exist: run \`make build\` before the end-to-end tests`);
  }
  const etcd = await startTestEtcd();
  const args = [APISERVER_BINARY, '--port', '0', '--etcd-servers', etcd.clientUrl, ...extraFlags];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env } });

  let onServing: ((line: ServingLine) => void) | undefined;
  const stdout = new Tail((line) => {
    if (!line.startsWith('{')) return;
    let parsed: ServingLine;
    try {
      parsed = JSON.parse(line) as ServingLine;
    } catch {
      return;
    }
    if (parsed.msg === 'serving' && typeof parsed.port === 'number') onServing?.(parsed);
  });
  const stderr = new Tail();
  // Both streams are drained for the whole life of the process so a chatty server never blocks on a full pipe.
  child.stdout?.setEncoding('utf8').on('data', (c: string) => stdout.push(c));
  child.stderr?.setEncoding('utf8').on('data', (c: string) => stderr.push(c));

  const describe = (): string =>
    `\n--- stderr ---\n${stderr.text() || '(empty)'}\n--- stdout (tail) ---\n${stdout.text() || '(empty)'}`;

  let serving: ServingLine;
  try {
    serving = await new Promise<ServingLine>((resolveServing, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        reject(
          new Error(
            `apiserver did not log "serving" within ${READY_TIMEOUT_MS} ms: node ${args.join(' ')}${describe()}`,
          ),
        );
      }, READY_TIMEOUT_MS);
      const onExit = (code: number | null, signal: NodeJS.Signals | null): void => {
        cleanup();
        // Let the last output chunks arrive before describing them.
        setImmediate(() =>
          reject(
            new Error(
              `apiserver exited before serving (code ${code}, signal ${signal}): node ${args.join(' ')}${describe()}`,
            ),
          ),
        );
      };
      const onError = (err: Error): void => {
        cleanup();
        reject(new Error(`spawning apiserver failed: ${err.message}`));
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        onServing = undefined;
        child.off('exit', onExit);
        child.off('error', onError);
      };
      onServing = (line) => {
        cleanup();
        resolveServing(line);
      };
      child.once('exit', onExit);
      child.once('error', onError);
    });
  } catch (err) {
    if (!exited(child)) {
      child.kill('SIGKILL');
      await waitForExit(child, STOP_TIMEOUT_MS);
    }
    await etcd.stop();
    throw err;
  }

  const port = serving.port as number;
  const host =
    typeof serving.address === 'string' && serving.address !== '0.0.0.0' && serving.address !== '::'
      ? serving.address
      : '127.0.0.1';
  const scheme = serving.tls === true ? 'https' : 'http';
  const url = `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      try {
        if (!exited(child)) {
          child.kill('SIGTERM');
          if (!(await waitForExit(child, STOP_TIMEOUT_MS))) {
            child.kill('SIGKILL');
            await waitForExit(child, STOP_TIMEOUT_MS);
            throw new Error(`apiserver did not exit within ${STOP_TIMEOUT_MS} ms of SIGTERM${describe()}`);
          }
        }
      } finally {
        await etcd.stop();
      }
    })();
    return stopped;
  };

  return { url, port, etcd, stop };
}

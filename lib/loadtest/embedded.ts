// The one-command default: a throwaway orch-apiserver (which starts its own etcd) with its data in a temporary
// directory, run as a child process of the built binary and removed afterwards. Only the binary's command line and
// its "serving" log line are used, nothing of the server's code.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createServer } from 'node:net';
import { get as httpGet } from 'node:http';

const READY_TIMEOUT_MS = 60_000;

export interface EmbeddedServer {
  url: string;
  pid: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** dist/cmd/apiserver.js next to this file's build output (or the built copy when running from TypeScript sources). */
export function apiserverBinary(): string {
  const fromDist = resolve(__dirname, '..', '..', 'cmd', 'apiserver.js');
  if (__filename.endsWith('.js') && existsSync(fromDist)) return fromDist;
  return resolve(__dirname, '..', '..', 'dist', 'cmd', 'apiserver.js');
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** A free loopback port from the kernel (listen on 0, close). */
function freeLoopbackPort(): Promise<number> {
  return new Promise((done, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => done(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function readyz(url: string): Promise<number> {
  return new Promise((done) => {
    const req = httpGet(`${url}/readyz`, { agent: false }, (res) => {
      res.resume();
      res.on('end', () => done(res.statusCode ?? 0));
    });
    req.on('error', () => done(0));
    req.setTimeout(2000, () => req.destroy());
  });
}

/** Starts the server at log level warn (no line per request to slow it down) and waits for /readyz. */
export async function startEmbeddedServer(extraArgs: string[] = []): Promise<EmbeddedServer> {
  const binary = apiserverBinary();
  if (!existsSync(binary)) throw new Error(`${binary} not found: build the project first (make build)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-loadtest-'));
  const port = await freeLoopbackPort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    [binary, '--port', String(port), '--data-dir', join(dataDir, 'etcd'), '--log-level', 'warn', ...extraArgs],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const tail: string[] = [];
  const keep = (chunk: string): void => {
    tail.push(...chunk.split('\n').filter(Boolean));
    tail.splice(0, Math.max(0, tail.length - 30));
  };
  child.stdout?.setEncoding('utf8').on('data', keep);
  child.stderr?.setEncoding('utf8').on('data', keep);
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  // Interrupted (Ctrl-C, SIGTERM): stop the server and remove its directory before exiting.
  const onSignal = (): void => void stop().finally(() => process.exit(130));
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  const stop = async (): Promise<void> => {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    if (!exited(child)) {
      child.kill('SIGTERM');
      await new Promise<void>((done) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.once('exit', () => {
          clearTimeout(timer);
          done();
        });
      });
    }
    process.off('exit', killOnExit);
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      if (exited(child))
        throw new Error(
          `embedded apiserver exited (${child.exitCode ?? child.signalCode}) before serving:\n${tail.join('\n')}`,
        );
      if ((await readyz(url)) === 200) break;
      if (Date.now() > deadline)
        throw new Error(`embedded apiserver not ready on ${url} within ${READY_TIMEOUT_MS} ms:\n${tail.join('\n')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return { url, pid: child.pid ?? -1, dataDir, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

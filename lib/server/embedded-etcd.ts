// Runs an etcd child process (the `etcd` binary from PATH) on free loopback ports with data under a directory.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, accessSync, constants } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { Etcd3 } from 'etcd3';
import { freePort } from './free-port';
import { dataDirInUseMessage, findDataDirHolder } from './etcd-data-dir-holder';

export const ETCD_INSTALL_HINT =
  'no etcd binary found on PATH; install it with `apt-get install etcd-server` (Debian) or pass --etcd-servers';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
/** How long one readiness read may take before the next is tried. */
const ATTEMPT_TIMEOUT_MS = 2_000;
const PORT_ATTEMPTS = 5;

export interface EmbeddedEtcd {
  clientUrl: string;
  /** Reused with the client port to restart the same member. */
  peerPort: number;
  stop(): Promise<void>;
}

export function findEtcdBinary(): string | undefined {
  return findOnPath('etcd');
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * Starts etcd with its data in `dataDir` and resolves once it answers a read. Without fixed `ports` it takes free ones,
 * and takes others when one was bound by another process between the probe and etcd's listen (etcd then exits with
 * "address already in use" before touching its data directory).
 */
export async function startEmbeddedEtcd(
  dataDir: string,
  onLog?: (line: string) => void,
  ports?: { client: number; peer: number },
): Promise<EmbeddedEtcd> {
  if (ports) return startOnPorts(dataDir, ports.client, ports.peer, onLog);
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnPorts(dataDir, await freePort(), await freePort(), onLog);
    } catch (err) {
      if (attempt >= PORT_ATTEMPTS || !isAddressInUse(err)) throw err;
    }
  }
}

/** Whether etcd failed because one of its ports was taken. */
export function isAddressInUse(err: unknown): boolean {
  return err instanceof Error && err.message.includes('address already in use');
}

async function startOnPorts(
  dataDir: string,
  clientPort: number,
  peerPort: number,
  onLog?: (line: string) => void,
): Promise<EmbeddedEtcd> {
  const binary = findEtcdBinary();
  if (!binary) throw new Error(ETCD_INSTALL_HINT);
  // etcd itself would wait on the data directory's locks until the start times out.
  const holder = findDataDirHolder(dataDir);
  if (holder) throw new Error(dataDirInUseMessage(dataDir, holder));
  mkdirSync(dataDir, { recursive: true });
  const clientUrl = `http://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  // Under setpriv --pdeathsig, etcd gets SIGTERM when this process dies in any way (SIGKILL, the OOM killer), which
  // the 'exit' handler below cannot cover; setpriv execs etcd, so the child's pid is etcd's.
  const setpriv = findOnPath('setpriv');
  const command = setpriv ? [setpriv, '--pdeathsig', 'TERM', '--', binary] : [binary];
  const child = spawn(
    command[0]!,
    [
      ...command.slice(1),
      '--name',
      'orch',
      '--data-dir',
      resolve(dataDir), // absolute, so that a later start finds this process by it whatever its working directory
      '--listen-client-urls',
      clientUrl,
      '--advertise-client-urls',
      clientUrl,
      '--listen-peer-urls',
      peerUrl,
      '--initial-advertise-peer-urls',
      peerUrl,
      '--initial-cluster',
      `orch=${peerUrl}`,
      '--logger',
      'zap',
      '--log-level',
      'warn',
      // Watch caches learn the revision of quiet resources from these (bookmarks, fresh rv=N reads).
      '--experimental-watch-progress-notify-interval',
      '5s',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  // A server that exits without stopping it (a second signal, a crash) must not leave etcd running.
  const stopOnExit = (): void => void child.kill('SIGTERM');
  process.once('exit', stopOnExit);
  child.once('exit', () => process.off('exit', stopOnExit));
  const stderrTail: string[] = [];
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n').filter(Boolean)) {
      stderrTail.push(line);
      if (stderrTail.length > 20) stderrTail.shift();
      onLog?.(line);
    }
  });
  await waitUntilServing(child, clientUrl, stderrTail);
  return { clientUrl, peerPort, stop: () => stopProcess(child) };
}

async function waitUntilServing(child: ChildProcess, clientUrl: string, stderrTail: string[]): Promise<void> {
  // 'close' rather than 'exit': the last lines of stderr (the reason) have arrived by then.
  const exited = new Promise<never>((_, reject) =>
    child.once('close', (code) =>
      reject(new Error(`etcd exited with code ${code} before serving:\n${stderrTail.join('\n')}`)),
    ),
  );
  const client = new Etcd3({ hosts: clientUrl, dialTimeout: 1000 });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    for (;;) {
      try {
        // An etcd that accepts connections but does not answer (still opening its data) must not outwait the deadline.
        const read = client.get('health').string();
        read.catch(() => undefined);
        await Promise.race([
          read,
          exited,
          rejectAfter(Math.min(ATTEMPT_TIMEOUT_MS, Math.max(0, deadline - Date.now()))),
        ]);
        return;
      } catch (err) {
        if (child.exitCode !== null || Date.now() > deadline) {
          await stopProcess(child);
          throw err instanceof Error && err.message.startsWith('etcd exited')
            ? err
            : new Error(`etcd did not start serving on ${clientUrl}: ${String(err)}`);
        }
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  } finally {
    client.close();
  }
}

function rejectAfter(ms: number): Promise<never> {
  return new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref());
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

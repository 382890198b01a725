// The built binary on its own: command line errors, embedded etcd that keeps data across restarts, clean shutdown.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../lib/server/free-port';

const BINARY = join(__dirname, '..', '..', 'dist', 'cmd', 'apiserver.js');

function run(args: string[], env: NodeJS.ProcessEnv = process.env): { code: number; stdout: string; stderr: string } {
  try {
    const stdout = execFileSync(process.execPath, [BINARY, ...args], {
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 45_000, // a hung start fails the test (this call blocks jest's own timers)
    });
    return { code: 0, stdout, stderr: '' };
  } catch (err) {
    const e = err as { status: number; stdout: string; stderr: string };
    return { code: e.status, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Starts the binary with embedded etcd; resolves with the process and its port once it serves. */
function startEmbedded(
  dataDir: string,
  extraFlags: string[] = [],
): Promise<{ child: ChildProcess; port: number; output: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BINARY, '--port=0', `--data-dir=${dataDir}`, ...extraFlags], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /"port":(\d+)[^\n]*"msg":"serving"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]), output: () => out });
      }
    });
    child.once('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** How many processes have `pattern` in their command line (pgrep exit 1 = none, 0 = some). */
function processesMatching(pattern: string): number {
  try {
    return execFileSync('pgrep', ['-f', '--', pattern], { encoding: 'utf8' }).trim().split('\n').length;
  } catch (err) {
    if ((err as { status?: number }).status === 1) return 0;
    throw err;
  }
}

/** POSTs a Namespace named `name`; the response status. */
async function createNamespace(port: number, name: string): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/namespaces`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }),
  });
  return res.status;
}

/** SIGKILLs every process with `pattern` in its command line (none is fine). */
function killMatching(pattern: string): void {
  try {
    execFileSync('pkill', ['-KILL', '-f', '--', pattern], { stdio: 'ignore' });
  } catch {
    // pkill exits 1 when nothing matched
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

beforeAll(() => {
  if (!existsSync(BINARY)) throw new Error('dist/cmd/apiserver.js is missing: run `make build` first');
});

describe('command line', () => {
  it('lists every flag with --help', () => {
    const res = run(['--help']);
    expect(res.code).toBe(0);
    for (const flag of [
      '--bind-address',
      '--port',
      '--tls-cert-file',
      '--tls-private-key-file',
      '--etcd-servers',
      '--etcd-prefix',
      '--data-dir',
      '--livez-grace-period',
      '--shutdown-delay-duration',
      '--log-level',
    ]) {
      expect(res.stdout).toContain(flag);
    }
  });

  it.each([
    [['--bogus'], 'unknown flag: --bogus'],
    [['--port=eighty'], 'invalid argument "eighty" for "--port" flag'],
    [['--shutdown-delay-duration=5'], 'time: missing unit in duration "5"'],
  ])('exits 1 with a clear error for %j', (args, message) => {
    const res = run(args);
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(message);
  });

  it('says how to install etcd when no etcd binary is on PATH', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-noetcd-'));
    try {
      const res = run([`--data-dir=${dir}`, '--port=0'], { ...process.env, PATH: '/nonexistent' });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain('apt-get install etcd-server');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('embedded etcd', () => {
  it('keeps data across a restart and stops etcd on SIGTERM', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'orch-embedded-'));
    try {
      const first = await startEmbedded(dataDir);
      expect(await createNamespace(first.port, 'survivor')).toBe(201);
      const firstExit = exited(first.child);
      first.child.kill('SIGTERM');
      expect(await firstExit).toBe(0);
      // No etcd process may be left holding the data directory (pgrep exits 1 when nothing matches).
      expect(processesMatching(`--data-dir ${join(dataDir, 'etcd')}`)).toBe(0);

      const second = await startEmbedded(dataDir);
      try {
        const read = await fetch(`http://127.0.0.1:${second.port}/api/v1/namespaces/survivor`);
        expect(read.status).toBe(200);
      } finally {
        const secondExit = exited(second.child);
        second.child.kill('SIGINT');
        expect(await secondExit).toBe(0);
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('embedded etcd when the server is killed', () => {
  /** Waits up to 10 s for no process to hold `dir` as its etcd data directory; returns how many still do. */
  async function holdersAfterWaiting(dir: string): Promise<number> {
    const deadline = Date.now() + 10_000;
    while (processesMatching(`--data-dir ${dir}`) > 0 && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 100));
    return processesMatching(`--data-dir ${dir}`);
  }

  // The second: more workers than CPUs, which the primary warns about.
  it.each([[[]], [[`--workers=${availableParallelism() + 1}`]]])(
    'stops with a SIGKILLed server (flags %j), so the next start on the data directory serves its data',
    async (flags: string[]) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'orch-killed-'));
      try {
        const first = await startEmbedded(dataDir, flags);
        expect(await createNamespace(first.port, 'after-kill')).toBe(201);
        if (flags.length > 0) expect(first.output()).toContain('"msg":"more workers than CPUs');
        const firstExit = exited(first.child);
        first.child.kill('SIGKILL');
        await firstExit;
        expect(await holdersAfterWaiting(join(dataDir, 'etcd'))).toBe(0);

        const second = await startEmbedded(dataDir);
        try {
          expect((await fetch(`http://127.0.0.1:${second.port}/api/v1/namespaces/after-kill`)).status).toBe(200);
        } finally {
          const secondExit = exited(second.child);
          second.child.kill('SIGTERM');
          expect(await secondExit).toBe(0);
        }
      } finally {
        killMatching(dataDir); // what a failed run left
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it('names the etcd that still holds the data directory instead of waiting on its locks', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'orch-held-'));
    const etcdDir = join(dataDir, 'etcd');
    // An etcd on the data directory that no server owns, as one left by an older build's killed server would be
    // (`make run` gives it a relative --data-dir: relative to its own working directory).
    const [client, peer] = [await freePort(), await freePort()];
    const stray = spawn(
      'etcd',
      [
        '--name',
        'orch',
        '--data-dir',
        'etcd',
        '--listen-client-urls',
        `http://127.0.0.1:${client}`,
        '--advertise-client-urls',
        `http://127.0.0.1:${client}`,
        '--listen-peer-urls',
        `http://127.0.0.1:${peer}`,
        '--initial-advertise-peer-urls',
        `http://127.0.0.1:${peer}`,
        '--initial-cluster',
        `orch=http://127.0.0.1:${peer}`,
      ],
      { stdio: 'ignore', cwd: dataDir },
    );
    try {
      const startedAt = Date.now();
      const res = run([`--data-dir=${dataDir}`, '--port=0']);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`the etcd data directory ${etcdDir} is in use by etcd pid ${stray.pid}`);
      expect(res.stderr).toContain('stop that process or choose another --data-dir');
      expect(Date.now() - startedAt).toBeLessThan(20_000); // not the 30 s start timeout
      expect(stray.exitCode).toBeNull(); // the start left it alone
    } finally {
      const gone = exited(stray);
      stray.kill('SIGKILL');
      await gone;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('shutdown', () => {
  it('exits promptly on SIGTERM even when a client stopped reading a watch without closing its connection', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'orch-shutdown-'));
    try {
      const server = await startEmbedded(dataDir);
      // fetch's abort leaves its keep-alive connection open: the server must not wait for it.
      const abort = new AbortController();
      const watch = await fetch(`http://127.0.0.1:${server.port}/api/v1/namespaces?watch=1`, { signal: abort.signal });
      expect(watch.status).toBe(200);
      await watch.body?.getReader().read();
      abort.abort();
      const exit = exited(server.child);
      const stoppingAt = Date.now();
      server.child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(Date.now() - stoppingAt).toBeLessThan(5000);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('start-up failures start nothing', () => {
  it('fails with ensureLogFile when the audit log cannot be created, before etcd starts', () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-audit-'));
    try {
      writeFileSync(join(dir, 'file'), '');
      const res = run([`--data-dir=${dir}`, '--port=0', `--audit-log-path=${join(dir, 'file', 'audit.log')}`]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`Error: ensureLogFile: mkdir ${join(dir, 'file')}: not a directory`);
      expect(existsSync(join(dir, 'etcd'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates a missing audit log directory 0700 and the file 0600', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-audit-'));
    try {
      const server = await startEmbedded(dir, [`--audit-log-path=${join(dir, 'logs', 'audit.log')}`]);
      const exit = exited(server.child);
      server.child.kill('SIGTERM');
      expect(await exit).toBe(0);
      expect(statSync(join(dir, 'logs')).mode & 0o777).toBe(0o700);
      expect(statSync(join(dir, 'logs', 'audit.log')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('stops the embedded etcd it started when the port is taken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-busy-'));
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    try {
      const port = (blocker.address() as { port: number }).port;
      const res = run([`--data-dir=${dir}`, `--port=${port}`]);
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(
        `failed to create listener: failed to listen on 127.0.0.1:${port}: listen tcp 127.0.0.1:${port}: bind: address already in use`,
      );
      expect(processesMatching(`--data-dir ${join(dir, 'etcd')}`)).toBe(0);
    } finally {
      blocker.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('second signal', () => {
  it('exits 1 at once on a second SIGTERM during the shutdown delay, stopping the embedded etcd', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'orch-twice-'));
    try {
      const server = await startEmbedded(dataDir, ['--shutdown-delay-duration=30s']);
      const exit = exited(server.child);
      server.child.kill('SIGTERM');
      // The first signal starts the delay: /readyz fails while requests are still served.
      const deadline = Date.now() + 5000;
      while ((await fetch(`http://127.0.0.1:${server.port}/readyz`)).status !== 500 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect((await fetch(`http://127.0.0.1:${server.port}/readyz`)).status).toBe(500);
      const secondAt = Date.now();
      server.child.kill('SIGTERM');
      expect(await exit).toBe(1);
      expect(Date.now() - secondAt).toBeLessThan(5000);
      // etcd gets SIGTERM as the server exits; give it a moment to go.
      const etcdGone = Date.now() + 10_000;
      while (processesMatching(`--data-dir ${join(dataDir, 'etcd')}`) > 0 && Date.now() < etcdGone)
        await new Promise((r) => setTimeout(r, 100));
      expect(processesMatching(`--data-dir ${join(dataDir, 'etcd')}`)).toBe(0);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});

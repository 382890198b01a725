// Runs the real kubectl against a server URL with an empty kubeconfig (no user settings leak into tests).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { startBinaryServer, type BinaryServer } from './binary-server';

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

function findOnPath(name: string): string | undefined {
  for (const dir of (process.env['PATH'] ?? '').split(delimiter)) {
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}

export const KUBECTL = findOnPath('kubectl');

/** A release binary (`kubectl.1.27` …) beside the real kubectl (the one on PATH may be a symlink or dispatcher). */
export function kubectlRelease(version: string): string | undefined {
  if (!KUBECTL) return undefined;
  const candidate = join(dirname(realpathSync(KUBECTL)), `kubectl.${version}`);
  try {
    accessSync(candidate, constants.X_OK);
    return candidate;
  } catch {
    return undefined;
  }
}

/** A kubectl bound to one server, with its own cache dir and an empty kubeconfig. */
export class Kubectl {
  readonly #work: string;
  readonly #kubeconfig: string;

  constructor(
    readonly serverUrl: string,
    readonly binary: string | undefined = KUBECTL,
  ) {
    if (!binary) throw new Error('kubectl is not on PATH; the kubectl end-to-end tests need it');
    this.#work = mkdtempSync(join(tmpdir(), 'orch-kubectl-'));
    this.#kubeconfig = join(this.#work, 'kubeconfig');
    writeFileSync(this.#kubeconfig, '');
  }

  get workDir(): string {
    return this.#work;
  }

  #args(args: string[]): string[] {
    return ['--server', this.serverUrl, '--cache-dir', join(this.#work, 'cache'), ...args];
  }

  run(args: string[], timeoutMs = 25_000): Promise<KubectlResult> {
    return new Promise((resolve, reject) => {
      execFile(
        this.binary as string,
        this.#args(args),
        { env: { ...process.env, KUBECONFIG: this.#kubeconfig }, timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => {
          if (error && typeof error.code !== 'number') {
            reject(
              new Error(`kubectl ${args.join(' ')} did not run to completion: ${error.message}\nstderr: ${stderr}`),
            );
            return;
          }
          resolve({ code: error ? (error.code as number) : 0, stdout: String(stdout), stderr: String(stderr) });
        },
      );
    });
  }

  /** Runs kubectl and fails with its output unless it exits 0. */
  async ok(...args: string[]): Promise<string> {
    const res = await this.run(args);
    if (res.code !== 0)
      throw new Error(`kubectl ${args.join(' ')} exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
    return res.stdout;
  }

  /** A long-running kubectl (e.g. `get --watch`) whose stdout lines are collected as they arrive. */
  stream(...args: string[]): { child: ChildProcess; lines: string[]; stderr: () => string; stop: () => Promise<void> } {
    const child = spawn(this.binary as string, this.#args(args), {
      env: { ...process.env, KUBECONFIG: this.#kubeconfig },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const lines: string[] = [];
    let partial = '';
    let stderr = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      partial += chunk;
      const parts = partial.split('\n');
      partial = parts.pop() ?? '';
      lines.push(...parts.filter((l) => l.trim() !== ''));
    });
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return {
      child,
      lines,
      stderr: () => stderr,
      stop: async () => {
        if (child.exitCode === null) child.kill('SIGTERM');
        await exited;
      },
    };
  }

  cleanup(): void {
    rmSync(this.#work, { recursive: true, force: true });
  }
}

/**
 * For one e2e file: the built server binary (started before the file's tests, stopped after) and a kubectl bound
 * to it; with `namespace`, that namespace is created first. Call at the top level of the file.
 */
export function useKubectlOnBinaryServer(namespace?: string): { kubectl: () => Kubectl; server: () => BinaryServer } {
  let server: BinaryServer | undefined;
  let kubectl: Kubectl | undefined;
  beforeAll(async () => {
    server = await startBinaryServer();
    kubectl = new Kubectl(server.url);
    if (namespace !== undefined) await kubectl.ok('create', 'namespace', namespace);
  }, 90_000);
  afterAll(async () => {
    kubectl?.cleanup();
    await server?.stop();
  }, 60_000);
  return {
    kubectl: () => {
      if (!kubectl) throw new Error('kubectl is not set up yet (use it inside tests or hooks)');
      return kubectl;
    },
    server: () => {
      if (!server) throw new Error('the server is not started yet (use it inside tests or hooks)');
      return server;
    },
  };
}

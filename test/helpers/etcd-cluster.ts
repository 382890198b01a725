// A local multi-member etcd cluster (the `etcd` binary from PATH) on free loopback ports, for fault tests: members can
// be stopped with any signal and started again on the same data and ports, and the current leader can be asked for.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:net';
import { Etcd3 } from 'etcd3';
import { findEtcdBinary, isAddressInUse, ETCD_INSTALL_HINT } from '../../lib/server/embedded-etcd';
import { freePort } from '../../lib/server/free-port';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const STATUS_TIMEOUT_MS = 500;
const PORT_ATTEMPTS = 5;

export interface EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  readonly peerUrl: string;
  readonly running: boolean;
  /** Sends `signal` and resolves once the process has exited (SIGTERM: etcd's graceful stop, with leadership transfer). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Starts the member again on its data directory and ports; resolves once it runs (not necessarily joined). */
  start(): Promise<void>;
}

export interface EtcdCluster {
  readonly members: readonly EtcdMember[];
  /** Client URLs of all members, for `--etcd-servers`. */
  readonly clientUrls: string[];
  /** Index of the member that currently leads, as the running members report it; undefined while none does. */
  leader(): Promise<number | undefined>;
  /** Waits until a running member reports a leader that is running, and returns its index. */
  waitForLeader(timeoutMs?: number): Promise<number>;
  /** Waits until every running member answers a linearizable read (is joined and has a leader). */
  waitHealthy(timeoutMs?: number): Promise<void>;
  /** Stops every member and removes the data. */
  stop(): Promise<void>;
}

export interface EtcdClusterOptions {
  size?: number;
  /** etcd flags added to every member, e.g. `['--election-timeout', '500']`. */
  extraFlags?: string[];
  onLog?: (member: string, line: string) => void;
}

/**
 * Starts a new cluster on free ports; when another process bound one of them before a member listened (the member exits
 * with "address already in use"), starts it again on other ports.
 */
export async function startEtcdCluster(options: EtcdClusterOptions = {}): Promise<EtcdCluster> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnFreePorts(options);
    } catch (err) {
      if (attempt >= PORT_ATTEMPTS || !isAddressInUse(err)) throw err;
    }
  }
}

async function startOnFreePorts(options: EtcdClusterOptions): Promise<EtcdCluster> {
  const binary = findEtcdBinary();
  if (!binary) throw new Error(ETCD_INSTALL_HINT);
  const size = options.size ?? 3;
  const root = mkdtempSync(join(tmpdir(), 'orch-etcd-cluster-'));
  const specs: Array<{ name: string; clientUrl: string; peerUrl: string; dataDir: string }> = [];
  for (let i = 0; i < size; i++) {
    const [client, peer] = [await freePort(), await freePort()];
    specs.push({
      name: `m${i}`,
      clientUrl: `http://127.0.0.1:${client}`,
      peerUrl: `http://127.0.0.1:${peer}`,
      dataDir: join(root, `m${i}`),
    });
  }
  const initialCluster = specs.map((s) => `${s.name}=${s.peerUrl}`).join(',');
  const token = `orch-test-${process.pid}-${Date.now()}`;
  const members = specs.map(
    (spec) =>
      new Member(
        binary,
        spec,
        [
          '--initial-cluster',
          initialCluster,
          '--initial-cluster-token',
          token,
          '--initial-cluster-state',
          'new',
          ...(options.extraFlags ?? []),
        ],
        options.onLog,
      ),
  );
  const cluster = new Cluster(members, root);
  try {
    await Promise.all(members.map((m) => m.start()));
    await cluster.waitHealthy();
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  return cluster;
}

class Member implements EtcdMember {
  readonly name: string;
  readonly clientUrl: string;
  readonly peerUrl: string;
  readonly #dataDir: string;
  readonly #args: string[];
  readonly #binary: string;
  readonly #onLog: ((member: string, line: string) => void) | undefined;
  #child: ChildProcess | undefined;
  readonly #stopOnExit = (): void => void this.#child?.kill('SIGKILL');

  constructor(
    binary: string,
    spec: { name: string; clientUrl: string; peerUrl: string; dataDir: string },
    clusterArgs: string[],
    onLog?: (member: string, line: string) => void,
  ) {
    this.#binary = binary;
    this.name = spec.name;
    this.clientUrl = spec.clientUrl;
    this.peerUrl = spec.peerUrl;
    this.#dataDir = spec.dataDir;
    this.#onLog = onLog;
    this.#args = [
      '--name',
      spec.name,
      '--data-dir',
      spec.dataDir,
      '--listen-client-urls',
      spec.clientUrl,
      '--advertise-client-urls',
      spec.clientUrl,
      '--listen-peer-urls',
      spec.peerUrl,
      '--initial-advertise-peer-urls',
      spec.peerUrl,
      '--logger',
      'zap',
      '--log-level',
      'warn',
      '--experimental-watch-progress-notify-interval',
      '5s',
      ...clusterArgs,
    ];
  }

  get running(): boolean {
    return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
  }

  async start(): Promise<void> {
    if (this.running) return;
    mkdirSync(this.#dataDir, { recursive: true });
    const child = spawn(this.#binary, this.#args, { stdio: ['ignore', 'ignore', 'pipe'] });
    this.#child = child;
    process.once('exit', this.#stopOnExit);
    child.once('exit', () => process.off('exit', this.#stopOnExit));
    const stderrTail: string[] = [];
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      for (const line of chunk.split('\n').filter(Boolean)) {
        stderrTail.push(line);
        if (stderrTail.length > 20) stderrTail.shift();
        this.#onLog?.(this.name, line);
      }
    });
    const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
    // Running means listening for clients: a member of a cluster without quorum serves no reads, so wait for the port only.
    const deadline = Date.now() + READY_TIMEOUT_MS;
    const port = Number(new URL(this.clientUrl).port);
    while (!(await portOpen(port))) {
      if (!this.running) {
        await closed; // all of stderr, with the reason, has arrived
        throw new Error(
          `etcd member ${this.name} exited with ${child.exitCode ?? child.signalCode} before listening:\n${stderrTail.join('\n')}`,
        );
      }
      if (Date.now() > deadline) throw new Error(`etcd member ${this.name} did not listen on ${this.clientUrl}`);
      await sleep(50);
    }
  }

  stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const child = this.#child;
    if (!child || !this.running) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill(signal);
    });
  }
}

class Cluster implements EtcdCluster {
  readonly members: Member[];
  readonly #root: string;

  constructor(members: Member[], root: string) {
    this.members = members;
    this.#root = root;
  }

  get clientUrls(): string[] {
    return this.members.map((m) => m.clientUrl);
  }

  async leader(): Promise<number | undefined> {
    const ids = new Map<string, number>();
    const leaders = new Set<string>();
    await Promise.all(
      this.members.map(async (m, i) => {
        if (!m.running) return;
        const status = await memberStatus(m.clientUrl);
        if (!status) return;
        ids.set(status.memberId, i);
        if (status.leader !== '0') leaders.add(status.leader);
      }),
    );
    // Members may briefly disagree during an election: only a leader every answering member names counts.
    if (leaders.size !== 1) return undefined;
    const leaderIndex = ids.get([...leaders][0] as string);
    return leaderIndex !== undefined && this.members[leaderIndex]?.running ? leaderIndex : undefined;
  }

  async waitForLeader(timeoutMs = 30_000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const leader = await this.leader();
      if (leader !== undefined) return leader;
      if (Date.now() > deadline) throw new Error('no etcd leader elected in time');
      await sleep(50);
    }
  }

  async waitHealthy(timeoutMs = READY_TIMEOUT_MS): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const m of this.members.filter((x) => x.running)) {
      const client = new Etcd3({ hosts: m.clientUrl, faultHandling: { host: () => noPolicy, global: noPolicy } });
      try {
        for (;;) {
          try {
            await client
              .get('health')
              .options({ deadline: Date.now() + 1000 })
              .string();
            break;
          } catch (err) {
            if (Date.now() > deadline) throw new Error(`etcd member ${m.name} is not healthy: ${String(err)}`);
            await sleep(100);
          }
        }
      } finally {
        client.close();
      }
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.members.map((m) => m.stop('SIGKILL')));
    rmSync(this.#root, { recursive: true, force: true });
  }
}

// A pass-through policy, so that the helper's own probes neither retry nor trip a breaker.
const noPolicy = {
  execute: <T>(fn: (context: { signal: AbortSignal }) => PromiseLike<T> | T): Promise<T> =>
    Promise.resolve(fn({ signal: new AbortController().signal })),
  onSuccess: () => ({ dispose: () => undefined }),
  onFailure: () => ({ dispose: () => undefined }),
} as unknown as import('cockatiel').IPolicy;

async function memberStatus(clientUrl: string): Promise<{ memberId: string; leader: string } | undefined> {
  const client = new Etcd3({ hosts: clientUrl, faultHandling: { host: () => noPolicy, global: noPolicy } });
  try {
    const status = await client.maintenance.status({ deadline: Date.now() + STATUS_TIMEOUT_MS });
    return { memberId: status.header.member_id, leader: status.leader };
  } catch {
    return undefined;
  } finally {
    client.close();
  }
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

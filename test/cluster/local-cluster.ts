// Drives deploy/local/cluster.sh for the fault tests: a private cluster directory, free loopback ports, HTTPS helpers.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../lib/server/free-port';
import { ROOT } from './deploy-checks';

const SCRIPT = join(ROOT, 'deploy', 'local', 'cluster.sh');

export interface Reply {
  status: number;
  body: string;
}

export class LocalCluster {
  readonly dir = mkdtempSync(join(tmpdir(), 'orch-cluster-'));
  ports: Record<string, number> = {};
  #env: NodeJS.ProcessEnv = {};
  agent: Agent | undefined;
  /** The admin token of the cluster (group system:masters) as an Authorization header: the replicas authorize with RBAC. */
  authorization = "";

  async up(): Promise<string> {
    if (!this.ports.LB_PORT) this.#env = { ...process.env, CLUSTER_DIR: this.dir, LB_PORT: String(await freePort()), PROM_PORT: String(await freePort()), READY_TIMEOUT: '120' };
    const out = await this.script('up');
    this.ports = Object.fromEntries(
      readFileSync(join(this.dir, 'ports.env'), 'utf8')
        .trim()
        .split('\n')
        .map((l) => l.split('='))
        .map(([k, v]) => [k ?? '', Number(v)]),
    );
    this.agent ??= new Agent({ ca: readFileSync(join(this.dir, 'pki', 'ca.crt')), keepAlive: true, maxSockets: 64 });
    this.authorization = `Bearer ${readFileSync(join(this.dir, 'admin-token'), 'utf8').trim()}`;
    return out;
  }

  async script(cmd: 'up' | 'down' | 'restart'): Promise<string> {
    const { stdout } = await promisify(execFile)(SCRIPT, [cmd], { env: this.#env, timeout: 200_000 });
    return stdout;
  }

  async down(): Promise<void> {
    this.agent?.destroy();
    await this.script('down');
    rmSync(this.dir, { recursive: true, force: true });
  }

  pid(name: string): number {
    return Number(readFileSync(join(this.dir, 'pids', `${name}.pid`), 'utf8'));
  }

  log(name: string): string {
    return readFileSync(join(this.dir, 'logs', `${name}.log`), 'utf8');
  }

  get lb(): number {
    return this.ports.LB_PORT ?? 0;
  }

  etcdEndpoints(): string {
    return [1, 2, 3].map((i) => `http://127.0.0.1:${this.ports[`ETCD${i}_CLIENT`]}`).join(',');
  }

  /** One HTTPS request; rejects on connection errors (reset, refused), resolves with any HTTP answer. */
  call(method: string, port: number, path: string, body?: unknown, timeoutMs = 30_000): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      const req = request({ host: '127.0.0.1', port, path, method, agent: this.agent, timeout: timeoutMs, headers: { authorization: this.authorization, ...(payload ? { 'content-type': 'application/json' } : {}) } }, (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', reject);
      req.end(payload);
    });
  }
}

export function etcdctl(endpoints: string, ...args: string[]): Promise<string> {
  return promisify(execFile)('etcdctl', [`--endpoints=${endpoints}`, ...args], { env: { ...process.env, ETCDCTL_API: '3' }, maxBuffer: 64 << 20 }).then((r) => r.stdout);
}

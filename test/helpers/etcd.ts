// Test etcd: a testcontainers etcd container where a Docker engine is reachable, a local etcd process otherwise.
import { mkdtempSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';

export interface TestEtcd {
  clientUrl: string;
  stop(): Promise<void>;
  /** Stops the etcd process and starts it again on the same data and ports (local processes only). */
  restart?(downMs: number): Promise<void>;
}

const ETCD_IMAGE = 'quay.io/coreos/etcd:v3.4.23';

function dockerEngineReachable(): boolean {
  return Boolean(process.env['DOCKER_HOST']) || existsSync('/var/run/docker.sock');
}

async function startContainer(): Promise<TestEtcd> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer(ETCD_IMAGE)
    .withCommand([
      'etcd',
      '--listen-client-urls',
      'http://0.0.0.0:2379',
      '--advertise-client-urls',
      'http://0.0.0.0:2379',
    ])
    .withExposedPorts(2379)
    .withWaitStrategy(Wait.forLogMessage(/ready to serve client requests/))
    .start();
  return {
    clientUrl: `http://${container.getHost()}:${container.getMappedPort(2379)}`,
    stop: async () => {
      await container.stop();
    },
  };
}

async function startProcess(): Promise<TestEtcd> {
  const dir = mkdtempSync(join(tmpdir(), 'orch-etcd-'));
  let etcd = await startEmbeddedEtcd(dir);
  const ports = { client: Number(new URL(etcd.clientUrl).port), peer: etcd.peerPort };
  return {
    clientUrl: etcd.clientUrl,
    stop: async () => {
      await etcd.stop();
      rmSync(dir, { recursive: true, force: true });
    },
    restart: async (downMs: number) => {
      await etcd.stop();
      await new Promise((r) => setTimeout(r, downMs));
      etcd = await startEmbeddedEtcd(dir, undefined, ports);
    },
  };
}

export async function startTestEtcd(): Promise<TestEtcd> {
  if (dockerEngineReachable() && process.env['ORCH_TEST_ETCD'] !== 'process') {
    try {
      return await startContainer();
    } catch {
      // Docker socket present but no engine answering: fall back to a local process.
    }
  }
  return startProcess();
}

export interface EtcdForTests {
  etcd(): TestEtcd;
  client(): import('etcd3').Etcd3;
  /** Another client of the same etcd (as a second apiserver process would have), closed after the file. */
  newClient(): import('etcd3').Etcd3;
}

/**
 * Starts one test etcd and one etcd3 client for the enclosing test file (beforeAll) and stops both (afterAll).
 * Call at the top level of a test file; the accessors are valid inside tests and hooks.
 */
export function useTestEtcd(): EtcdForTests {
  let etcd: TestEtcd | undefined;
  let client: import('etcd3').Etcd3 | undefined;
  let Etcd3Class: typeof import('etcd3').Etcd3 | undefined;
  const extra: import('etcd3').Etcd3[] = [];
  beforeAll(async () => {
    etcd = await startTestEtcd();
    Etcd3Class = (await import('etcd3')).Etcd3;
    client = new Etcd3Class({ hosts: etcd.clientUrl });
  });
  afterAll(async () => {
    for (const c of extra.splice(0)) c.close();
    client?.close();
    await etcd?.stop();
  });
  return {
    etcd: () => {
      if (!etcd) throw new Error('test etcd is not started yet (use it inside tests or hooks)');
      return etcd;
    },
    client: () => {
      if (!client) throw new Error('test etcd client is not started yet (use it inside tests or hooks)');
      return client;
    },
    newClient: () => {
      if (!etcd || !Etcd3Class) throw new Error('test etcd is not started yet (use it inside tests or hooks)');
      const c = new Etcd3Class({ hosts: etcd.clientUrl });
      extra.push(c);
      return c;
    },
  };
}

// The etcd the server talks to: the embedded one under --data-dir when no --etcd-servers are given, a client, and
// the wait until it answers.
import { join } from 'node:path';
import type { Etcd3 } from 'etcd3';
import type { Logger } from 'pino';
import { newEtcdClient } from '../../storage/etcd/client';
import { setEtcdFailureLogger } from '../../storage/etcd/failure-log';
import { EtcdStorage } from '../../storage/etcd/store';
import type { Storage } from '../../storage/storage';
import type { ServerOptions } from '../options/options';
import type { EtcdCredentials } from '../etcd-tls';
import { startEmbeddedEtcd, type EmbeddedEtcd } from '../embedded-etcd';

const ETCD_CONNECT_TIMEOUT_MS = 30_000;

export interface EtcdConnection {
  embedded: EmbeddedEtcd | undefined;
  client: Etcd3;
  storage: EtcdStorage;
}

/** Connects (starting the embedded etcd first if needed) and waits until etcd answers; `undo` gets each step's cleanup. */
export async function connectEtcd(
  options: ServerOptions,
  credentials: EtcdCredentials | undefined,
  log: Logger,
  undo: Array<() => unknown>,
): Promise<EtcdConnection> {
  let embedded: EmbeddedEtcd | undefined;
  let etcdServers = options.etcdServers;
  if (etcdServers.length === 0) {
    embedded = await startEmbeddedEtcd(join(options.dataDir, 'etcd'), (line) =>
      log.debug({ etcd: line }, 'embedded etcd output'),
    );
    etcdServers = [embedded.clientUrl];
    log.info({ clientUrl: embedded.clientUrl, dataDir: options.dataDir }, 'embedded etcd started');
    const started = embedded;
    undo.push(() => started.stop());
  }
  setEtcdFailureLogger(log.child({ component: 'etcd' }));
  const client = newEtcdClient(etcdServers, {
    dialTimeout: 5000,
    ...(credentials && !embedded ? { credentials: credentials as { rootCertificate: Buffer } } : {}),
  });
  undo.push(() => client.close());
  const storage = new EtcdStorage(client);
  await waitForEtcd(storage, log);
  return { embedded, client, storage };
}

async function waitForEtcd(storage: Storage, log: Logger): Promise<void> {
  const deadline = Date.now() + ETCD_CONNECT_TIMEOUT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      await storage.ping();
      return;
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`etcd is not reachable: ${err instanceof Error ? err.message : String(err)}`);
      if (attempt === 1) log.warn({ err }, 'waiting for etcd');
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}

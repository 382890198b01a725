// One benchmark's fixture: an embedded etcd in a temporary directory and the built server as a child process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd, type EmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { startServerProcess, type ServerProcess } from './server-process';

/** Runs `body` against a fresh etcd and server (node flags `nodeArgs`, server flags `serverArgs`), then stops both and removes the data. */
export async function withBenchServer<T>(
  name: string,
  body: (server: ServerProcess, etcdUrl: string) => Promise<T>,
  nodeArgs: string[] = [],
  serverArgs: string[] = [],
): Promise<T> {
  const dataDir = mkdtempSync(join(tmpdir(), `orch-bench-${name}-`));
  let etcd: EmbeddedEtcd | undefined;
  let server: ServerProcess | undefined;
  try {
    etcd = await startEmbeddedEtcd(join(dataDir, 'etcd'));
    server = await startServerProcess(etcd.clientUrl, nodeArgs, serverArgs);
    return await body(server, etcd.clientUrl);
  } finally {
    await server?.stop().catch(() => undefined);
    await etcd?.stop().catch(() => undefined);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The script's entry: failures print their stack and exit 1. */
export function runBench(main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}

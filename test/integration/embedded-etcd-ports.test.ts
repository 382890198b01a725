// The embedded etcd's start when a port it was given, or had probed as free, is bound by another process.
import { createServer, type Server } from 'node:net';
import { mkdtempSync, rmSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmbeddedEtcd, isAddressInUse } from '../../lib/server/embedded-etcd';
import { freePort } from '../../lib/server/free-port';

function listenOn(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy()); // the start's own etcd client dials it too
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

describe('embedded etcd ports', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'orch-etcd-ports-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('names the taken port as the reason, and leaves the data directory unwritten', async () => {
    const taken = await listenOn(0);
    const address = taken.address();
    const client = typeof address === 'object' && address ? address.port : 0;
    try {
      const started = startEmbeddedEtcd(join(dir, 'etcd'), undefined, { client, peer: await freePort() });
      const err: unknown = await started.then(
        async (etcd) => {
          await etcd.stop();
          return undefined;
        },
        (e: unknown) => e,
      );
      expect(isAddressInUse(err)).toBe(true);
      expect(String(err)).toContain(`127.0.0.1:${client}`);
      expect(readdirSync(join(dir, 'etcd'))).toEqual([]);
    } finally {
      taken.close();
    }
  });

  it('serves on fresh ports when given none', async () => {
    const etcd = await startEmbeddedEtcd(join(dir, 'etcd'));
    try {
      expect(etcd.clientUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    } finally {
      await etcd.stop();
    }
  });
});

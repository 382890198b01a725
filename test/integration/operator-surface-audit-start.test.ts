// Start-up as kube-apiserver 1.26 orders it: the listener is created first (SecureServingOptions.ApplyTo), so a port
// that cannot be bound stops the server before it reads its files or writes anything to etcd.
import { createServer } from 'node:net';
import pino from 'pino';
import { ApiServer } from '../../lib/server/server';
import { parseCommandLine } from '../../lib/server/options/options';
import { useTestEtcd } from '../helpers/etcd';

const etcd = useTestEtcd();

it("a taken port stops start-up with Go's listener text before etcd is written", async () => {
  const blocker = createServer();
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const port = (blocker.address() as { port: number }).port;
  try {
    const parsed = parseCommandLine([
      `--port=${port}`,
      `--etcd-servers=${etcd.etcd().clientUrl}`,
      '--etcd-prefix=/operator-port-taken',
      '--tls-cert-file=/nonexistent.crt',
      '--tls-private-key-file=/nonexistent.key',
    ]);
    if (parsed.help) throw new Error('unexpected --help');
    await expect(ApiServer.start(parsed.options, pino({ level: 'silent' }))).rejects.toThrow(
      new Error(
        `failed to create listener: failed to listen on 127.0.0.1:${port}: listen tcp 127.0.0.1:${port}: bind: address already in use`,
      ),
    );
    expect(await etcd.client().getAll().prefix('/operator-port-taken/').keys()).toEqual([]);
  } finally {
    blocker.close();
  }
});

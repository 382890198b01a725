// etcd out of space (its NOSPACE alarm), as an operator meets it: writes answer 1.26's Status for an etcd error that
// is not a storage error (ErrorToAPIStatus: 500, no reason, etcd's text), and a server started on such an etcd
// exits 1 with that text (its clean-up of the failed start is bounded) instead of stalling or exiting 0.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Etcd3 } from 'etcd3';
import { freePort } from '../../lib/server/free-port';
import { startServerOnEtcd } from '../helpers/test-server';
import { APISERVER_BINARY } from '../helpers/binary-server';

const NO_SPACE = 'etcdserver: mvcc: database space exceeded';

let etcd: ChildProcess | undefined;
let dir = '';
let clientUrl = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'orch-etcd-quota-'));
  const [client, peer] = [await freePort(), await freePort()];
  clientUrl = `http://127.0.0.1:${client}`;
  etcd = spawn(
    'etcd',
    [
      `--data-dir=${join(dir, 'data')}`,
      '--quota-backend-bytes=4000000',
      `--listen-client-urls=${clientUrl}`,
      `--advertise-client-urls=${clientUrl}`,
      `--listen-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-advertise-peer-urls=http://127.0.0.1:${peer}`,
      `--initial-cluster=default=http://127.0.0.1:${peer}`,
    ],
    { stdio: 'ignore' },
  );
  const probe = new Etcd3({ hosts: clientUrl });
  for (let i = 0; ; i++) {
    try {
      await probe.get('probe');
      break;
    } catch (err) {
      if (i > 100) throw err;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  probe.close();
});

afterAll(() => {
  etcd?.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Creates service accounts with large annotations until etcd refuses a write for lack of space; returns that answer. */
async function fillThroughServer(api: import('../helpers/test-server').ApiClient): Promise<unknown> {
  const big = 'x'.repeat(200_000);
  for (let i = 0; i < 100; i++) {
    const res = await api.request('POST', '/api/v1/namespaces/default/serviceaccounts', {
      metadata: { name: `big${i}`, annotations: { a: big } },
    });
    if (res.status !== 201) return { status: res.status, body: res.body };
  }
  throw new Error('etcd never ran out of space');
}

it("answers a write etcd refuses for lack of space with 1.26's reason-less 500 and etcd's text, then exits 1 on a new start", async () => {
  const { server, api } = await startServerOnEtcd([clientUrl], ['--etcd-prefix=/space']);
  try {
    expect(await fillThroughServer(api)).toEqual({
      status: 500,
      body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: NO_SPACE, code: 500 },
    });
  } finally {
    await server.shutdown();
  }
  // A fresh server cannot write its bootstrap objects: it reports why and exits 1.
  const started = Date.now();
  const res = spawnSync(
    process.execPath,
    [APISERVER_BINARY, '--port=0', `--etcd-servers=${clientUrl}`, '--etcd-prefix=/space'],
    { encoding: 'utf8', timeout: 40_000, maxBuffer: 64 << 20 },
  );
  expect({ code: res.status, stderr: res.stderr }).toEqual({ code: 1, stderr: `Error: ${NO_SPACE}\n` });
  expect(Date.now() - started).toBeLessThan(30_000);
}, 90_000);

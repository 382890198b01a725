// --etcd-cafile, --etcd-certfile, --etcd-keyfile: the server talks to an etcd that requires client certificates
// (etcd --client-cert-auth --trusted-ca-file --cert-file --key-file, certificates made by openssl).
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { TestPki } from '../helpers/pki';
import { startServerOnEtcd, createNamespace, eventually, type ApiClient } from '../helpers/test-server';
import { findEtcdBinary, ETCD_INSTALL_HINT } from '../../lib/server/embedded-etcd';
import { freePort } from '../../lib/server/free-port';
import { parseCommandLine } from '../../lib/server/options/options';
import { ApiServer } from '../../lib/server/server';
import pino from 'pino';
import type { CertFiles } from '../helpers/pki';
import { collectionPath, etcdKey, hpa } from '../faults/write-load';

jest.setTimeout(60_000);

let pki: TestPki;
let client: CertFiles;
let etcd: ChildProcess | undefined;
let etcdUrl = '';
let dataDir = '';
let server: ApiServer | undefined;
let api: ApiClient;

function etcdctl(...args: string[]): Promise<{ ok: boolean; out: string }> {
  return promisify(execFile)('etcdctl', [`--endpoints=${etcdUrl}`, '--command-timeout=3s', ...args], {
    env: { ...process.env, ETCDCTL_API: '3' },
  }).then(
    (r) => ({ ok: true, out: r.stdout }),
    (err: { stdout?: string; stderr?: string }) => ({ ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
  );
}

beforeAll(async () => {
  const binary = findEtcdBinary();
  if (!binary) throw new Error(ETCD_INSTALL_HINT);
  pki = new TestPki('etcd-ca');
  client = pki.client('apiserver-etcd-client', 'kube-apiserver-etcd-client');
  dataDir = mkdtempSync(join(tmpdir(), 'orch-etcd-tls-'));
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  etcdUrl = `https://127.0.0.1:${clientPort}`;
  const peerUrl = `http://127.0.0.1:${peerPort}`;
  etcd = spawn(
    binary,
    [
      '--name',
      'tls',
      '--data-dir',
      dataDir,
      '--listen-client-urls',
      etcdUrl,
      '--advertise-client-urls',
      etcdUrl,
      '--listen-peer-urls',
      peerUrl,
      '--initial-advertise-peer-urls',
      peerUrl,
      '--initial-cluster',
      `tls=${peerUrl}`,
      '--client-cert-auth',
      '--trusted-ca-file',
      pki.ca.cert,
      '--cert-file',
      pki.serving.cert,
      '--key-file',
      pki.serving.key,
      '--logger',
      'zap',
      '--log-level',
      'warn',
    ],
    { stdio: 'ignore' },
  );
  const tls = [`--cacert=${pki.ca.cert}`, `--cert=${client.cert}`, `--key=${client.key}`];
  await eventually(async () => (await etcdctl(...tls, 'endpoint', 'health')).ok, 20_000, 'the TLS etcd to serve');
  const started = await startServerOnEtcd(
    [etcdUrl],
    [`--etcd-cafile=${pki.ca.cert}`, `--etcd-certfile=${client.cert}`, `--etcd-keyfile=${client.key}`],
  );
  server = started.server;
  api = started.api;
});

afterAll(async () => {
  await server?.shutdown();
  if (etcd && etcd.exitCode === null) {
    const exited = new Promise((r) => etcd?.once('exit', r));
    etcd.kill('SIGKILL');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
  pki?.remove();
});

describe('etcd with client certificate authentication', () => {
  it('refuses a client without a certificate of its CA (so the server below really used its flags)', async () => {
    const noCert = await etcdctl(`--cacert=${pki.ca.cert}`, 'get', 'x');
    expect(noCert.ok).toBe(false);
    expect(noCert.out).toMatch(/context deadline exceeded|certificate/);
  });

  it('serves reads and writes through the TLS connection, and the objects are in that etcd', async () => {
    await createNamespace(api, 'tls-ns');
    const created = await api.post(collectionPath('tls-ns'), hpa('over-tls'));
    expect(`${created.status} ${created.text}`).toMatch(/^201 /);
    expect((await api.get(`${collectionPath('tls-ns')}/over-tls`)).body?.spec?.maxReplicas).toBe(3);
    expect((await api.get('/readyz?verbose')).text).toContain('[+]etcd ok');
    const stored = await etcdctl(
      `--cacert=${pki.ca.cert}`,
      `--cert=${client.cert}`,
      `--key=${client.key}`,
      'get',
      '--print-value-only',
      etcdKey('tls-ns', 'over-tls'),
    );
    expect(stored.ok).toBe(true);
    expect(JSON.parse(stored.out)).toMatchObject({ metadata: { name: 'over-tls' }, spec: { maxReplicas: 3 } });
  });

  it('stops start-up with the path when a TLS file is missing', async () => {
    const parsed = parseCommandLine([
      '--port=0',
      `--etcd-servers=${etcdUrl}`,
      `--etcd-cafile=${pki.ca.cert}`,
      `--etcd-certfile=${client.cert}`,
      '--etcd-keyfile=/nonexistent/etcd.key',
    ]);
    if (parsed.help) throw new Error('unexpected --help');
    await expect(ApiServer.start(parsed.options, pino({ level: 'silent' }))).rejects.toThrow(
      'unable to load --etcd-keyfile "/nonexistent/etcd.key": open /nonexistent/etcd.key: no such file or directory',
    );
  });
});

// orch-loadtest against an HTTPS server that wants a bearer token: loaded through a kubeconfig with its CA and token,
// refusing an unknown certificate unless told --insecure-skip-tls-verify, and saying so when the token is missing.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultJson } from '../../lib/loadtest/run';
import { runLoadtestCli } from '../helpers/loadtest-cli';
import { startServer, stop } from './loadtest-fault-server';

jest.setTimeout(120_000);

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'lt-errors-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an HTTPS server that wants a bearer token', () => {
  let tls: { key: Buffer; cert: Buffer };
  beforeAll(() => {
    const key = join(dir, 'tls.key');
    const cert = join(dir, 'tls.crt');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-keyout',
        key,
        '-out',
        cert,
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
      ],
      { stdio: 'ignore' },
    );
    tls = { key: readFileSync(key), cert: readFileSync(cert) };
  });

  const quick = [
    '--duration',
    '2s',
    '--warmup',
    '0s',
    '--rate',
    '20',
    '--seed',
    '5',
    '--watchers',
    '0',
    '--initial-objects',
    '2',
  ];

  it('is loaded through a kubeconfig with its CA and token, the token on every request', async () => {
    const { server, url, tally } = await startServer({ tls, token: 's3cret', faults: false });
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(
      kubeconfig,
      `apiVersion: v1
kind: Config
current-context: test
contexts: [{name: test, context: {cluster: c, user: u}}]
clusters: [{name: c, cluster: {server: "${url}", certificate-authority-data: ${tls.cert.toString('base64')}}}]
users: [{name: u, user: {token: s3cret}}]
`,
    );
    try {
      const run = await runLoadtestCli([...quick, '--kubeconfig', kubeconfig, '--out', join(dir, 'tls')]);
      expect(run.code).toBe(0);
      const result = JSON.parse(readFileSync(join(dir, 'tls', 'result.json'), 'utf8')) as ResultJson;
      expect(result.totals.errors).toBe(0);
      expect(result.target).toMatchObject({ server: url, embedded: false, version: 'v1.26.0-test' });
    } finally {
      await stop(server);
    }
    expect(tally.requests).toBeGreaterThan(40);
    expect(tally.unauthorized).toBe(0);
    // The run cleaned up after itself: the objects by label, then the namespaces.
    expect(tally.paths).toContain('DELETE /apis/apps/v1/namespaces/lt-s5-0/deployments');
    expect(tally.paths).toContain('DELETE /api/v1/namespaces/NAME');
  });

  it('refuses an unknown certificate unless told --insecure-skip-tls-verify, and says so when the token is missing', async () => {
    const { server, url } = await startServer({ tls, token: 's3cret', faults: false });
    try {
      const refused = await runLoadtestCli([...quick, '--server', url, '--out', join(dir, 'tls2')]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /cannot reach https:\/\/127\.0\.0\.1:\d+\/: (DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN)/,
      );
      const insecure = await runLoadtestCli([
        ...quick,
        '--server',
        url,
        '--insecure-skip-tls-verify',
        '--token',
        's3cret',
        '--out',
        join(dir, 'tls3'),
      ]);
      expect(insecure.code).toBe(0);
      const noToken = await runLoadtestCli([
        ...quick,
        '--server',
        url,
        '--insecure-skip-tls-verify',
        '--out',
        join(dir, 'tls4'),
      ]);
      expect(noToken.code).toBe(1);
      expect(noToken.stderr).toMatch(
        /answered 401 Unauthorized to GET \/version: give credentials with --token or --kubeconfig/,
      );
    } finally {
      await stop(server);
    }
  });
});

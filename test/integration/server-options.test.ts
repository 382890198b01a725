import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import pino from 'pino';
import { ApiServer } from '../../lib/server/server';
import { parseCommandLine } from '../../lib/server/options/options';
import { startTestEtcd, type TestEtcd } from '../helpers/etcd';

let etcd: TestEtcd;
beforeAll(async () => {
  etcd = await startTestEtcd();
});
afterAll(() => etcd.stop());

function optionsFor(flags: string[]) {
  const parsed = parseCommandLine(['--port=0', `--etcd-servers=${etcd.clientUrl}`, ...flags]);
  if (parsed.help) throw new Error('unexpected help');
  return parsed.options;
}

describe('request logging', () => {
  it('at debug, writes one structured line per request with verb, path, code, latency and user agent', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean))
          lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    const server = await ApiServer.start(optionsFor(['--etcd-prefix=/logging']), pino({ level: 'debug' }, sink));
    try {
      await fetch(`${server.url}/apis/apps/v1/namespaces/default/deployments/nope`, {
        headers: { 'User-Agent': 'log-test/1.0' },
      });
      const line = lines.find((l) => l['msg'] === 'request completed' && l['userAgent'] === 'log-test/1.0');
      expect(line).toMatchObject({
        verb: 'GET',
        path: '/apis/apps/v1/namespaces/default/deployments/nope',
        resource: 'deployments',
        namespace: 'default',
        name: 'nope',
        code: 404,
      });
      expect(typeof line?.['latencyMs']).toBe('number');
    } finally {
      await server.shutdown();
    }
  });
});

describe('TLS', () => {
  it('serves HTTPS on the same port when a certificate and key are given', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'orch-tls-'));
    try {
      const cert = join(dir, 'tls.crt');
      const key = join(dir, 'tls.key');
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
        ],
        { stdio: 'ignore' },
      );
      const server = await ApiServer.start(
        optionsFor([`--tls-cert-file=${cert}`, `--tls-private-key-file=${key}`, '--etcd-prefix=/tls']),
        pino({ level: 'silent' }),
      );
      try {
        expect(server.url).toMatch(/^https:/);
        const body = await new Promise<string>((resolve, reject) => {
          request(`${server.url}/readyz`, { rejectUnauthorized: false }, (res) => {
            let text = '';
            res.on('data', (c: Buffer) => (text += c.toString()));
            res.on('end', () => resolve(text));
          })
            .on('error', reject)
            .end();
        });
        expect(body).toBe('ok');
      } finally {
        await server.shutdown();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('--livez-grace-period', () => {
  it('keeps /livez passing during the grace period while /readyz reports the lost etcd', async () => {
    const ownEtcd = await startTestEtcd();
    const parsed = parseCommandLine(['--port=0', `--etcd-servers=${ownEtcd.clientUrl}`, '--livez-grace-period=1h']);
    if (parsed.help) throw new Error('unexpected help');
    const server = await ApiServer.start(parsed.options, pino({ level: 'silent' }));
    try {
      await ownEtcd.stop();
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(500);
      expect(await ready.text()).toContain('[-]etcd failed: reason withheld');
      const live = await fetch(`${server.url}/livez?verbose`);
      expect(live.status).toBe(200);
      expect(await live.text()).toContain('[+]etcd ok');
    } finally {
      await server.shutdown();
    }
  });
});

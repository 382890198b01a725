// What an operator meets around the API: the TLS port, start-up checks of the files the flags name, and metrics,
// as kube-apiserver 1.26 answers them.
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { ApiServer } from '../../lib/server/server';
import { parseCommandLine } from '../../lib/server/options/options';
import { startServerOnEtcd } from '../helpers/test-server';
import { useTestEtcd } from '../helpers/etcd';
import { TestPki } from '../helpers/pki';
import { httpsRequest } from '../helpers/https-client';
import { APISERVER_BINARY } from '../helpers/binary-server';

const etcd = useTestEtcd();
const pki = new TestPki();
afterAll(() => pki.remove());

/** Sends `parts` (one write each, a pause between) on a raw TCP connection and resolves with all it receives until close. */
function rawExchange(port: number, parts: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    socket.on('data', (d: Buffer) => received.push(d));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(received).toString('latin1')));
    socket.on('connect', () => {
      void (async () => {
        for (const part of parts) {
          socket.write(part);
          await new Promise((r) => setTimeout(r, 50));
        }
      })();
    });
  });
}

describe('the TLS port', () => {
  let server: ApiServer | undefined;
  afterAll(async () => server?.shutdown());

  it("answers a plain HTTP request with Go's 400 (net/http: client sent an HTTP request to an HTTPS server) and keeps serving TLS", async () => {
    const started = await startServerOnEtcd(
      [etcd.etcd().clientUrl],
      [
        `--tls-cert-file=${pki.serving.cert}`,
        `--tls-private-key-file=${pki.serving.key}`,
        `--client-ca-file=${pki.ca.cert}`,
        '--etcd-prefix=/operator-tls',
      ],
    );
    server = started.server;
    const port = Number(new URL(started.url).port);
    const answer = 'HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n';
    expect(await rawExchange(port, ['GET /api HTTP/1.1\r\nHost: x\r\n\r\n'])).toBe(answer);
    // The request line may arrive in pieces; each of Go's five-byte starts counts.
    expect(await rawExchange(port, ['PO', 'ST /api/v1/namespaces HTTP/1.1\r\nHost: x\r\n\r\n'])).toBe(answer);
    expect(await rawExchange(port, ['OPTIONS / HTTP/1.1\r\n\r\n'])).toBe(answer);
    const ca = pki.read(pki.ca).cert;
    const version = await httpsRequest('GET', `${started.url}/version`, { ca });
    expect(version.status).toBe(200);
    const alice = pki.read(pki.client('op-alice', 'alice', ['devs']));
    const whoami = await httpsRequest('POST', `${started.url}/apis/authentication.k8s.io/v1/tokenreviews`, {
      ca,
      ...alice,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', spec: { token: 'x' } }),
    });
    expect(whoami.status).toBe(201);
  });
});

describe('start-up checks of the serving certificate and the client CA', () => {
  const dir = pki.dir;
  const write = (name: string, text: string | Buffer): string => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  async function startError(flags: string[], prefix: string): Promise<string> {
    const parsed = parseCommandLine([
      '--port=0',
      `--etcd-servers=${etcd.etcd().clientUrl}`,
      `--etcd-prefix=${prefix}`,
      ...flags,
    ]);
    if (parsed.help) throw new Error('unexpected --help');
    let message = '';
    try {
      const server = await ApiServer.start(parsed.options, pino({ level: 'silent' }));
      await server.shutdown();
    } catch (err) {
      message = (err as Error).message;
    }
    // Nothing was written: the files are checked before etcd is touched, as kube-apiserver loads them first.
    const written = await etcd.client().getAll().prefix(`${prefix}/`).keys();
    expect(written).toEqual([]);
    return message;
  }

  it.each([
    ['a certificate file without PEM data', 'garbage', 'key', 'tls: failed to find any PEM data in certificate input'],
    [
      'the key and certificate switched',
      'key',
      'cert',
      'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
    ],
    [
      'a certificate given as the key',
      'cert',
      'cert',
      'tls: found a certificate rather than a key in the PEM for the private key',
    ],
    ['a key of another certificate', 'cert', 'other-key', 'tls: private key does not match public key'],
  ])("%s stops start-up with Go's tls.X509KeyPair text", async (_what, certKind, keyKind, message) => {
    const serving = pki.read(pki.serving);
    const other = pki.read(pki.client('op-other', 'other'));
    const files: Record<string, string> = {
      garbage: write('garbage.pem', 'not a certificate\n'),
      key: pki.serving.key,
      cert: pki.serving.cert,
      'other-key': write('other.key', other.key),
    };
    expect(serving.cert.length).toBeGreaterThan(0);
    const flags = [`--tls-cert-file=${files[certKind]}`, `--tls-private-key-file=${files[keyKind]}`];
    expect(await startError(flags, `/operator-bad-${certKind}-${keyKind}`)).toBe(message);
  });

  it('a missing certificate file is Go\'s "open <file>: no such file or directory"', async () => {
    const flags = [`--tls-cert-file=${join(dir, 'absent.crt')}`, `--tls-private-key-file=${pki.serving.key}`];
    expect(await startError(flags, '/operator-absent')).toBe(
      `open ${join(dir, 'absent.crt')}: no such file or directory`,
    );
  });

  it("a client CA file without certificates, or empty, stops start-up with the dynamic CA loader's text", async () => {
    const tls = [`--tls-cert-file=${pki.serving.cert}`, `--tls-private-key-file=${pki.serving.key}`];
    const keyOnly = pki.serving.key;
    expect(await startError([...tls, `--client-ca-file=${keyOnly}`], '/operator-ca-key')).toBe(
      `unable to load client CA file "${keyOnly}": error loading CA bundle for "client-ca-bundle::${keyOnly}": data does not contain any valid RSA or ECDSA certificates`,
    );
    const empty = write('empty-ca.crt', '');
    expect(await startError([...tls, `--client-ca-file=${empty}`], '/operator-ca-empty')).toBe(
      `unable to load client CA file "${empty}": missing content for CA bundle "client-ca-bundle::${empty}"`,
    );
  });
});

describe('apiserver_current_inflight_requests and apiserver_current_inqueue_requests', () => {
  /** Sequential reads and dry-run creates for `ms`, so each of the last whole seconds saw both kinds executing. */
  async function busy(api: import('../helpers/test-server').ApiClient, ms: number): Promise<void> {
    const until = Date.now() + ms;
    while (Date.now() < until) {
      expect((await api.request('GET', '/api/v1/namespaces/default')).status).toBe(200);
      const created = await api.request('POST', '/api/v1/namespaces/default/serviceaccounts?dryRun=All', {
        metadata: { generateName: 'busy-' },
      });
      expect(created.status).toBe(201);
    }
  }

  const sample = (text: string, name: string, kind: string): number | undefined => {
    const line = text.split('\n').find((l) => l.startsWith(`${name}{request_kind="${kind}"} `));
    return line === undefined ? undefined : Number(line.split(' ')[1]);
  };

  it.each([
    ['priority and fairness', [], true],
    ['max-in-flight', ['--enable-priority-and-fairness=false'], false],
  ])(
    'with %s, publish each second the most executing requests per kind (STABLE, 1.26 requestWatermark)',
    async (_mode, flags, queues) => {
      const { server, api } = await startServerOnEtcd(
        [etcd.etcd().clientUrl],
        ['--etcd-prefix=/operator-inflight', ...(flags as string[])],
      );
      try {
        await busy(api, 2300);
        const text = (await api.request('GET', '/metrics')).text;
        expect(text).toContain(
          '# HELP apiserver_current_inflight_requests [STABLE] Maximal number of currently used inflight request limit of this apiserver per request kind in last second.\n# TYPE apiserver_current_inflight_requests gauge',
        );
        expect(sample(text, 'apiserver_current_inflight_requests', 'readOnly')).toBeGreaterThanOrEqual(1);
        expect(sample(text, 'apiserver_current_inflight_requests', 'mutating')).toBeGreaterThanOrEqual(1);
        if (queues) {
          expect(text).toContain(
            '# HELP apiserver_current_inqueue_requests [ALPHA] Maximal number of queued requests in this apiserver per request kind in last second.',
          );
          expect(sample(text, 'apiserver_current_inqueue_requests', 'readOnly')).toBe(0);
          expect(sample(text, 'apiserver_current_inqueue_requests', 'mutating')).toBe(0);
        } else {
          expect(text).not.toContain('apiserver_current_inqueue_requests');
        }
        // An idle second publishes zeros: the marks start again from zero every second.
        await new Promise((r) => setTimeout(r, 2100));
        const idle = (await api.request('GET', '/metrics')).text;
        expect(sample(idle, 'apiserver_current_inflight_requests', 'mutating')).toBe(0);
      } finally {
        await server.shutdown();
      }
    },
  );
});

describe('the command line, as kube-apiserver (cobra, pflag) answers it', () => {
  it.each([
    [['--x'], 'unknown flag: --x'],
    [['-x'], "unknown shorthand flag: 'x' in -x"],
    [['serve'], '"orch-apiserver" does not take any arguments, got ["serve"]'],
    [['--port', 'abc'], 'invalid argument "abc" for "--port" flag: strconv.ParseInt: parsing "abc": invalid syntax'],
    [['--port=70000'], '--port 70000 must be between 0 and 65535, inclusive'],
    [['--bind-address=nowhere'], 'invalid argument "nowhere" for "--bind-address" flag: failed to parse IP: "nowhere"'],
    [
      ['--max-requests-inflight=1e3'],
      'invalid argument "1e3" for "--max-requests-inflight" flag: strconv.ParseInt: parsing "1e3": invalid syntax',
    ],
    [['--shutdown-delay-duration=-1s'], '--shutdown-delay-duration can not be negative value'],
  ])('%j: exit code 1 and only "Error: <text>" on stderr (no usage, no hint)', (args, message) => {
    const res = spawnSync(process.execPath, [APISERVER_BINARY, ...args], { encoding: 'utf8', timeout: 20_000 });
    expect({ code: res.status, stderr: res.stderr, stdout: res.stdout }).toEqual({
      code: 1,
      stderr: `Error: ${message}\n`,
      stdout: '',
    });
  });
});

describe('etcd_request_duration_seconds', () => {
  it("labels every etcd request by resource (1.26's groupResourceString), those made while starting too", async () => {
    const { server, api } = await startServerOnEtcd([etcd.etcd().clientUrl], ['--etcd-prefix=/operator-etcd-types']);
    try {
      const text = (await api.request('GET', '/metrics')).text;
      const types = new Set(
        [...text.matchAll(/^etcd_request_duration_seconds_count\{operation="[^"]*",type="([^"]*)"\}/gm)].map(
          (m) => m[1],
        ),
      );
      expect(types).toContain('namespaces');
      expect(types).toContain('validatingwebhookconfigurations.admissionregistration.orch.io');
      expect([...types].filter((t) => t?.startsWith('/'))).toEqual([]);
    } finally {
      await server.shutdown();
    }
  });
});

describe('client certificates (x509 authenticator, CommonNameUserConversion)', () => {
  it('authenticates as the last CN of the subject, as Go reads pkix.Name, in the O groups', async () => {
    const { server, url } = await startServerOnEtcd(
      [etcd.etcd().clientUrl],
      [
        `--tls-cert-file=${pki.serving.cert}`,
        `--tls-private-key-file=${pki.serving.key}`,
        `--client-ca-file=${pki.ca.cert}`,
        '--authorization-mode=RBAC',
        '--etcd-prefix=/operator-x509',
      ],
    );
    try {
      const ca = pki.read(pki.ca).cert;
      const twoNames = pki.read(
        pki.issue('op-two-cn', '/CN=alice/CN=bob/O=devs/O=ops', ['extendedKeyUsage=clientAuth']),
      );
      const res = await httpsRequest('DELETE', `${url}/api/v1/namespaces/default/serviceaccounts/x`, {
        ca,
        ...twoNames,
      });
      expect(res.status).toBe(403);
      expect(JSON.parse(res.text).message).toBe(
        'serviceaccounts "x" is forbidden: User "bob" cannot delete resource "serviceaccounts" in API group "" in the namespace "default"',
      );
    } finally {
      await server.shutdown();
    }
  });
});

describe('apiserver_response_sizes', () => {
  it('records the body bytes of GET and LIST responses (STABLE, 1.26 MonitorRequest), not of writes', async () => {
    const { server, api } = await startServerOnEtcd([etcd.etcd().clientUrl], ['--etcd-prefix=/operator-sizes']);
    try {
      const got = await api.request('GET', '/api/v1/namespaces/default');
      const listed = await api.request('GET', '/api/v1/namespaces');
      await api.request('POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name: 'sized' } });
      const text = (await api.request('GET', '/metrics')).text;
      expect(text).toContain(
        '# HELP apiserver_response_sizes [STABLE] Response size distribution in bytes for each group, version, verb, resource, subresource, scope and component.\n# TYPE apiserver_response_sizes histogram',
      );
      const labels = (verb: string, resource: string, scope: string): string =>
        `{verb="${verb}",group="",version="v1",resource="${resource}",subresource="",scope="${scope}",component="apiserver"}`;
      expect(text).toContain(
        `apiserver_response_sizes_sum${labels('GET', 'namespaces', 'resource')} ${Buffer.byteLength(got.text)}\n`,
      );
      expect(text).toContain(`apiserver_response_sizes_count${labels('GET', 'namespaces', 'resource')} 1\n`);
      expect(text).toContain(
        `apiserver_response_sizes_sum${labels('LIST', 'namespaces', 'cluster')} ${Buffer.byteLength(listed.text)}\n`,
      );
      expect(text).not.toContain('apiserver_response_sizes_count{verb="POST"');
    } finally {
      await server.shutdown();
    }
  });
});

describe('shutdown with connections that never finish the TLS handshake', () => {
  it("closes them after Go's 5 s grace for new connections instead of waiting out the handshake timeout", async () => {
    const { server, url } = await startServerOnEtcd(
      [etcd.etcd().clientUrl],
      [
        `--tls-cert-file=${pki.serving.cert}`,
        `--tls-private-key-file=${pki.serving.key}`,
        '--etcd-prefix=/operator-stall',
      ],
    );
    const port = Number(new URL(url).port);
    const silent = connect(port, '127.0.0.1');
    const partial = connect(port, '127.0.0.1', () => partial.write(Buffer.from([0x16, 0x03, 0x01])));
    const closed = (s: typeof silent): Promise<void> => new Promise((resolve) => s.once('close', () => resolve()));
    for (const s of [silent, partial]) s.on('error', () => undefined).resume();
    await new Promise((r) => setTimeout(r, 200));
    const started = Date.now();
    const bothClosed = Promise.all([closed(silent), closed(partial)]);
    await server.shutdown();
    const seconds = (Date.now() - started) / 1000;
    await bothClosed;
    expect(seconds).toBeLessThan(8);
  }, 30_000);
});

// orch-loadtest against small Kubernetes-style servers that misbehave on purpose: 429 and 500 answers land in the
// right rows under their status codes; slow GETs break the SLO and --fail-on-slo exits 1; HTTPS with a kubeconfig's
// CA and token; watches that leave events out are counted as missed.
// The server speaks only the public API shapes (Kubernetes' flowcontrol.apiserver.k8s.io group, no orch names).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { execFileSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ResultJson } from '../../lib/loadtest/run';
import { runLoadtestCli } from '../helpers/loadtest-cli';

jest.setTimeout(120_000);

interface Tally {
  sent429: number;
  sent500: number;
  okGets: number;
  paths: Set<string>;
  /** Requests without the expected bearer token (answered 401). */
  unauthorized: number;
  requests: number;
  /** Writes whose watch event the server leaves out (resourceVersion divisible by 5), by resourceVersion. */
  dropped: number[];
  /** resourceVersion each watch first started from. */
  watchStarts: number[];
}

interface ServerOptions {
  slowGetMs?: number;
  /** Answer every 2nd single-object GET with 429 and every 3rd PATCH with 500 (default true). */
  faults?: boolean;
  tls?: { key: Buffer; cert: Buffer };
  token?: string;
  /** Serve watches, leaving out the events of every 5th resourceVersion. */
  lossyWatch?: boolean;
}

function startServer(o: ServerOptions = {}): Promise<{ server: Server; url: string; tally: Tally }> {
  const slowGetMs = o.slowGetMs ?? 0;
  const faults = o.faults ?? true;
  const tally: Tally = {
    sent429: 0,
    sent500: 0,
    okGets: 0,
    paths: new Set(),
    unauthorized: 0,
    requests: 0,
    dropped: [],
    watchStarts: [],
  };
  const history: Array<{ rv: number; line: string }> = [];
  const watches = new Set<ServerResponse>();
  let rv = 100;
  let gets = 0;
  let patches = 0;
  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void => {
    res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const status = (res: ServerResponse, code: number, reason: string, headers: Record<string, string> = {}): void =>
    json(
      res,
      code,
      { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: reason, reason, code },
      headers,
    );
  const handle = (req: IncomingMessage, res: ServerResponse, body: string): void => {
    const url = new URL(req.url ?? '/', 'http://x');
    const parts = url.pathname.split('/').filter(Boolean);
    tally.paths.add(`${req.method} ${url.pathname.replace(/\/lt-[^/]*$/, '/NAME')}`);
    tally.requests += 1;
    if (o.token !== undefined && req.headers.authorization !== `Bearer ${o.token}`) {
      tally.unauthorized += 1;
      return status(res, 401, 'Unauthorized');
    }
    if (url.pathname === '/version') return json(res, 200, { major: '1', minor: '26', gitVersion: 'v1.26.0-test' });
    if (url.pathname === '/apis') {
      return json(res, 200, {
        kind: 'APIGroupList',
        groups: [
          {
            name: 'flowcontrol.apiserver.k8s.io',
            versions: [{ groupVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', version: 'v1beta3' }],
            preferredVersion: { groupVersion: 'flowcontrol.apiserver.k8s.io/v1beta3', version: 'v1beta3' },
          },
        ],
      });
    }
    if (url.pathname === '/metrics') return status(res, 404, 'NotFound');
    // Object paths end in a name; collections in the resource.
    const named =
      parts.length > 0 &&
      parts[parts.length - 1]!.startsWith('lt-') &&
      !(parts[parts.length - 2] === 'namespaces' && req.method === 'POST');
    const obj = (bump = true): unknown => {
      if (bump) rv += 1;
      let parsed: { metadata?: Record<string, unknown> } = {};
      try {
        parsed = JSON.parse(body) as typeof parsed;
      } catch {
        // patches and deletes
      }
      return {
        ...parsed,
        metadata: { ...(parsed.metadata ?? {}), name: parts[parts.length - 1], resourceVersion: String(rv) },
      };
    };
    /** A successful write: its object, and its event for the watches (unless dropped). */
    const write = (code: number, type: string): void => {
      const o2 = obj();
      json(res, code, o2);
      if (!o.lossyWatch) return;
      if (rv % 5 === 0) {
        tally.dropped.push(rv);
        return;
      }
      const line = `${JSON.stringify({ type, object: o2 })}\n`;
      history.push({ rv, line });
      for (const w of watches) w.write(line);
    };
    switch (req.method) {
      case 'POST':
        return write(201, 'ADDED');
      case 'PUT':
        return write(200, 'MODIFIED');
      case 'DELETE':
        return write(200, 'DELETED');
      case 'PATCH':
        patches += 1;
        if (faults && patches % 3 === 0) {
          tally.sent500 += 1;
          return status(res, 500, 'InternalError');
        }
        return write(200, 'MODIFIED');
      case 'GET':
        if (!named && url.searchParams.get('watch') === '1' && o.lossyWatch) {
          const from = Number(url.searchParams.get('resourceVersion'));
          tally.watchStarts.push(from);
          res.writeHead(200, { 'Content-Type': 'application/json', 'Transfer-Encoding': 'chunked' });
          for (const h of history) if (h.rv > from) res.write(h.line);
          watches.add(res);
          res.on('close', () => watches.delete(res));
          return;
        }
        if (!named)
          return json(res, 200, {
            kind: 'List',
            apiVersion: 'v1',
            metadata: { resourceVersion: String(rv) },
            items: [],
          });
        gets += 1;
        if (faults && gets % 2 === 0) {
          tally.sent429 += 1;
          return status(res, 429, 'TooManyRequests', { 'Retry-After': '1' });
        }
        tally.okGets += 1;
        if (slowGetMs > 0) return void setTimeout(() => json(res, 200, obj(false)), slowGetMs);
        return json(res, 200, obj(false));
      default:
        return status(res, 405, 'MethodNotAllowed');
    }
  };
  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => handle(req, res, body));
  };
  const server: Server = o.tls
    ? createHttpsServer({ key: o.tls.key, cert: o.tls.cert }, listener)
    : createServer(listener);
  const scheme = o.tls ? 'https' : 'http';
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`, tally }),
    ),
  );
}

function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

let dir: string;
beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'lt-errors-'))));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sum = (rows: ResultJson['rows'], filter: (r: ResultJson['rows'][number]) => boolean, code: string): number =>
  rows.filter(filter).reduce((a, r) => a + (r.errorsByCode[code] ?? 0), 0);

describe('a server answering 429 and 500 on purpose', () => {
  it('records each 429 under its GET rows and each 500 under the PATCH rows, and counts nothing else as an error', async () => {
    const { server, url, tally } = await startServer();
    const out = join(dir, 'errors');
    let run;
    try {
      run = await runLoadtestCli([
        '--server',
        url,
        '--duration',
        '4s',
        '--warmup',
        '0s',
        '--rate',
        '60',
        '--seed',
        '3',
        '--watchers',
        '0',
        '--no-cleanup',
        '--out',
        out,
      ]);
    } finally {
      await stop(server);
    }
    expect(run.code).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as ResultJson;
    expect(tally.sent429).toBeGreaterThan(5);
    expect(tally.sent500).toBeGreaterThan(3);
    expect(sum(result.rows, (r) => r.op === 'get', '429')).toBe(tally.sent429);
    expect(sum(result.rows, (r) => ['patch-merge', 'patch-strategic', 'apply'].includes(r.op), '500')).toBe(
      tally.sent500,
    );
    expect(result.totals.errors).toBe(tally.sent429 + tally.sent500);
    for (const r of result.rows)
      expect(Object.keys(r.errorsByCode).every((c) => (r.op === 'get' ? c === '429' : c === '500'))).toBe(true);
    const gets = result.rows.filter((r) => r.op === 'get').reduce((a, r) => a + r.count, 0);
    expect(gets - sum(result.rows, (r) => r.op === 'get', '429')).toBe(tally.okGets);
    // The error timeline has them too, and the server figures say /metrics was not there.
    expect(result.timeline.reduce((a, i) => a + (i.errorsByCode['429'] ?? 0), 0)).toBe(tally.sent429);
    expect(result.server).toMatchObject({ available: false, error: 'GET /metrics answered 404' });
    // FlowSchemas were written through the Kubernetes group the server's discovery named.
    expect(tally.paths).toContain('POST /apis/flowcontrol.apiserver.k8s.io/v1beta3/flowschemas');
    expect(readFileSync(join(out, 'report.html'), 'utf8')).toMatch(
      /Errors per second by status \(\d+ in the measured phase\)/,
    );
  });

  it('exits 1 with --fail-on-slo when GETs take longer than the 1 s SLO, and 0 without it', async () => {
    const { server, url } = await startServer({ slowGetMs: 1200 });
    try {
      const args = [
        '--server',
        url,
        '--duration',
        '3s',
        '--warmup',
        '0s',
        '--rate',
        '20',
        '--seed',
        '3',
        '--watchers',
        '0',
        '--no-cleanup',
        '--kinds',
        'deployments',
        '--mix',
        'get=1,create=1',
      ];
      const failing = await runLoadtestCli([...args, '--fail-on-slo', '--out', join(dir, 'slo')]);
      expect(failing.code).toBe(1);
      expect(failing.stdout).toMatch(/FAIL {2}get deployments \(resource\)\s+p99\s+1[2-9]\d\d\.\d ms {2}≤ 1000 ms/);
      expect(failing.stdout).toMatch(/PASS {2}create deployments \(resource\)/);
      const result = JSON.parse(readFileSync(join(dir, 'slo', 'result.json'), 'utf8')) as ResultJson;
      expect(result.sloPass).toBe(false);
      expect(readFileSync(join(dir, 'slo', 'report.html'), 'utf8')).toMatch(/class="fail l">FAIL</);
      const lenient = await runLoadtestCli([...args, '--out', join(dir, 'slo2')]);
      expect(lenient.code).toBe(0);
    } finally {
      await stop(server);
    }
  });
});

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

describe('a server whose watches leave events out', () => {
  it('counts exactly the events each watch never received as missed', async () => {
    const { server, url, tally } = await startServer({ faults: false, lossyWatch: true });
    const out = join(dir, 'lossy');
    let run;
    try {
      run = await runLoadtestCli([
        '--server',
        url,
        '--duration',
        '3s',
        '--warmup',
        '0s',
        '--rate',
        '40',
        '--seed',
        '8',
        '--watchers',
        '2',
        '--kinds',
        'deployments',
        '--no-cleanup',
        '--out',
        out,
      ]);
    } finally {
      await stop(server);
    }
    expect(run.code).toBe(0);
    const result = JSON.parse(readFileSync(join(out, 'result.json'), 'utf8')) as ResultJson;
    expect(tally.watchStarts).toHaveLength(2);
    const expectedMissed = tally.watchStarts.reduce((a, from) => a + tally.dropped.filter((rv) => rv > from).length, 0);
    expect(expectedMissed).toBeGreaterThan(5);
    expect(result.watch.missedEvents).toBe(expectedMissed);
    expect(result.watch.receivedEvents).toBe(result.watch.expectedEvents - expectedMissed);
    expect(run.stdout).toMatch(new RegExp(`watch: 2 watches, \\d+/\\d+ events, ${expectedMissed} missed`));
  });
});

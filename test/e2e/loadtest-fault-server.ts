// A small Kubernetes-style server for the orch-loadtest tests that misbehaves on purpose: it answers 429 and 500,
// slows GETs down, wants HTTPS and a bearer token, or leaves events out of its watches, and tallies what it did.
// It speaks only the public API shapes (Kubernetes' flowcontrol.apiserver.k8s.io group, no orch names).
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';

export interface Tally {
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

export interface ServerOptions {
  slowGetMs?: number;
  /** Answer every 2nd single-object GET with 429 and every 3rd PATCH with 500 (default true). */
  faults?: boolean;
  tls?: { key: Buffer; cert: Buffer };
  token?: string;
  /** Serve watches, leaving out the events of every 5th resourceVersion. */
  lossyWatch?: boolean;
}

export function startServer(o: ServerOptions = {}): Promise<{ server: Server; url: string; tally: Tally }> {
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

export function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

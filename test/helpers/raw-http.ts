// HTTP requests read as sent: the body's bytes without transparent decompression, and the chunks of a chunked
// response as the server framed them (read from the socket, not through Node's HTTP client).
import { connect } from 'node:net';
import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET whose body is read as sent (no decompression, unlike fetch); `stopAfterMs` ends a stream early. */
export function rawGet(
  url: string,
  path: string,
  headers: Record<string, string>,
  stopAfterMs?: number,
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(url + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      const done = (): void =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      res.on('end', done);
      if (stopAfterMs !== undefined)
        setTimeout(() => {
          req.destroy();
          done();
        }, stopAfterMs);
    });
    req.on('error', (err) => (stopAfterMs === undefined ? reject(err) : undefined));
    req.end();
  });
}

export interface ChunkedResponse {
  head: string;
  /** The body's HTTP/1.1 chunks as framed by the server (the final empty chunk left out); empty unless chunked. */
  chunks: Buffer[];
}

/** A GET on a fresh connection (closed after the response), its chunked body split at the server's chunk frames. */
export function getChunks(url: string, path: string, headers: Record<string, string>): Promise<ChunkedResponse> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const received: Buffer[] = [];
    const lines = Object.entries({ ...headers, Host: `${hostname}:${port}`, Connection: 'close' })
      .map(([k, v]) => `${k}: ${v}\r\n`)
      .join('');
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\n${lines}\r\n`));
    socket.on('data', (c: Buffer) => received.push(c));
    socket.on('error', reject);
    socket.on('end', () => {
      const all = Buffer.concat(received);
      const headEnd = all.indexOf('\r\n\r\n');
      const head = all.subarray(0, headEnd).toString('latin1');
      const chunks: Buffer[] = [];
      if (/^transfer-encoding:\s*chunked/im.test(head)) {
        let at = headEnd + 4;
        for (;;) {
          const lineEnd = all.indexOf('\r\n', at);
          const size = parseInt(all.subarray(at, lineEnd).toString('latin1'), 16);
          if (!(size > 0)) break;
          chunks.push(all.subarray(lineEnd + 2, lineEnd + 2 + size));
          at = lineEnd + 2 + size + 2;
        }
      }
      resolve({ head, chunks });
    });
  });
}

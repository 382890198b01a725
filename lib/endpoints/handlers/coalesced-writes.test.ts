// Small parts gathered into chunks arrive byte for byte as given, in order, across chunk boundaries and beside
// parts written as they are; a client that goes away mid-body ends the write (false) instead of leaving it
// waiting, and the next response is whole.
import { createServer, get, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CHUNK_BYTES, writeCoalesced } from './coalesced-writes';

let server: Server;
let port: number;
let serve: (res: ServerResponse) => Promise<void>;

beforeAll(async () => {
  server = createServer((_req, res) => void serve(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/** Parts of every size class: single bytes, items a few KiB long, one longer than a chunk, one crossing chunks. */
function sampleParts(): Buffer[] {
  const parts: Buffer[] = [];
  for (let i = 0; i < 3000; i++) {
    parts.push(Buffer.from(i === 0 ? '{"items":[' : ','));
    parts.push(Buffer.alloc(100 + ((i * 997) % 5000), 97 + (i % 26)));
    if (i === 1000) parts.push(Buffer.alloc(CHUNK_BYTES * 3 + 7, 0x5a));
    if (i === 2000) parts.push(Buffer.alloc(CHUNK_BYTES - 1, 0x59));
  }
  parts.push(Buffer.from(']}'));
  return parts;
}

function fetchBody(): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get({ port, host: '127.0.0.1', path: '/' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks)));
      res.on('error', reject);
    }).on('error', reject);
  });
}

it('sends every part in order, byte for byte, with the Content-Length of their sum', async () => {
  const parts = sampleParts();
  const expected = Buffer.concat(parts);
  let finished: boolean | undefined;
  serve = async (res) => {
    res.writeHead(200, { 'Content-Length': expected.length });
    finished = await writeCoalesced(res, res, parts);
    res.end();
  };
  for (let round = 0; round < 3; round++) {
    // Later rounds reuse the chunks the earlier ones returned to the pool.
    const body = await fetchBody();
    expect(body.length).toBe(expected.length);
    expect(body.equals(expected)).toBe(true);
    expect(finished).toBe(true);
  }
});

it('stops with false when the client goes away mid-body, and the next body is whole', async () => {
  const parts = sampleParts();
  const huge = Array.from({ length: 200 }, () => parts).flat(); // ≈ 600 MiB: more than the socket can buffer
  let outcome: Promise<boolean> | undefined;
  serve = async (res) => {
    res.writeHead(200, { 'Content-Length': huge.reduce((n, p) => n + p.length, 0) });
    outcome = writeCoalesced(res, res, huge);
    if (await outcome) res.end();
  };
  await new Promise<void>((resolve, reject) => {
    const req = get({ port, host: '127.0.0.1', path: '/' }, (res) => {
      let seen = 0;
      res.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen > 4 * CHUNK_BYTES) {
          req.destroy();
          resolve();
        }
      });
    });
    req.on('error', () => undefined);
    req.on('close', () => resolve());
    setTimeout(() => reject(new Error('no body')), 10_000).unref();
  });
  expect(await outcome).toBe(false);

  const expected = Buffer.concat(parts);
  serve = async (res) => {
    res.writeHead(200, { 'Content-Length': expected.length });
    if (await writeCoalesced(res, res, parts)) res.end();
  };
  expect((await fetchBody()).equals(expected)).toBe(true);
});

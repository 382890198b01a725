// A watch's initial events go out in slices as the client reads them: a client that does not read holds the
// server to a slice of the initial state, not its whole encoding; one that reads gets every event, then the
// end-of-initial-events BOOKMARK, then the changes queued meanwhile.
import { createServer, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import pino from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import { WatchStream } from './watch-stream';

const OBJECTS = 2000;
const PAD = 'p'.repeat(4000);
const objectNamed = (name: string, rv: number): ApiObject => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, namespace: 'ns', resourceVersion: String(rv) },
  data: { pad: PAD },
});

let server: Server;
let response: ServerResponse;
let stream: WatchStream;
let client: Socket;
const received: Buffer[] = [];

beforeAll(async () => {
  const opened = new Promise<void>((resolve) => {
    server = createServer((_req, res) => {
      response = res;
      stream = new WatchStream({
        res,
        log: pino({ level: 'silent' }),
        serve: (obj) => obj,
        bookmarkObject: (resourceVersion, annotations) => ({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { resourceVersion, ...(annotations ? { annotations } : {}) },
        }),
        bookmarks: true,
        contentType: 'application/json',
        protobuf: false,
      });
      stream.begin(
        Array.from({ length: OBJECTS }, (_, i) => objectNamed(`cm-${i}`, i + 1)),
        OBJECTS,
      );
      // A change that arrives while the initial events are still going out.
      stream.send('ADDED', objectNamed('later', OBJECTS + 1), undefined);
      resolve();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  client = connect((server.address() as AddressInfo).port, '127.0.0.1');
  client.pause();
  client.on('data', (chunk: Buffer) => received.push(chunk));
  client.write('GET /watch HTTP/1.1\r\nHost: test\r\n\r\n');
  await opened;
});

afterAll(async () => {
  client.destroy();
  await new Promise((resolve) => server.close(resolve));
});

test('a client that does not read holds the server to a slice of the initial state', async () => {
  await new Promise((r) => setTimeout(r, 500));
  const encodedBytes = OBJECTS * (PAD.length + 100);
  const unread = response.socket?.writableLength ?? 0;
  expect(unread).toBeLessThan(encodedBytes / 16);
});

test('a client that reads gets every initial event, then the end bookmark, then the queued change', async () => {
  client.resume();
  const deadline = Date.now() + 20_000;
  const text = (): string => Buffer.concat(received).toString('utf8');
  while (!text().includes('"name":"later"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
  const body = text();
  const names = [
    ...body.matchAll(
      /"type":"(\w+)","object":\{"apiVersion":"v1","kind":"ConfigMap","metadata":\{("name":"([^"]+)")?/g,
    ),
  ].map((m) => `${m[1]}:${m[3] ?? ''}`);
  expect(names).toEqual([...Array.from({ length: OBJECTS }, (_, i) => `ADDED:cm-${i}`), 'BOOKMARK:', 'ADDED:later']);
  expect(body).toContain('"annotations":{"k8s.io/initial-events-end":"true"}');
});

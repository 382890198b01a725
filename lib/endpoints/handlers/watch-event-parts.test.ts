// Initial events written from a cached object's kept bytes (parts, not copies) are byte for byte the lines the
// stream would encode; objects without kept bytes are encoded, in the same stream, in order.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import type { ApiObject } from '../../apimachinery/meta/types';
import { rememberStoredJson, servedJson } from '../../apimachinery/serializers/served-json';
import { WatchStream } from './watch-stream';
import { eventLineParts } from './watch-event-parts';
import { getChunks } from '../../../test/helpers/raw-http';

const OBJECTS = 3000;

/** A ConfigMap as the watch cache holds one: decoded from stored bytes (even i) or built in memory (odd i). */
function cached(i: number): ApiObject {
  const stored = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name: `cm-${i}`, namespace: 'ns', labels: { ü: 'ß' } },
    data: { pad: 'x'.repeat(i % 500), quote: '"\n' },
  };
  const obj = { ...stored, metadata: { ...stored.metadata, resourceVersion: String(i + 1) } } as ApiObject;
  if (i % 2 === 0) rememberStoredJson(obj, Buffer.from(JSON.stringify(stored)));
  return obj;
}

/** The line the stream encodes for an ADDED event of `obj`. */
const encodedLine = (obj: ApiObject): string => `{"type":"ADDED","object":${servedJson(obj) ?? JSON.stringify(obj)}}\n`;

test('the parts of a kept object join to its encoded line; other objects have none', () => {
  const kept = cached(0);
  expect(servedJson(kept)).toBeDefined();
  expect(Buffer.concat(eventLineParts('ADDED', kept) ?? []).toString()).toBe(encodedLine(kept));
  expect(JSON.parse(Buffer.concat(eventLineParts('ADDED', kept) ?? []).toString())).toEqual({
    type: 'ADDED',
    object: kept,
  });
  expect(eventLineParts('ADDED', cached(1))).toBeUndefined();
});

describe('a watch stream writing a large initial state', () => {
  let server: Server;
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  test('sends every initial event as the encoded line, in order, then the end bookmark', async () => {
    const initial = Array.from({ length: OBJECTS }, (_, i) => cached(i));
    server = createServer((_req, res) => {
      const stream = new WatchStream({
        res,
        log: pino({ level: 'silent' }),
        serve: (obj) => obj,
        bookmarkObject: (resourceVersion) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { resourceVersion } }),
        bookmarks: true,
        contentType: 'application/json',
        protobuf: false,
      });
      stream.begin(initial, OBJECTS);
      setTimeout(() => stream.end(OBJECTS), 200);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { head, chunks } = await getChunks(
      `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      '/watch',
      {},
    );
    expect(head).toMatch(/transfer-encoding: chunked/i);
    const lines = Buffer.concat(chunks)
      .toString('utf8')
      .split(/(?<=\n)/);
    expect(lines.slice(0, OBJECTS)).toEqual(initial.map(encodedLine));
    expect(JSON.parse(lines[OBJECTS] ?? '')).toMatchObject({
      type: 'BOOKMARK',
      object: { metadata: { resourceVersion: String(OBJECTS) } },
    });
  });
});

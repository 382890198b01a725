// What client-go's reflector does with WatchListClient (tools/cache/reflector.go, watchList): a watch with
// sendInitialEvents=true, resourceVersionMatch=NotOlderThan and allowWatchBookmarks=true, ADDED events collected
// into a temporary store until a BOOKMARK annotated `k8s.io/initial-events-end: "true"`, whose resourceVersion
// becomes the last synced one; then the same stream carries changes, and a broken watch resumes with a plain
// watch from that resourceVersion. JSON lines or protobuf `;stream=watch` frames.
import { request } from 'node:http';
import { decodeWatchFrames } from './protobuf-decoder';

export interface ReflectorEvent {
  type: string;
  object: any;
}

export const PROTOBUF_WATCH = 'application/vnd.orch.protobuf;stream=watch';

export interface EventStream {
  status: number;
  contentType: string;
  /** The next event, waiting up to `timeoutMs`. */
  next(timeoutMs?: number): Promise<ReflectorEvent>;
  /** Events received and not yet taken. */
  readonly buffered: number;
  ended: Promise<void>;
  close(): void;
}

/** Opens a watch and reads its events one by one, in JSON or (with `accept` = PROTOBUF_WATCH) protobuf frames. */
export function openEventStream(baseUrl: string, path: string, accept = 'application/json'): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const req = request(baseUrl + path, { headers: { Accept: accept } }, (res) => {
      const protobuf = (res.headers['content-type'] ?? '').includes('protobuf');
      const events: ReflectorEvent[] = [];
      const waiters: (() => void)[] = [];
      let buffer = Buffer.alloc(0);
      let ended = false;
      const notify = (): void => waiters.splice(0).forEach((w) => w());
      res.on('data', (chunk: Buffer) => {
        buffer = Buffer.concat([buffer, chunk]);
        for (;;) {
          if (protobuf) {
            if (buffer.length < 4) break;
            const length = buffer.readUInt32BE(0);
            if (buffer.length < 4 + length) break;
            events.push(...decodeWatchFrames(buffer.subarray(0, 4 + length)));
            buffer = buffer.subarray(4 + length);
          } else {
            const nl = buffer.indexOf(10);
            if (nl < 0) break;
            const line = buffer.subarray(0, nl).toString('utf8');
            buffer = buffer.subarray(nl + 1);
            if (line.trim() !== '') events.push(JSON.parse(line) as ReflectorEvent);
          }
        }
        notify();
      });
      const endedPromise = new Promise<void>((done) => {
        const finish = (): void => {
          ended = true;
          notify();
          done();
        };
        res.on('end', finish);
        res.on('close', finish);
        res.on('error', finish);
      });
      resolve({
        status: res.statusCode ?? 0,
        contentType: res.headers['content-type'] ?? '',
        ended: endedPromise,
        get buffered() {
          return events.length;
        },
        close: () => req.destroy(),
        next: (timeoutMs = 5000) =>
          new Promise((ok, fail) => {
            const deadline = setTimeout(() => fail(new Error('timed out waiting for a watch event')), timeoutMs);
            const check = (): void => {
              const event = events.shift();
              if (event !== undefined) {
                clearTimeout(deadline);
                ok(event);
              } else if (ended) {
                clearTimeout(deadline);
                fail(new Error('watch stream ended'));
              } else waiters.push(check);
            };
            check();
          }),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

export interface WatchListSync {
  stream: EventStream;
  /** name (namespace/name) → object, built from the initial events. */
  store: Map<string, any>;
  /** The end bookmark's resourceVersion: the reflector's last synced resourceVersion. */
  resourceVersion: string;
  /** Every event up to and including the end bookmark. */
  events: ReflectorEvent[];
}

export function keyOf(obj: { metadata?: { namespace?: string; name?: string } }): string {
  return `${obj.metadata?.namespace ?? ''}/${obj.metadata?.name ?? ''}`;
}

/** The reflector's watchList(): syncs a store from a watch-list request; throws when the stream is not one. */
export async function watchListSync(
  baseUrl: string,
  collection: string,
  lastSyncResourceVersion = '',
  accept = 'application/json',
): Promise<WatchListSync> {
  const rv = lastSyncResourceVersion === '' ? '' : `&resourceVersion=${lastSyncResourceVersion}`;
  const stream = await openEventStream(
    baseUrl,
    `${collection}?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan&allowWatchBookmarks=true&timeoutSeconds=60${rv}`,
    accept,
  );
  if (stream.status !== 200) throw new Error(`watch-list answered ${stream.status}`);
  const store = new Map<string, any>();
  const events: ReflectorEvent[] = [];
  for (;;) {
    const event = await stream.next();
    events.push(event);
    if (event.type === 'ERROR') throw new Error(`watch-list ERROR: ${JSON.stringify(event.object)}`);
    if (event.type === 'BOOKMARK') {
      if (event.object?.metadata?.annotations?.['k8s.io/initial-events-end'] === 'true') {
        return { stream, store, resourceVersion: event.object.metadata.resourceVersion as string, events };
      }
      continue;
    }
    if (event.type === 'DELETED') store.delete(keyOf(event.object));
    else store.set(keyOf(event.object), event.object);
  }
}

// One client's watch response: newline-delimited JSON events, written once per batch, each event's bytes
// encoded once for every watcher that sends the same thing. A client that falls too far behind is cut off.
import type { ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { isStatusError, type Status } from '../../apimachinery/errors';
import type { ApiObject } from '../../apimachinery/meta/types';
import type { CachedEvent } from '../../apimachinery/watch/cached-event';
import type { WatchDelivery } from '../../apimachinery/watch/delivery';
import type { WatchEventType } from '../../apimachinery/watch/transitions';
import { watchFailure } from '../../registry/generic/client-watch';
import { servedJson } from '../../apimachinery/serializers/served-json';
import { writeBatchChunk, writeChunk, writeChunkParts } from './chunk-frames';
import { eventLineParts } from './watch-event-parts';
import { encodeWatchEventProtobuf } from '../../apimachinery/serializers/protobuf';

/**
 * The annotation on the BOOKMARK that ends a watch-list's initial events: the name client-go's reflector reads
 * (the spec names no orch-branded variant for it).
 */
export const INITIAL_EVENTS_END_ANNOTATION = 'k8s.io/initial-events-end';
const INITIAL_EVENTS_END: Readonly<Record<string, string>> = { [INITIAL_EVENTS_END_ANNOTATION]: 'true' };

/**
 * Bytes a client may have unread in its socket's buffer (beyond its initial burst). Batches are shared buffers,
 * so what this bounds is mostly references to chunks every other watcher holds too.
 */
export const MAX_UNREAD_BYTES = 512 * 1024;
/**
 * How long a client may stay above MAX_UNREAD_BYTES before it is closed, like the cacher's dispatch timeout
 * budget: a reader that is merely slow for a moment catches up, one that stopped reading is let go and re-watches
 * from the last resourceVersion it got (apiserver_terminated_watchers_total counts it).
 */
export const UNREAD_GRACE_MS = 500;
/** The initial events of a watch go out in slices of about this size, each once the client took the one before. */
const INITIAL_SLICE_BYTES = 64 * 1024;
/** A closed watcher's stream ends cleanly (its last chunk queued); a client that never reads it loses the socket after this. */
const CLOSED_SOCKET_LINGER_MS = 30_000;

function errorStatus(failure: Error): Status {
  const err = watchFailure(failure);
  if (isStatusError(err)) return err.status;
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: err.message,
    reason: 'InternalError',
    code: 500,
  };
}

export interface WatchStreamOptions {
  res: ServerResponse;
  log: Logger;
  /** The object as served (apiVersion/kind of the request's version). */
  serve: (obj: ApiObject) => ApiObject;
  /** An empty object of the watched kind carrying a resourceVersion (BOOKMARK) and these annotations. */
  bookmarkObject: (resourceVersion: string, annotations?: Record<string, string>) => unknown;
  bookmarks: boolean;
  /** `application/json`, or a protobuf type with `;stream=watch` (then events are length-prefixed frames). */
  contentType: string;
  protobuf: boolean;
  /** Set when the bytes for an event depend on the event alone (not for Table streams): see WatchDelivery.shareKey. */
  shareKey?: string;
  /** Table watch: each event's object becomes a one-row Table (`first`: the only one with column definitions). */
  table?: { key: string; render: (obj: ApiObject, first: boolean) => unknown };
}

export class WatchStream implements WatchDelivery {
  readonly #options: WatchStreamOptions;
  #pending: Buffer[] = [];
  #started = false;
  #limit = MAX_UNREAD_BYTES;
  #closed = false;
  #cutOff = false;
  #graceTimer: NodeJS.Timeout | undefined;
  #onCutOff: (() => void) | undefined;
  #tableColumnsSent = false;
  /** While the initial events are being written: the bytes of the changes queued behind them. */
  #writingInitial = false;
  #queuedBytes = 0;

  /** The key under which an event's encoding in this stream's form is shared, by event type. */
  readonly #formKeys: Record<'ADDED' | 'MODIFIED' | 'DELETED', string>;

  constructor(options: WatchStreamOptions) {
    this.#options = options;
    const form = options.table !== undefined ? `${options.table.key}:` : options.protobuf ? 'protobuf:' : '';
    this.#formKeys = { ADDED: `${form}ADDED`, MODIFIED: `${form}MODIFIED`, DELETED: `${form}DELETED` };
    // Noted once here, so the per-event path reads one field instead of the response's state getters.
    options.res.once('close', () => {
      this.#closed = true;
      clearTimeout(this.#graceTimer);
    });
  }

  /** True when the stream was closed because the client could not keep up. */
  get cutOff(): boolean {
    return this.#cutOff;
  }

  /** Runs once when the stream is closed for not reading (its watch must be unregistered at once). */
  whenCutOff(fn: () => void): void {
    this.#onCutOff = fn;
  }

  get closed(): boolean {
    return this.#closed || this.#options.res.writableEnded || this.#options.res.destroyed;
  }

  /**
   * Writes headers and the initial ADDED events, then whatever was queued meanwhile. `initialEventsEnd` (watch-list):
   * a BOOKMARK at that revision annotated as the end of the initial events goes between the two, when the
   * client asked for bookmarks.
   */
  begin(initial: ApiObject[], initialEventsEnd?: number): void {
    const res = this.#options.res;
    res.writeHead(200, {
      'Content-Type': this.#options.contentType,
      'Transfer-Encoding': 'chunked',
      'Cache-Control': 'no-cache, private',
    });
    res.flushHeaders();
    const end =
      initialEventsEnd !== undefined && this.#options.bookmarks
        ? this.#encode(
            'BOOKMARK',
            this.#options.bookmarkObject(String(initialEventsEnd), INITIAL_EVENTS_END) as Record<string, unknown>,
          )
        : undefined;
    this.#writeInitial(initial, end).catch((err: unknown) => {
      this.#options.log.error({ err }, 'writing the initial events of a watch failed');
      res.destroy();
    });
  }

  /**
   * The initial ADDED events in slices, each written once the client has taken most of the one before (a large
   * initial state costs a slice of memory, not its whole encoding), then `end`, then what was queued meanwhile.
   * An initial state that fits in one slice is written at once.
   */
  async #writeInitial(initial: ApiObject[], end: Buffer | undefined): Promise<void> {
    this.#writingInitial = true;
    let slice: Buffer[] = [];
    let sliceBytes = 0;
    for (const obj of initial) {
      if (this.closed) return;
      for (const part of this.#addedParts(obj)) {
        slice.push(part);
        sliceBytes += part.length;
      }
      if (sliceBytes < INITIAL_SLICE_BYTES) continue;
      const unread = writeChunkParts(this.#options.res, slice, sliceBytes);
      slice = [];
      sliceBytes = 0;
      if (unread > INITIAL_SLICE_BYTES) await this.#drained();
    }
    this.#writingInitial = false;
    this.#queuedBytes = 0;
    if (this.closed) return;
    if (end !== undefined) slice.push(end);
    this.#pending = slice.concat(this.#pending);
    this.#started = true;
    this.flush();
    // The cutoff counts only what piles up after the initial events.
    this.#limit = this.#unread() + MAX_UNREAD_BYTES;
  }

  /**
   * An initial ADDED event: in JSON, a cached object served as it is goes out from its kept bytes (parts, not a
   * copy: a watch-list sync of a large state costs no per-object garbage); otherwise it is encoded.
   */
  #addedParts(obj: ApiObject): Buffer[] {
    const served = this.#options.serve(obj);
    const parts =
      served === obj && !this.#options.protobuf && this.#options.table === undefined
        ? eventLineParts('ADDED', served)
        : undefined;
    return parts ?? [this.#line('ADDED', served)];
  }

  /** Resolves when the socket's buffer has drained or the stream is gone. */
  #drained(): Promise<void> {
    const socket = this.#options.res.socket;
    if (socket === null || socket.destroyed || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        socket.off('drain', done);
        socket.off('close', done);
        resolve();
      };
      socket.on('drain', done);
      socket.on('close', done);
    });
  }

  get shareKey(): string | undefined {
    return this.#options.shareKey;
  }

  send(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: ApiObject, source: CachedEvent | undefined): void {
    if (this.#closed) return;
    const bytes = this.#eventBytes(type, object, source);
    this.#pending.push(bytes);
    // Changes queued behind a large initial state count as unread: a client that stops reading it is let go too.
    if (this.#writingInitial) {
      this.#queuedBytes += bytes.length;
      this.#checkBacklog(this.#backlog());
    }
  }

  /** A batch shared by a group of watchers: one chunk for all of them, unless this stream has its own backlog. */
  sendBatch(events: readonly CachedEvent[]): void {
    if (this.#closed) return;
    const shareKey = this.#options.shareKey;
    if (!this.#started || this.#pending.length > 0 || shareKey === undefined) {
      for (const event of events) this.send(event.type, event.object, event);
      this.flush();
      return;
    }
    const written = writeBatchChunk(this.#options.res, events, shareKey, () =>
      events.map((e) => this.#eventBytes(e.type, e.object, e)),
    );
    if (written === undefined) {
      for (const event of events) this.send(event.type, event.object, event);
      this.flush();
    } else this.#checkBacklog(written);
  }

  /** One event's bytes; every watcher asking for the same form shares one encoding through the cached event. */
  #eventBytes(type: 'ADDED' | 'MODIFIED' | 'DELETED', object: ApiObject, source: CachedEvent | undefined): Buffer {
    const served = this.#options.serve(object);
    const first = this.#options.table !== undefined && !this.#tableColumnsSent;
    if (source === undefined || served !== object || first) return this.#line(type, served);
    const key = this.#formKeys[type];
    const encoded = (source.encoded ??= new Map());
    let line = encoded.get(key) as Buffer | undefined;
    if (line === undefined) {
      line = this.#line(type, served);
      encoded.set(key, line);
    }
    return line;
  }

  flush(): void {
    if (!this.#started || this.#pending.length === 0 || this.closed) return;
    const unread = writeChunk(this.#options.res, this.#pending);
    this.#pending = [];
    this.#checkBacklog(unread);
  }

  /** Bytes written and not yet taken by the kernel. */
  #unread(): number {
    const res = this.#options.res;
    return res.socket?.writableLength ?? res.writableLength;
  }

  /** What the client has not taken yet: the socket's buffer, plus the changes queued behind the initial events. */
  #backlog(): number {
    return this.#unread() + this.#queuedBytes;
  }

  /** A client with more than the limit unread gets UNREAD_GRACE_MS to catch up, then its stream is closed. */
  #checkBacklog(unread: number): void {
    if (unread <= this.#limit) {
      clearTimeout(this.#graceTimer);
      this.#graceTimer = undefined;
      return;
    }
    this.#graceTimer ??= setTimeout(() => {
      this.#graceTimer = undefined;
      const still = this.#backlog();
      if (still > this.#limit && !this.closed) this.#terminate(still);
    }, UNREAD_GRACE_MS);
  }

  /**
   * Closes a watcher that does not read, as the cacher's forget does: nothing more is sent, the stream ends
   * (after what is already queued), and the socket goes if the client still does not read.
   */
  #terminate(unread: number): void {
    const res = this.#options.res;
    this.#options.log.warn({ unreadBytes: unread }, 'closing a watch whose client cannot keep up');
    this.#cutOff = true;
    this.#pending = [];
    this.#close();
    const linger = setTimeout(() => res.destroy(), CLOSED_SOCKET_LINGER_MS);
    linger.unref();
    res.once('close', () => clearTimeout(linger));
    this.#onCutOff?.();
  }

  bookmark(resourceVersion: number): void {
    if (!this.#options.bookmarks || !this.#started) return;
    this.#pending.push(
      this.#encode('BOOKMARK', this.#options.bookmarkObject(String(resourceVersion)) as Record<string, unknown>),
    );
    this.flush();
  }

  fail(err: Error): void {
    if (this.closed) return;
    this.#pending.push(this.#encode('ERROR', errorStatus(err) as unknown as Record<string, unknown>));
    this.#started = true;
    this.flush();
    this.#close();
  }

  end(revision: number): void {
    this.bookmark(revision);
    this.#close();
  }

  #close(): void {
    this.#closed = true;
    if (!this.#options.res.writableEnded) this.#options.res.end();
  }

  /** A BOOKMARK or ERROR event in the stream's encoding. */
  #encode(type: 'BOOKMARK' | 'ERROR', object: Record<string, unknown>): Buffer {
    if (!this.#options.protobuf) return Buffer.from(`${JSON.stringify({ type, object })}\n`);
    const { apiVersion, kind } = object as { apiVersion: string; kind: string };
    return encodeWatchEventProtobuf(type, object, apiVersion, kind);
  }

  /** One event as the bytes of one line or frame (encoded once; shared by watchers through the event's cache). */
  #line(type: WatchEventType, object: ApiObject): Buffer {
    if (this.#options.protobuf)
      return encodeWatchEventProtobuf(
        type,
        object as Record<string, unknown>,
        object.apiVersion ?? '',
        object.kind ?? '',
      );
    const table = this.#options.table;
    if (table !== undefined) {
      const first = !this.#tableColumnsSent;
      this.#tableColumnsSent = true;
      return Buffer.from(`${JSON.stringify({ type, object: table.render(object, first) })}\n`);
    }
    const reused = servedJson(object);
    return Buffer.from(
      reused === undefined ? `${JSON.stringify({ type, object })}\n` : `{"type":"${type}","object":${reused}}\n`,
    );
  }
}

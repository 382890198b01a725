// Progress requests on the shared etcd watch stream (WatchRequest.progress_request, KEP-2340's way of letting a quiet
// watch cache catch up with etcd's current revision). etcd answers with a WatchResponse of watch_id -1 and no events;
// what that answer guarantees depends on the etcd version (etcdserver/api/v3rpc/watch.go, mvcc/watchable_store.go):
//
// - up to 3.4.24 / 3.5.7 (Debian's 3.4.23 here): the answer goes out on the control path with the store's revision at
//   the time, whatever the state of the stream's watchers: it can overtake events still queued for a watcher, and it
//   is sent for watchers still catching up (unsynced, or victims of a full stream). Its revision may claim events a
//   watcher has not received yet, so it is never applied.
// - 3.4.25–3.4.30 / 3.5.8–3.5.12: in order on the event path and only when every watcher on the stream is synced,
//   but deferred answers are produced outside the request loop (racing watch creation) and can be lost.
// - from 3.4.31 / 3.5.13 (and 3.6): produced in the request loop, in order with the events, and only when every
//   watcher on the stream is synced (otherwise no answer). Kubernetes (feature/feature_support_checker.go) uses
//   progress requests from these versions on; so does this file.
//
// Requests are coalesced: at most one is outstanding; another goes out once it was answered or REQUEST_EVERY_MS passed.
import type { EventEmitter } from 'node:events';
import type { Etcd3 } from 'etcd3';
import type { DecodedWatchResponse } from './watch-response';

/** How long an unanswered request blocks the next one (etcd sends none while a watcher on the stream is unsynced). */
const REQUEST_EVERY_MS = 50;

/** The watch stream (grpc-js' ClientDuplexStream or h2-watch.ts'). */
type WatchStream = Pick<EventEmitter, 'emit' | 'once'> & {
  readonly writable: boolean;
  write(request: object): boolean;
};

/** True when `version`'s progress answers are in order with the events and sent only for synced watchers. */
export function answersInOrder(version: string): boolean {
  const match = /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (match === null) return false;
  const [major, minor, patch] = match.slice(1).map(Number) as [number, number, number];
  if (major !== 3) return major > 3;
  if (minor === 4) return patch >= 31;
  if (minor === 5) return patch >= 13;
  return minor > 5;
}

/** A progress answer: no events, watch_id -1, neither a creation nor a cancellation. */
export function isProgressAnswer(res: DecodedWatchResponse): boolean {
  return res.watch_id === '-1' && !res.created && !res.canceled && res.events.length === 0 && res.header !== null;
}

export class WatchProgress {
  #stream: WatchStream | undefined;
  readonly #listeners = new Set<(revision: number) => void>();
  /** Whether etcd's answers can be applied: undefined until its version is known. */
  #trusted: boolean | undefined;
  #readingVersion = false;
  #outstandingSince: number | undefined;
  requests = 0;
  answers = 0;
  /** The revision of the last answer, applied or not. */
  lastAnswer: number | undefined;

  constructor(private readonly client: Etcd3) {}

  /** Takes answers off `stream` (etcd3's watch manager would fail on a response for no watcher of its own). */
  attach(stream: WatchStream): void {
    this.#stream = stream;
    this.#outstandingSince = undefined;
    if (this.#trusted === undefined) this.#readVersion();
    const emit = stream.emit.bind(stream);
    stream.emit = (event: string | symbol, ...args: unknown[]): boolean => {
      const res = args[0] as DecodedWatchResponse | undefined;
      if (event !== 'data' || res === undefined || !isProgressAnswer(res)) return emit(event, ...args);
      this.#answered(Number(res.header?.revision));
      return true;
    };
    const detach = (): void => {
      if (this.#stream === stream) this.#stream = undefined;
    };
    stream.once('close', detach);
    stream.once('error', detach);
  }

  /** Calls `listener` with the revision of each answer (every watcher on the stream has all events up to it). */
  subscribe(listener: (revision: number) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Asks etcd for the stream's progress; false when no answer can be applied (no stream, or an older etcd). */
  request(): boolean {
    if (this.#trusted === undefined) this.#readVersion();
    if (this.#trusted !== true || this.#stream === undefined || !this.#stream.writable) return false;
    const now = performance.now();
    if (this.#outstandingSince !== undefined && now - this.#outstandingSince < REQUEST_EVERY_MS) return true;
    this.#outstandingSince = now;
    this.requests++;
    this.#stream.write({ progress_request: {} });
    return true;
  }

  /**
   * Tests on an etcd whose answers are unordered: apply them anyway. Sound only while every watcher on the stream is
   * synced and nothing is in flight to it (then even 3.4.23's answer is true).
   */
  assumeAnswersInOrder(): void {
    this.#trusted = true;
  }

  /** Sends a request even where answers are not applied (tests of what an etcd version answers). */
  requestUntrusted(): boolean {
    if (this.#stream === undefined || !this.#stream.writable) return false;
    this.#stream.write({ progress_request: {} });
    return true;
  }

  #answered(revision: number): void {
    this.#outstandingSince = undefined;
    this.answers++;
    this.lastAnswer = revision;
    if (this.#trusted !== true || !Number.isFinite(revision)) return;
    for (const listener of this.#listeners) listener(revision);
  }

  #readVersion(): void {
    if (this.#readingVersion) return;
    this.#readingVersion = true;
    this.client.maintenance.status().then(
      (status) => {
        this.#trusted ??= answersInOrder(status.version);
      },
      () => {
        this.#readingVersion = false;
      },
    );
  }
}

const progressByClient = new WeakMap<Etcd3, WatchProgress>();

/** `client`'s progress requester (made by decodeWatchesDirectly); undefined for a client without our watch stream. */
export function watchProgressOf(client: Etcd3): WatchProgress | undefined {
  return progressByClient.get(client);
}

export function newWatchProgress(client: Etcd3): WatchProgress {
  const progress = new WatchProgress(client);
  progressByClient.set(client, progress);
  return progress;
}

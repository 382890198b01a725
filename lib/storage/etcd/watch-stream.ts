// The stream etcd3's watch manager runs every watch on, opened with decodeWatchResponse (watch-response.ts) as its
// response decoder in place of proto-loader's generic decode and conversion: following each etcd write is the work
// every apiserver process does for every write, so its decoding is the one to keep cheap. The stream runs on the
// member's node:http2 session shared with the unary calls (h2-watch.ts), not through grpc-js (whose per-message
// machinery cost ~40 µs CPU and ~2.4 KB of heap per event, docs/benchmarks.md). Everything else (the connection
// pool's host choice and call options, marking a host failed on a stream error) is what etcd3's own WatchClient does.
import type { Etcd3, IWatchResponse, Watcher } from 'etcd3';
import type { CallOptions, ClientDuplexStream, Metadata, ServiceClientConstructor } from '@grpc/grpc-js';
import { poolOf, type Etcd3Pool } from './etcd3-pool';
import { membersOf } from './h2-unary';
import { H2WatchStream } from './h2-watch';
import { decodeWatchResponse } from './watch-response';
import { newWatchProgress, type WatchProgress } from './watch-progress';

const WATCH_PATH = '/etcdserverpb.Watch/Watch';

/** The parts of etcd3's connection pool a watch stream uses. */
type Pool = Pick<Etcd3Pool, 'callOptionsFactory' | 'withConnection' | 'markFailed'>;

type WatchStream = ClientDuplexStream<unknown, unknown> | H2WatchStream;

/** How watch streams reach etcd: node:http2 sessions shared with the unary calls (h2-unary.ts), or grpc-js. */
export type WatchTransport = 'h2' | 'grpcJs';

/** etcd3's WatchClient contract: `watch()` resolves with a bidirectional stream of decoded WatchResponses. */
class DecodingWatchClient {
  constructor(
    private readonly pool: Pool,
    private readonly progress: WatchProgress,
    private readonly transport: WatchTransport,
  ) {}

  watch(options?: CallOptions): Promise<WatchStream> {
    return this.pool.withConnection('Watch', ({ resource, client, metadata }) => {
      const factory = this.pool.callOptionsFactory;
      const defaults =
        typeof factory === 'function' ? factory({ service: 'Watch', method: 'watch', isStream: true }) : factory;
      const resolved = defaults === undefined ? options : options ? { ...defaults, ...options } : defaults;
      const service = (client.constructor as ServiceClientConstructor).service;
      const serialize = service['Watch']?.requestSerialize;
      if (serialize === undefined) throw new Error('etcd3 watch client without a Watch method');
      // Call options (a deadline, a parent call) are grpc-js' to honour: such a stream stays on grpc-js.
      const stream =
        this.transport === 'h2' && (resolved === undefined || Object.keys(resolved).length === 0)
          ? this.#h2Stream(resource, metadata, serialize)
          : client.makeBidiStreamRequest(WATCH_PATH, serialize, decodeWatchResponse, metadata, resolved ?? {});
      stream.on('error', (err: Error) => {
        if (stream.writable) this.pool.markFailed(resource, err);
      });
      this.progress.attach(stream);
      return stream;
    });
  }

  #h2Stream(resource: unknown, metadata: Metadata, serialize: (request: unknown) => Buffer): H2WatchStream {
    const members = membersOf(this.pool as Etcd3Pool);
    const session = members.session(resource);
    return new H2WatchStream(session.open(WATCH_PATH, members.watchHeaders(metadata)), serialize);
  }
}

/**
 * Makes `client`'s watches decode their responses with decodeWatchResponse (before any watch is opened), over
 * `transport`, and takes progress answers off the stream for watchProgressOf(client) (watch-progress.ts).
 */
export function decodeWatchesDirectly(client: Etcd3, transport: WatchTransport = 'h2'): void {
  const internals = client as unknown as {
    pool?: Pool;
    watchManager?: { client?: unknown; initialBackoff?: unknown; backoff?: unknown };
  };
  // etcd3's internals as of 1.1: without them the client keeps its own decoding.
  if (internals.pool === undefined || internals.watchManager?.client === undefined) return;
  const h2 = transport === 'h2' && poolOf(client) !== undefined ? 'h2' : 'grpcJs';
  internals.watchManager.client = new DecodingWatchClient(internals.pool, newWatchProgress(client), h2);
  keepFreshBackoff(internals.watchManager);
}

/**
 * etcd3's watch manager resets its reconnection backoff after every response it receives (a new backoff state, its
 * jitter drawn with it): while the state is still the one the last reset made, that one is kept (no failure since, so
 * it is what a reset makes).
 */
function keepFreshBackoff(manager: { initialBackoff?: unknown; backoff?: unknown }): void {
  const initial = manager.initialBackoff as { next?: () => unknown } | undefined;
  if (typeof initial?.next !== 'function') return;
  const next = initial.next.bind(initial);
  let fresh: unknown;
  manager.initialBackoff = {
    next: (): unknown => (fresh !== undefined && manager.backoff === fresh ? fresh : (fresh = next())),
  };
}

/**
 * Makes `watcher` note the revision to resume from after each response (what etcd3 does with a bignumber.js sum per
 * response) with plain arithmetic: the header revision + 1, as a decimal string.
 */
export function cheapResumeRevision(watcher: Watcher): void {
  const internals = watcher as unknown as { request?: { start_revision?: unknown }; updateRevision?: unknown };
  if (typeof internals.updateRevision !== 'function' || internals.request === undefined) return;
  const request = internals.request;
  internals.updateRevision = (res: { header: { revision: string } }): void => {
    const revision = res.header.revision;
    request.start_revision = revision.length < 16 ? String(Number(revision) + 1) : String(BigInt(revision) + 1n);
  };
}

/**
 * Takes etcd3's own 'data' listener off `watcher` where nothing is lost by it, and returns what the caller must do in
 * its place first thing on each response (etcd3's listener came first): note the revision to resume from. The
 * listener otherwise re-emits each event by type ('put', 'delete') for listeners of those, which a cache's watch has
 * none of, after taking a namespaced client's prefix off the keys, which a root client has none of. Without those
 * internals (or with a namespace) the listener stays and the returned function does nothing.
 */
export function resumeNotingOnly(watcher: Watcher): (res: IWatchResponse) => void {
  const internals = watcher as unknown as { namespace?: { prefix?: Buffer }; updateRevision?: unknown };
  const listeners = watcher.listeners('data');
  const own = listeners[0];
  if (internals.namespace?.prefix?.length !== 0 || listeners.length !== 1 || typeof own !== 'function')
    return () => undefined;
  if (typeof internals.updateRevision !== 'function') return () => undefined;
  watcher.removeListener('data', own as (...args: unknown[]) => void);
  return (res) => (internals.updateRevision as (res: IWatchResponse) => void).call(watcher, res);
}

// The stream etcd3's watch manager runs every watch on, opened with decodeWatchResponse (watch-response.ts) as its
// response decoder in place of proto-loader's generic decode and conversion: following each etcd write is the work
// every apiserver process does for every write, so its decoding is the one to keep cheap. Everything else (the
// connection pool's host choice and call options, marking a host failed on a stream error) is what etcd3's own
// WatchClient does.
import type { Etcd3, Watcher } from 'etcd3';
import type { CallOptions, ClientDuplexStream, ServiceClientConstructor } from '@grpc/grpc-js';
import type { Etcd3Pool } from './etcd3-pool';
import { decodeWatchResponse } from './watch-response';
import { newWatchProgress, type WatchProgress } from './watch-progress';

const WATCH_PATH = '/etcdserverpb.Watch/Watch';

/** The parts of etcd3's connection pool a watch stream uses. */
type Pool = Pick<Etcd3Pool, 'callOptionsFactory' | 'withConnection' | 'markFailed'>;

type WatchStream = ClientDuplexStream<unknown, unknown>;

/** etcd3's WatchClient contract: `watch()` resolves with a bidirectional stream of decoded WatchResponses. */
class DecodingWatchClient {
  constructor(
    private readonly pool: Pool,
    private readonly progress: WatchProgress,
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
      const stream = client.makeBidiStreamRequest(WATCH_PATH, serialize, decodeWatchResponse, metadata, resolved ?? {});
      stream.on('error', (err: Error) => {
        if (stream.writable) this.pool.markFailed(resource, err);
      });
      this.progress.attach(stream);
      return stream;
    });
  }
}

/**
 * Makes `client`'s watches decode their responses with decodeWatchResponse (before any watch is opened), and takes
 * progress answers off the stream for watchProgressOf(client) (watch-progress.ts).
 */
export function decodeWatchesDirectly(client: Etcd3): void {
  const internals = client as unknown as { pool?: Pool; watchManager?: { client?: unknown } };
  // etcd3's internals as of 1.1: without them the client keeps its own decoding.
  if (internals.pool === undefined || internals.watchManager?.client === undefined) return;
  internals.watchManager.client = new DecodingWatchClient(internals.pool, newWatchProgress(client));
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

// etcd3 1.1's connection pool, which its typings do not expose: the members, fault-handling policy, call metadata
// (auth token, leader interceptor) and error classes that the calls with our own codecs go through (kv-unary.ts,
// raw-range.ts, watch-stream.ts), so they fail, retry and choose members exactly as etcd3's own calls do. This file
// is the one place that knows the pool's shape; an etcd3 upgrade rechecks it here.
import type { CallOptions, Client, Metadata } from '@grpc/grpc-js';
import { castGrpcError, EtcdInvalidAuthTokenError, type Etcd3 } from 'etcd3';

export type CallOptionsFactory = CallOptions | ((context: object) => CallOptions) | undefined;

/** A connection handed out by the pool: the member (`resource`), its grpc-js service client, the call metadata. */
export interface PoolConnection {
  resource: unknown;
  client: Client;
  metadata: Metadata;
}

export interface Etcd3Pool {
  globalPolicy: { execute<T>(fn: () => Promise<T>): Promise<T> };
  withConnection<T>(
    service: string,
    fn: (connection: PoolConnection) => Promise<T> | T,
    shuffle?: Generator<unknown>,
  ): Promise<T>;
  shuffledHosts(): Generator<unknown>;
  authenticator: { invalidateMetadata(): void };
  callOptionsFactory: CallOptionsFactory;
  markFailed(resource: unknown, error: Error): void;
  mockImpl?: unknown;
}

/** `client`'s connection pool, or undefined when it lacks the expected shape (another etcd3) or is mocked. */
export function poolOf(client: Etcd3): Etcd3Pool | undefined {
  const pool = (client as unknown as { pool?: Partial<Etcd3Pool> }).pool;
  if (
    typeof pool?.withConnection !== 'function' ||
    typeof pool.globalPolicy?.execute !== 'function' ||
    typeof pool.shuffledHosts !== 'function'
  )
    return undefined;
  if (pool.mockImpl) return undefined;
  return pool as Etcd3Pool;
}

/**
 * One unary call of etcd's KV service (`path`, e.g. `/etcdserverpb.KV/Txn`) with our own serializer and deserializer,
 * made as etcd3's ConnectionPool.exec makes its calls: under the global policy, on a connection from the shuffled
 * members, gRPC errors cast to etcd3's classes, and once more after an expired auth token was refreshed.
 * `serializerOf` picks the request serializer from the service client handed out (etcd3's own, or an identity).
 */
export async function kvUnaryCall<Req, Res>(
  pool: Etcd3Pool,
  path: string,
  serializerOf: (client: Client) => (request: Req) => Buffer,
  deserialize: (bytes: Buffer) => Res,
  request: Req,
): Promise<Res> {
  const attempt = (): Promise<Res> => {
    const shuffle = pool.shuffledHosts();
    return pool.globalPolicy.execute(() =>
      pool.withConnection(
        'KV',
        ({ client, metadata }) =>
          new Promise<Res>((resolve, reject) => {
            client.makeUnaryRequest(path, serializerOf(client), deserialize, request, metadata, {}, (err, res) => {
              if (err) reject(castGrpcError(err));
              else resolve(res as Res);
            });
          }),
        shuffle,
      ),
    );
  };
  try {
    return await attempt();
  } catch (err) {
    if (!(err instanceof EtcdInvalidAuthTokenError)) throw err;
    pool.authenticator.invalidateMetadata();
    return attempt();
  }
}

// etcd3 1.1's connection pool, which its typings do not expose: the members, fault-handling policy, call metadata
// (auth token, leader interceptor) and error classes that the calls with our own codecs go through (kv-unary.ts over
// h2-unary.ts, raw-range.ts, watch-stream.ts), so they fail, retry and choose members exactly as etcd3's own calls do.
// This file is the one place that knows the pool's shape; an etcd3 upgrade rechecks it here.
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
 * Runs `call` as etcd3's ConnectionPool.exec runs its calls: under the global policy, on a connection from the
 * shuffled members (whose policy sees its outcome), and once more after an expired auth token was refreshed. `call`
 * rejects with errors already cast to etcd3's classes.
 */
export async function poolCall<Res>(pool: Etcd3Pool, call: (connection: PoolConnection) => Promise<Res>): Promise<Res> {
  const attempt = (): Promise<Res> => {
    const shuffle = pool.shuffledHosts();
    return pool.globalPolicy.execute(() => pool.withConnection('KV', call, shuffle));
  };
  try {
    return await attempt();
  } catch (err) {
    if (!(err instanceof EtcdInvalidAuthTokenError)) throw err;
    pool.authenticator.invalidateMetadata();
    return attempt();
  }
}

/**
 * One unary call of etcd's KV service (`path`, e.g. `/etcdserverpb.KV/Txn`) through grpc-js with our own serializer
 * and deserializer, made as poolCall makes it. `serializerOf` picks the request serializer from the service client
 * handed out (etcd3's own, or an identity).
 */
export function kvUnaryCall<Req, Res>(
  pool: Etcd3Pool,
  path: string,
  serializerOf: (client: Client) => (request: Req) => Buffer,
  deserialize: (bytes: Buffer) => Res,
  request: Req,
): Promise<Res> {
  return poolCall(
    pool,
    ({ client, metadata }) =>
      new Promise<Res>((resolve, reject) => {
        client.makeUnaryRequest(path, serializerOf(client), deserialize, request, metadata, {}, (err, res) => {
          if (err) reject(castGrpcError(err));
          else resolve(res as Res);
        });
      }),
  );
}

/** How the pool reaches its members: each member's address (host:port) and the TLS settings of its grpc-js channels. */
export interface PoolTransport {
  /** The member a connection from the pool is to, as `host:port`. */
  address(resource: unknown): string;
  secure: boolean;
  credentials: { rootCertificate?: Buffer; privateKey?: Buffer; certChain?: Buffer } | undefined;
  /** Runs `fn` when the pool is closed (the Etcd3 client's close()). */
  onClose(fn: () => void): void;
}

/** What poolOf's pool holds besides the calls: its options and close(). */
interface PoolInternals {
  options: { hosts?: string | string[]; credentials?: PoolTransport['credentials'] };
  close(): void;
}

export function poolTransport(pool: Etcd3Pool): PoolTransport {
  const internals = pool as unknown as PoolInternals;
  const hosts = internals.options.hosts ?? [];
  const list = typeof hosts === 'string' ? [hosts] : hosts;
  const credentials = internals.options.credentials;
  return {
    address: (resource) => (resource as { host: string }).host,
    // etcd3's buildAuthentication: TLS when credentials are given or the hosts are https://.
    secure: credentials !== undefined || list.some((h) => h.startsWith('https:')),
    credentials,
    onClose(fn) {
      const close = internals.close.bind(pool);
      internals.close = () => {
        close();
        fn();
      };
    },
  };
}

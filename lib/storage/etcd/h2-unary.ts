// kv-unary.ts' transport: its unary KV calls go straight over node:http2 (h2-member.ts), one session per etcd member,
// instead of through grpc-js, whose per-call objects cost about as much CPU as the rest of a create. Everything else
// stays etcd3's: the member is chosen by etcd3's connection pool (shuffled members, the global fault-handling policy,
// each member's policy, `withConnection`'s skip and reset of a failing member), the call metadata is the pool's (auth
// token) plus `hasleader: true` as client.ts' interceptor adds to grpc-js' unary calls, failures are cast to etcd3's
// error classes, and a failure etcd3 counts as recoverable resets the member's session as it resets its grpc-js
// channels. TLS to the members uses the client's credentials (--etcd-cafile, --etcd-certfile, --etcd-keyfile).
import type { OutgoingHttpHeaders } from 'node:http2';
import type { Metadata } from '@grpc/grpc-js';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { castGrpcError, isRecoverableError } from 'etcd3';
import { grpcError, MemberSession, UNARY_HEADERS, type MemberTls } from './h2-member';
import { poolCall, poolTransport, type Etcd3Pool, type PoolTransport } from './etcd3-pool';

/** etcd's metadata asking a member to refuse the call at once when it has no leader (client.ts). */
const REQUIRE_LEADER = { hasleader: 'true' };
const PLAIN_HEADERS: OutgoingHttpHeaders = { ...UNARY_HEADERS, ...REQUIRE_LEADER };

class Members {
  readonly #sessions = new Map<unknown, MemberSession>();
  readonly #headers = new WeakMap<Metadata, OutgoingHttpHeaders>();
  readonly #tls: MemberTls | undefined;

  constructor(private readonly transport: PoolTransport) {
    const c = transport.credentials;
    this.#tls = transport.secure
      ? {
          ...(c?.rootCertificate ? { ca: c.rootCertificate } : {}),
          ...(c?.privateKey ? { key: c.privateKey } : {}),
          ...(c?.certChain ? { cert: c.certChain } : {}),
        }
      : undefined;
    transport.onClose(() => this.close());
  }

  session(resource: unknown): MemberSession {
    let session = this.#sessions.get(resource);
    if (session === undefined) {
      const scheme = this.transport.secure ? 'https' : 'http';
      session = new MemberSession(`${scheme}://${this.transport.address(resource)}`, this.#tls);
      this.#sessions.set(resource, session);
    }
    return session;
  }

  /**
   * A call's headers: the gRPC ones, the pool's metadata (the auth token, when etcd auth is on), the leader
   * requirement; one object per metadata object (etcd3 hands out a new empty one per call without auth).
   */
  headers(metadata: Metadata): OutgoingHttpHeaders {
    if (Object.keys(metadata.getMap()).length === 0) return PLAIN_HEADERS;
    let headers = this.#headers.get(metadata);
    if (headers === undefined) {
      headers = { ...UNARY_HEADERS, ...metadata.toHttp2Headers(), ...REQUIRE_LEADER };
      this.#headers.set(metadata, headers);
    }
    return headers;
  }

  /** A watch stream's headers: the gRPC ones and the pool's metadata (streams do not require a leader, client.ts). */
  watchHeaders(metadata: Metadata): OutgoingHttpHeaders {
    return { ...UNARY_HEADERS, ...metadata.toHttp2Headers() };
  }

  close(): void {
    for (const session of this.#sessions.values()) session.close();
    this.#sessions.clear();
  }
}

const membersOfPool = new WeakMap<Etcd3Pool, Members>();

/** The node:http2 sessions to `pool`'s members, shared by its unary calls and watch streams. */
export function membersOf(pool: Etcd3Pool): Members {
  let members = membersOfPool.get(pool);
  if (members === undefined) {
    members = new Members(poolTransport(pool));
    membersOfPool.set(pool, members);
  }
  return members;
}

/** One unary call of etcd's KV service (`path`) with the request in gRPC's framing, its response decoded by `decode`. */
export function h2UnaryCall<Res>(
  pool: Etcd3Pool,
  path: string,
  framed: Buffer,
  decode: (bytes: Buffer) => Res,
): Promise<Res> {
  const members = membersOf(pool);
  return poolCall(pool, async ({ resource, metadata }) => {
    const session = members.session(resource);
    let bytes: Buffer;
    try {
      bytes = await session.call(path, members.headers(metadata), framed);
    } catch (err) {
      const cast = castGrpcError(err as Error);
      if (isRecoverableError(cast)) session.reset();
      throw cast;
    }
    try {
      return decode(bytes);
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      throw castGrpcError(grpcError(GrpcStatus.INTERNAL, `Response message parsing error: ${text}`));
    }
  });
}

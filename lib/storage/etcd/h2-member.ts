// One etcd member's HTTP/2 session and the gRPC calls made on it directly with node:http2 (unary calls here, the watch
// stream in h2-watch.ts), without grpc-js' per-call machinery (resolving, retrying, load-balancing and subchannel call
// objects). A call's failure is an Error shaped as grpc-js reports the same condition (`<code> <NAME>: <details>`, with
// `code` and `details`), so that etcd3's castGrpcError and etcd-errors.ts classify it as they classify grpc-js' errors:
// - the member not reachable (the session never connected): `14 UNAVAILABLE: No connection established …` (not sent);
// - the stream refused (above a GOAWAY's last stream id): `14 UNAVAILABLE: Stream refused by server` (not sent);
// - the session lost with the call in flight (closed, reset, keepalive ping unanswered): `14 UNAVAILABLE: Connection
//   dropped` (may have reached etcd); the stream alone reset: grpc-js' text for its RST_STREAM code;
// - etcd's own status from the trailers (or the headers of a trailers-only answer): its grpc-status and grpc-message.
// A session that received a GOAWAY or closed takes no new calls: the next call opens a new one. While calls are in
// flight the session keeps the process running, as grpc-js' channels do.
import * as http2 from 'node:http2';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as connectTls } from 'node:tls';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { requestStream } from './h2-request';

const { NGHTTP2_REFUSED_STREAM, NGHTTP2_CANCEL, NGHTTP2_INTERNAL_ERROR } = http2.constants;

/** grpc-js' keepalive as client.ts sets it: a ping every 30 s while calls are in flight, 10 s for its answer. */
const KEEPALIVE_TIME_MS = 30_000;
const KEEPALIVE_TIMEOUT_MS = 10_000;
export const GRPC_HEADER_BYTES = 5;
/**
 * The receive window of the session and of each stream, as client.ts gives grpc-js: a watch stream or a large answer
 * keeps arriving while the event loop is busy, instead of 64 KiB and then waiting for a WINDOW_UPDATE.
 */
const FLOW_CONTROL_WINDOW_BYTES = 16 << 20;

/** TLS material for the members (etcd3's `credentials`: grpc-js createSsl's CA, key and certificate chain). */
export interface MemberTls {
  ca?: Buffer;
  key?: Buffer;
  cert?: Buffer;
}

export type GrpcError = Error & { code: number; details: string };

/** An Error as grpc-js reports a call's status (etcd3's castGrpcError reads its message and code). */
export function grpcError(code: number, details: string): GrpcError {
  const name = (GrpcStatus as unknown as Record<number, string>)[code] ?? 'UNKNOWN';
  return Object.assign(new Error(`${code} ${name}: ${details}`), { code, details });
}

/** grpc-js' status for an HTTP answer without a gRPC status. */
function httpStatusError(httpStatus: number): GrpcError {
  const code =
    httpStatus === 400
      ? GrpcStatus.INTERNAL
      : httpStatus === 401
        ? GrpcStatus.UNAUTHENTICATED
        : httpStatus === 403
          ? GrpcStatus.PERMISSION_DENIED
          : httpStatus === 404
            ? GrpcStatus.UNIMPLEMENTED
            : [429, 502, 503, 504].includes(httpStatus)
              ? GrpcStatus.UNAVAILABLE
              : GrpcStatus.UNKNOWN;
  return grpcError(code, `Received HTTP status code ${httpStatus}`);
}

function decodeGrpcMessage(raw: unknown): string {
  const text = typeof raw === 'string' ? raw : '';
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** One request message in gRPC's framing: an uncompressed flag byte, the 4-byte length, the protobuf bytes. */
export function frame(message: Buffer): Buffer {
  const out = Buffer.allocUnsafe(GRPC_HEADER_BYTES + message.length);
  out[0] = 0;
  out.writeUInt32BE(message.length, 1);
  message.copy(out, GRPC_HEADER_BYTES);
  return out;
}

/** The one response message of a unary call's body, or a grpc-js-shaped error. */
function unframe(chunks: Buffer[]): Buffer | GrpcError {
  const body = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks);
  if (body.length < GRPC_HEADER_BYTES) return grpcError(GrpcStatus.UNIMPLEMENTED, 'No message received');
  if (body[0] !== 0) return grpcError(GrpcStatus.INTERNAL, 'Received a compressed message, which was not asked for');
  const length = body.readUInt32BE(1);
  if (body.length < GRPC_HEADER_BYTES + length) return grpcError(GrpcStatus.INTERNAL, 'Truncated message received');
  return body.subarray(GRPC_HEADER_BYTES, GRPC_HEADER_BYTES + length);
}

/** A call's request headers by its metadata headers and path, made once (node:http2 copies what it is given). */
const requestHeadersOf = new WeakMap<http2.OutgoingHttpHeaders, Map<string, http2.OutgoingHttpHeaders>>();

function requestHeaders(headers: http2.OutgoingHttpHeaders, path: string): http2.OutgoingHttpHeaders {
  let byPath = requestHeadersOf.get(headers);
  if (byPath === undefined) {
    byPath = new Map();
    requestHeadersOf.set(headers, byPath);
  }
  let out = byPath.get(path);
  if (out === undefined) {
    out = { ...headers, ':method': 'POST', ':path': path };
    byPath.set(path, out);
  }
  return out;
}

/** One HTTP/2 connection to the member and what its calls need to know of it. */
class Connection {
  connected = false;
  lost = false;
  lastError = '';
  /** Calls in flight: while there are any, the session keeps the process running (as grpc-js' subchannels do). */
  #active = 0;
  #pinging = false;
  readonly #keepalive: NodeJS.Timeout;

  constructor(
    readonly session: http2.ClientHttp2Session,
    onGone: (c: Connection) => void,
  ) {
    session.unref();
    session.once('connect', () => {
      this.connected = true;
    });
    session.on('error', (err: Error) => {
      this.lastError = err.message;
    });
    session.once('goaway', () => onGone(this));
    session.once('close', () => {
      this.lost = true;
      clearInterval(this.#keepalive);
      onGone(this);
    });
    this.#keepalive = setInterval(() => this.#ping(), KEEPALIVE_TIME_MS).unref();
  }

  /** A keepalive ping while calls are in flight; no answer in time drops the session (and fails those calls). */
  #ping(): void {
    if (this.#active === 0 || this.#pinging || this.session.destroyed) return;
    this.#pinging = true;
    const timeout = setTimeout(() => this.session.destroy(), KEEPALIVE_TIMEOUT_MS).unref();
    const sent = this.session.ping((err) => {
      clearTimeout(timeout);
      this.#pinging = false;
      if (err) this.session.destroy();
    });
    if (!sent) {
      clearTimeout(timeout);
      this.#pinging = false;
    }
  }

  /** Counts `stream` as a call in flight until it closes. */
  track(stream: http2.ClientHttp2Stream): void {
    if (this.#active++ === 0) this.session.ref();
    stream.once('close', () => {
      if (--this.#active === 0) this.session.unref();
    });
  }

  /** The error of a call that ended without a gRPC status, as grpc-js words it for the same stream ending. */
  failureOf(rstCode: number, httpStatus: number | undefined, streamError: string): GrpcError {
    if (!this.connected) {
      // A stream waiting for the connection is closed with the session's error, before the session reports it.
      const error = this.lastError === '' ? streamError : this.lastError;
      const last = error === '' ? '' : ` Last error: ${error}`;
      return grpcError(GrpcStatus.UNAVAILABLE, `No connection established.${last}`);
    }
    if (rstCode === NGHTTP2_REFUSED_STREAM) return grpcError(GrpcStatus.UNAVAILABLE, 'Stream refused by server');
    if (this.lost || this.session.destroyed) return grpcError(GrpcStatus.UNAVAILABLE, 'Connection dropped');
    if (rstCode === NGHTTP2_CANCEL) return grpcError(GrpcStatus.CANCELLED, 'Call cancelled');
    if (httpStatus !== undefined && httpStatus !== 200) return httpStatusError(httpStatus);
    if (rstCode === NGHTTP2_INTERNAL_ERROR)
      return grpcError(GrpcStatus.INTERNAL, `Received RST_STREAM with code ${rstCode} (Internal server error)`);
    return grpcError(GrpcStatus.INTERNAL, `Received RST_STREAM with code ${rstCode} (Call ended without gRPC status)`);
  }
}

/** A started call: its HTTP/2 stream and how it ended (read once the stream closed). */
export interface OpenCall {
  stream: http2.ClientHttp2Stream;
  ending: CallEnding;
}

/**
 * How a call's stream ended: etcd's gRPC status (from the trailers, or the headers of a trailers-only answer), or the
 * failure grpc-js reports for a stream that ended without one.
 */
export class CallEnding {
  #grpcStatus: number | undefined;
  #grpcMessage = '';
  #httpStatus: number | undefined;
  #streamError = '';

  constructor(
    private readonly connection: Connection,
    private readonly stream: http2.ClientHttp2Stream,
  ) {
    stream.on('response', (h) => {
      this.#httpStatus = Number(h[':status']);
      this.#readStatus(h);
    });
    stream.on('trailers', (h) => this.#readStatus(h));
    stream.on('error', (err: Error) => {
      this.#streamError = err.message; // the outcome is read on 'close'
    });
  }

  #readStatus(h: http2.IncomingHttpHeaders): void {
    const raw = h['grpc-status'];
    if (raw === undefined) return;
    this.#grpcStatus = Number(raw);
    this.#grpcMessage = decodeGrpcMessage(h['grpc-message']);
  }

  /** The call's failure; undefined when it ended with status OK. */
  failure(): GrpcError | undefined {
    const status = this.#grpcStatus;
    if (status === undefined)
      return this.connection.failureOf(this.stream.rstCode, this.#httpStatus, this.#streamError);
    return status === 0 ? undefined : grpcError(status, this.#grpcMessage);
  }
}

/** The calls to one member: a session opened on first use and again after it was lost or told to go away. */
export class MemberSession {
  #connection: Connection | undefined;
  #closed = false;

  /** `authority`: `http://host:port` or `https://host:port`. */
  constructor(
    private readonly authority: string,
    private readonly tls: MemberTls | undefined,
  ) {}

  #connect(): Connection {
    const session = http2.connect(this.authority, {
      ...(this.tls ? { createConnection: () => this.#tlsSocket(this.tls ?? {}) } : {}),
      maxSessionMemory: Number.MAX_SAFE_INTEGER,
      maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
      settings: { initialWindowSize: FLOW_CONTROL_WINDOW_BYTES },
    });
    session.once('connect', () => session.setLocalWindowSize(FLOW_CONTROL_WINDOW_BYTES));
    const connection = new Connection(session, (c) => {
      if (this.#connection === c) this.#connection = undefined;
    });
    this.#connection = connection;
    return connection;
  }

  /** The TLS connection to the member: its certificate checked against its host name or IP address (no SNI for an IP). */
  #tlsSocket(tls: MemberTls): Duplex {
    const { hostname, port } = new URL(this.authority);
    const host = hostname.replace(/^\[|\]$/g, '');
    return connectTls({
      host,
      port: Number(port),
      ...tls,
      ALPNProtocols: ['h2'],
      ...(isIP(host) === 0 ? { servername: host } : {}),
    });
  }

  /**
   * Starts a call's HTTP/2 stream to `path` with `headers` (the gRPC ones and the call metadata), counted as in flight
   * on its session until it closes; a grpc-js-shaped error when no stream can be started.
   */
  open(path: string, headers: http2.OutgoingHttpHeaders): OpenCall | GrpcError {
    if (this.#closed) return grpcError(GrpcStatus.UNAVAILABLE, 'Channel closed before call started');
    const connection = this.#connection ?? this.#connect();
    let stream: http2.ClientHttp2Stream;
    try {
      stream = requestStream(connection.session, requestHeaders(headers, path));
    } catch (err) {
      if (this.#connection === connection) this.#connection = undefined;
      const text = err instanceof Error ? err.message : String(err);
      return grpcError(GrpcStatus.INTERNAL, `Failed to start HTTP/2 stream with error ${text}`);
    }
    connection.track(stream);
    return { stream, ending: new CallEnding(connection, stream) };
  }

  /**
   * One unary call: `framed` (the request message in gRPC's framing, see frame()) to `path` with `headers` (the call
   * metadata); resolves to the response message's bytes, or rejects with a grpc-js-shaped error.
   */
  call(path: string, headers: http2.OutgoingHttpHeaders, framed: Buffer): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      const call = this.open(path, headers);
      if (call instanceof Error) {
        reject(call);
        return;
      }
      const { stream, ending } = call;
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('close', () => {
        // A closed stream is not always garbage at once (node:http2 may still hold it), and whatever its listeners
        // hold would live as long: dropping them lets this call's closures, its chunks and its CallEnding die young
        // instead of being promoted (in process, with requestStream: 0.8 instead of 1.5 KB promoted per call).
        stream.removeAllListeners();
        const failure = ending.failure();
        if (failure !== undefined) reject(failure);
        else {
          const out = unframe(chunks);
          if (out instanceof Error) reject(out);
          else resolve(out);
        }
      });
      stream.end(framed);
    });
  }

  /** Lets the calls in flight finish and opens a new session for the next call (grpc-js' channel reset). */
  reset(): void {
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.session.close();
  }

  close(): void {
    this.#closed = true;
    this.reset();
  }
}

/** The headers every unary call sends besides its metadata. */
export const UNARY_HEADERS: http2.OutgoingHttpHeaders = {
  'content-type': 'application/grpc',
  te: 'trailers',
};

// etcd's Watch call (a bidirectional stream) on a member's node:http2 session (h2-member.ts), shaped as grpc-js'
// ClientDuplexStream as etcd3's watch manager uses it: WatchRequests written as objects (serialized with etcd3's own
// request serializer, framed for gRPC), WatchResponses read as objects (decoded by decodeWatchResponse), `cancel()`.
// Its ending is grpc-js': the readable side ends, and a status other than OK is then emitted as an 'error' worded as
// grpc-js words it (`1 CANCELLED: Cancelled on client` after cancel(), `14 UNAVAILABLE: Connection dropped` for a lost
// session, etcd's own status from the trailers …), so the watch manager reconnects and resumes exactly as it does.
import { constants, type ClientHttp2Stream } from 'node:http2';
import { Duplex } from 'node:stream';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { CallEnding, frame, GRPC_HEADER_BYTES, grpcError, type GrpcError, type OpenCall } from './h2-member';
import { decodeWatchResponse } from './watch-response';

const EMPTY = Buffer.alloc(0);

export class H2WatchStream extends Duplex {
  readonly #stream: ClientHttp2Stream | undefined;
  readonly #ending: CallEnding | undefined;
  /** The start of a response message whose last bytes have not arrived yet. */
  #partial: Buffer = EMPTY;
  #ended = false;

  /** `call`: the started Watch call, or the error it could not start with (then reported as its ending). */
  constructor(
    call: OpenCall | GrpcError,
    private readonly serialize: (request: unknown) => Buffer,
  ) {
    super({ objectMode: true });
    if (call instanceof Error) {
      this.#stream = undefined;
      this.#ending = undefined;
      process.nextTick(() => this.#end(call));
      return;
    }
    this.#stream = call.stream;
    this.#ending = call.ending;
    call.stream.on('data', (chunk: Buffer) => this.#receive(chunk));
    call.stream.on('close', () => this.#end(this.#ending?.failure()));
  }

  /** grpc-js' cancel(): ends the call with CANCELLED and resets its HTTP/2 stream. */
  cancel(): void {
    if (this.#ended) return;
    this.#end(grpcError(GrpcStatus.CANCELLED, 'Cancelled on client'));
    this.#stream?.close(constants.NGHTTP2_CANCEL);
  }

  override _read(): void {
    // Responses are pushed as they arrive; the watch manager reads in flowing mode.
  }

  override _write(request: unknown, _encoding: BufferEncoding, done: (err?: Error | null) => void): void {
    const stream = this.#stream;
    if (this.#ended || stream === undefined || stream.destroyed) {
      done(); // grpc-js drops a message written after the call's status
      return;
    }
    let bytes: Buffer;
    try {
      bytes = this.serialize(request);
    } catch (err) {
      done(err as Error);
      return;
    }
    stream.write(frame(bytes), () => done());
  }

  override _final(done: () => void): void {
    if (this.#stream !== undefined && !this.#stream.destroyed) this.#stream.end();
    done();
  }

  #receive(chunk: Buffer): void {
    let data = this.#partial.length === 0 ? chunk : Buffer.concat([this.#partial, chunk]);
    while (!this.#ended && data.length >= GRPC_HEADER_BYTES) {
      const length = data.readUInt32BE(1);
      const end = GRPC_HEADER_BYTES + length;
      if (data.length < end) break;
      if (data[0] !== 0) {
        this.#fail(grpcError(GrpcStatus.INTERNAL, 'Received a compressed message, which was not asked for'));
        return;
      }
      let response;
      try {
        response = decodeWatchResponse(data.subarray(GRPC_HEADER_BYTES, end));
      } catch (err) {
        const text = err instanceof Error ? err.message : String(err);
        this.#fail(grpcError(GrpcStatus.INTERNAL, `Response message parsing error: ${text}`));
        return;
      }
      data = data.subarray(end);
      // What push() does for a flowing stream with nothing buffered, without its per-message bookkeeping (and the
      // read-ahead it schedules, which _read has nothing for): the response goes to the 'data' listeners now.
      if (this.readableFlowing === true && this.readableLength === 0 && !this.destroyed) this.emit('data', response);
      else this.push(response);
    }
    this.#partial = data.length === 0 ? EMPTY : data;
  }

  /** Ends the call on the client's side with `error` (grpc-js' cancelWithStatus). */
  #fail(error: GrpcError): void {
    this.#end(error);
    this.#stream?.close(constants.NGHTTP2_CANCEL);
  }

  /** grpc-js' onReceiveStatus: the readable side ends, then a status other than OK is emitted as an error. */
  #end(error: GrpcError | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#partial = EMPTY;
    this.push(null);
    if (error !== undefined) this.emit('error', error);
  }
}

// A plain HTTP request sent to the TLS port: Go's net/http server (which kube-apiserver serves with) sees that the
// first five bytes are not a TLS record but the start of an HTTP request, answers a bare HTTP/1.0 400 with
// "Client sent an HTTP request to an HTTPS server." on the raw connection and closes it. Node's TLS server would
// just drop the connection, which clients report as an empty reply.
import type { Socket } from 'node:net';
import type { Server as TlsServer } from 'node:tls';

/** net/http's tlsRecordHeaderLooksLikeHTTP: the request lines Go recognises in place of a TLS record header. */
const HTTP_STARTS = ['GET /', 'HEAD ', 'POST ', 'PUT /', 'OPTIO'];
const HEADER_BYTES = 5;
export const PLAIN_HTTP_ANSWER = 'HTTP/1.0 400 Bad Request\r\n\r\nClient sent an HTTP request to an HTTPS server.\n';
/** Node's default TLS handshake timeout: a connection that sends no record header within it is dropped. */
const FIRST_BYTES_TIMEOUT_MS = 120_000;
/**
 * Go's Server.Shutdown closes a connection that has not sent its first request (StateNew, the TLS handshake
 * included) once it is this old, so a silent client cannot hold a shutdown.
 */
const NEW_CONNECTION_GRACE_MS = 5_000;

/** Per server: connections not yet through the TLS handshake, by remote address and port, with their arrival time. */
const handshaking = new WeakMap<TlsServer, Map<string, { socket: Socket; since: number }>>();

const connectionKey = (socket: { remoteAddress?: string | undefined; remotePort?: number | undefined }): string =>
  `${socket.remoteAddress ?? ''}|${socket.remotePort ?? ''}`;

/** At shutdown: drops the connections still short of a TLS session after Go's grace; true when none is left. */
export function closeStalledHandshakes(server: object, now = Date.now()): boolean {
  const pending = handshaking.get(server as TlsServer);
  if (!pending) return true;
  for (const [key, { socket, since }] of pending) {
    if (now - since < NEW_CONNECTION_GRACE_MS) continue;
    pending.delete(key);
    socket.destroy();
  }
  return pending.size === 0;
}

export function looksLikeHttp(header: Buffer): boolean {
  return HTTP_STARTS.includes(header.subarray(0, HEADER_BYTES).toString('latin1'));
}

/**
 * Puts a look at each connection's first five bytes in front of the TLS server's own connection handling: an HTTP
 * request line gets Go's 400, anything else is handed to TLS with the bytes read so far put back.
 */
export function answerPlainHttpOnTls(server: TlsServer): void {
  const tlsListeners = server.listeners('connection') as Array<(socket: Socket) => void>;
  server.removeAllListeners('connection');
  const handToTls = (socket: Socket): void => {
    for (const listener of tlsListeners) listener.call(server, socket);
  };
  const pending = new Map<string, { socket: Socket; since: number }>();
  handshaking.set(server, pending);
  server.on('secureConnection', (tlsSocket: Socket) => pending.delete(connectionKey(tlsSocket)));
  server.on('connection', (socket: Socket) => {
    const key = connectionKey(socket);
    pending.set(key, { socket, since: Date.now() });
    socket.once('close', () => {
      if (pending.get(key)?.socket === socket) pending.delete(key);
    });
    const chunks: Buffer[] = [];
    let length = 0;
    const timer = setTimeout(() => socket.destroy(), FIRST_BYTES_TIMEOUT_MS).unref();
    const done = (): void => {
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('end', onEnd);
      socket.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      chunks.push(chunk);
      length += chunk.length;
      if (length < HEADER_BYTES) return;
      done();
      socket.pause();
      const head = Buffer.concat(chunks);
      if (looksLikeHttp(head)) {
        socket.end(PLAIN_HTTP_ANSWER);
        return;
      }
      socket.unshift(head);
      handToTls(socket);
    };
    // Fewer than five bytes and the client is done: TLS would fail the handshake; close as it would.
    const onEnd = (): void => {
      done();
      socket.destroy();
    };
    const onError = (): void => {
      done();
      socket.destroy();
    };
    socket.on('data', onData);
    socket.once('end', onEnd);
    socket.once('error', onError);
  });
}

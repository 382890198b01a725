// APIResponseCompression (beta, on in 1.26): a resource response whose body passes 128 KiB is gzipped (level 1)
// when the request's Accept-Encoding names gzip, as kube-apiserver's deferredResponseWriter does. Handlers write a
// body once (writeHead, then end with the bytes), so the head is held back until end shows the size. Streams
// (watches) are not compressed; list bodies written part by part gzip themselves (endpoints/handlers/streamed-body.ts).
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gzip } from 'node:zlib';

import { GZIP_LEVEL, GZIP_THRESHOLD_BYTES, offerStreamedGzip } from '../../endpoints/handlers/streamed-body';

export { GZIP_THRESHOLD_BYTES };

/** negotiateContentEncoding: a comma-separated token that is exactly `gzip` (no parameters, no q-values). */
export function acceptsGzip(acceptEncoding: string | undefined): boolean {
  if (acceptEncoding === undefined || acceptEncoding === '') return false;
  return acceptEncoding.split(',').some((token) => token.trim() === 'gzip');
}

type WriteHead = ServerResponse['writeHead'];
type End = ServerResponse['end'];

/** The headers of a writeHead call (its second or third argument), as an object. */
function headersOf(args: unknown[]): OutgoingHttpHeaders {
  const last = args[args.length - 1];
  if (typeof last !== 'object' || last === null) return {};
  if (!Array.isArray(last)) return last as OutgoingHttpHeaders;
  // [name, value, name, value…] (Node's flat raw form)
  const headers: OutgoingHttpHeaders = {};
  for (let i = 0; i + 1 < last.length; i += 2) headers[String(last[i])] = last[i + 1] as string;
  return headers;
}

/** Holds the head of `res` until its body is known, then sends the body gzipped when it is large. */
export function compressLargeResponses(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === 'HEAD' || !acceptsGzip(req.headers['accept-encoding'])) return;
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res);
  let held: unknown[] | undefined;
  const restore = (): void => {
    res.writeHead = writeHead as WriteHead;
    res.end = end as End;
    res.write = write;
  };
  /** Sends the held head as it was given (small bodies, streams). */
  const release = (): void => {
    restore();
    if (held !== undefined) writeHead(...held);
    held = undefined;
  };
  // Bodies written part by part (lists) compress themselves as they stream.
  offerStreamedGzip(res, () => {
    restore();
    held = undefined;
  });
  res.writeHead = ((...args: unknown[]) => {
    held = args;
    return res;
  }) as WriteHead;
  res.write = ((...args: Parameters<ServerResponse['write']>) => {
    release(); // a streamed body: sent as it comes
    return write(...args);
  }) as ServerResponse['write'];
  res.end = ((...args: unknown[]) => {
    const [body] = args;
    const bytes = typeof body === 'string' ? Buffer.byteLength(body) : Buffer.isBuffer(body) ? body.length : 0;
    if (bytes <= GZIP_THRESHOLD_BYTES) {
      release();
      return end(...args);
    }
    const head = held;
    restore();
    held = undefined;
    gzip(typeof body === 'string' ? Buffer.from(body) : (body as Buffer), { level: GZIP_LEVEL }, (err, compressed) => {
      if (err) {
        // Not expected (gzip of bytes in memory); the body goes out uncompressed rather than not at all.
        if (head !== undefined) writeHead(...head);
        end(body);
        return;
      }
      const status = typeof head?.[0] === 'number' ? head[0] : res.statusCode;
      const headers = { ...headersOf(head ?? []), 'Content-Encoding': 'gzip', 'Content-Length': compressed.length };
      delete (headers as Record<string, unknown>)['content-length'];
      res.appendHeader('Vary', 'Accept-Encoding');
      writeHead(status, headers);
      end(compressed);
    });
    return res;
  }) as End;
}

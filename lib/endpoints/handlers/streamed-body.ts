// A response body written part by part from bytes already held (cached or stored item bytes): no whole-body
// buffer, writes paced by the socket (backpressure), gzipped as it goes when the response-compression filter
// offered it and the body passes the threshold.
import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';

/** kube-apiserver's defaultGzipThresholdBytes: smaller bodies are sent as they are. */
export const GZIP_THRESHOLD_BYTES = 128 * 1024;
/** defaultGzipContentEncodingLevel: the least CPU for a similar ratio (kubernetes/kubernetes#112296). */
export const GZIP_LEVEL = 1;

/** Responses whose client accepts gzip, with what undoes the compression filter's wrapping of them. */
const gzipOffers = new WeakMap<ServerResponse, () => void>();

/** Called by the compression filter: `res` may be gzipped by writeStreamedBody, which first calls `unwrap`. */
export function offerStreamedGzip(res: ServerResponse, unwrap: () => void): void {
  gzipOffers.set(res, unwrap);
}

/** Writes each part, waiting for 'drain' when the stream's buffer is full; false when the response closed first. */
async function writeAll(res: ServerResponse, out: Writable, parts: readonly Buffer[]): Promise<boolean> {
  for (const part of parts) {
    if (res.destroyed) return false;
    if (out.write(part)) continue;
    const open = await new Promise<boolean>((resolve) => {
      const drained = (): void => {
        res.off('close', closed);
        resolve(true);
      };
      const closed = (): void => {
        out.off('drain', drained);
        resolve(false);
      };
      out.once('drain', drained);
      res.once('close', closed);
    });
    if (!open) return false;
  }
  return true;
}

/**
 * Sends `parts` as the body: Content-Length when sent as they are (the same head as a body written at once),
 * a chunked gzip stream when the filter offered gzip and the body passes GZIP_THRESHOLD_BYTES.
 */
export async function writeStreamedBody(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  parts: readonly Buffer[],
): Promise<void> {
  const length = parts.reduce((n, part) => n + part.length, 0);
  const unwrap = gzipOffers.get(res);
  unwrap?.();
  if (unwrap === undefined || length <= GZIP_THRESHOLD_BYTES) {
    res.writeHead(status, { ...headers, 'Content-Length': length });
    if (await writeAll(res, res, parts)) res.end();
    return;
  }
  res.appendHeader('Vary', 'Accept-Encoding');
  res.writeHead(status, { ...headers, 'Content-Encoding': 'gzip' });
  const gzip = createGzip({ level: GZIP_LEVEL });
  gzip.pipe(res);
  res.once('close', () => gzip.destroy());
  if (await writeAll(res, gzip, parts)) gzip.end();
}

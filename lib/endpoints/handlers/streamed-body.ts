// A response body written from bytes already held (cached or stored item bytes): no whole-body buffer, small parts
// gathered into large writes (coalesced-writes.ts) paced by the socket, gzipped as it goes when the
// response-compression filter offered it and the body passes the threshold.
import type { ServerResponse } from 'node:http';
import { createGzip } from 'node:zlib';
import { writeCoalesced } from './coalesced-writes';

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

interface Head {
  status: number;
  headers: Record<string, string | number>;
}

/** Sends the head with Content-Length and `parts` as they are. */
async function writeWithLength(res: ServerResponse, head: Head, parts: readonly Buffer[]): Promise<void> {
  const length = parts.reduce((n, part) => n + part.length, 0);
  res.writeHead(head.status, { ...head.headers, 'Content-Length': length });
  if (await writeCoalesced(res, res, parts)) res.end();
}

/** Sends `parts` chunked (no length known up front), through gzip when `gzip`. */
async function writeChunked(res: ServerResponse, head: Head, parts: Iterable<Buffer>, gzip: boolean): Promise<void> {
  const { status, headers } = head;
  if (!gzip) {
    res.writeHead(status, headers);
    if (await writeCoalesced(res, res, parts)) res.end();
    return;
  }
  res.appendHeader('Vary', 'Accept-Encoding');
  res.writeHead(status, { ...headers, 'Content-Encoding': 'gzip' });
  const compressor = createGzip({ level: GZIP_LEVEL });
  compressor.pipe(res);
  res.once('close', () => compressor.destroy());
  if (await writeCoalesced(res, compressor, parts)) compressor.end();
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
  if (unwrap === undefined || length <= GZIP_THRESHOLD_BYTES) return writeWithLength(res, { status, headers }, parts);
  return writeChunked(res, { status, headers }, parts, true);
}

/** Text pieces as UTF-8 buffers of at least `size` bytes (the last one may be smaller), joined as they come. */
export function* utf8Batches(pieces: Iterable<string>, size = WRITE_BATCH_BYTES): Generator<Buffer> {
  let batch: string[] = [];
  let length = 0;
  for (const piece of pieces) {
    batch.push(piece);
    length += piece.length;
    if (length < size) continue;
    yield Buffer.from(batch.join(''));
    batch = [];
    length = 0;
  }
  if (batch.length > 0) yield Buffer.from(batch.join(''));
}

/** How much serialized text a generated body gathers per write. */
const WRITE_BATCH_BYTES = 64 * 1024;

/**
 * Sends a body serialized while it is written: each part is produced only once the earlier ones are accepted by
 * the socket (or the compressor), so the whole body never exists at once. A body that ends within
 * GZIP_THRESHOLD_BYTES is sent like one written at once (Content-Length, never gzipped); a larger one is sent
 * chunked, gzipped when the filter offered gzip.
 */
export async function writeGeneratedBody(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | number>,
  parts: Iterable<Buffer>,
): Promise<void> {
  const iterator = parts[Symbol.iterator]();
  const head: Buffer[] = [];
  let length = 0;
  let next = iterator.next();
  for (; !next.done; next = iterator.next()) {
    head.push(next.value);
    length += next.value.length;
    if (length > GZIP_THRESHOLD_BYTES) break;
  }
  const unwrap = gzipOffers.get(res);
  unwrap?.();
  if (next.done === true) return writeWithLength(res, { status, headers }, head);
  const rest = function* (): Generator<Buffer> {
    yield* head.splice(0);
    for (next = iterator.next(); !next.done; next = iterator.next()) yield next.value;
  };
  return writeChunked(res, { status, headers }, rest(), unwrap !== undefined);
}

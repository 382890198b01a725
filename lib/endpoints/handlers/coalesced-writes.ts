// Writes many small parts (list items, commas) to a response as few large writes: parts are copied into reused
// chunk buffers and each full chunk is one write, so a 10,000-item list costs a few hundred writes instead of
// 20,000 (each write is a stream call, a socket syscall or a zlib job). Chunks come back to a small shared pool
// once their write has completed, so a body allocates nothing per chunk.
import type { ServerResponse } from 'node:http';
import type { Writable } from 'node:stream';

/** One write's size: parts are gathered up to this; a part at least this large is written as it is. */
export const CHUNK_BYTES = 64 * 1024;
/** Writes in flight per response (chunks handed to the stream whose callbacks have not yet run). */
const IN_FLIGHT = 2;
/** Spare chunks kept between responses (4 MiB). */
const SPARE_LIMIT = 64;
const spare: Buffer[] = [];

function takeChunk(): Buffer {
  return spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK_BYTES);
}

/**
 * Writes each part to `out` (the response, or a compressor piped into it), gathering small parts into shared
 * chunks; at most IN_FLIGHT writes are outstanding, each awaited through its callback (the stream is done with a
 * chunk then, so it can be reused). False when the response closed or a write failed before all were written.
 */
export async function writeCoalesced(res: ServerResponse, out: Writable, parts: Iterable<Buffer>): Promise<boolean> {
  let pending = 0;
  let failed = false;
  let wake: (() => void) | undefined;
  const onClose = (): void => wake?.();
  res.once('close', onClose);
  const settled = (chunk: Buffer | undefined) => (err?: Error | null) => {
    pending--;
    if (err) failed = true;
    else if (chunk !== undefined && spare.length < SPARE_LIMIT) spare.push(chunk);
    wake?.();
  };
  /** Waits until fewer than `limit` writes are in flight; false when the response is gone. */
  const room = async (limit: number): Promise<boolean> => {
    while (pending >= limit && !failed && !res.destroyed) await new Promise<void>((resolve) => (wake = resolve));
    wake = undefined;
    return !failed && !res.destroyed;
  };
  /** Hands `data` to the stream; `chunk` is the pooled buffer it views (returned to the pool when written). */
  const send = async (data: Buffer, chunk: Buffer | undefined): Promise<boolean> => {
    if (!(await room(IN_FLIGHT))) return false;
    pending++;
    out.write(data, settled(chunk));
    return true;
  };
  let chunk: Buffer | undefined;
  let used = 0;
  try {
    for (const part of parts) {
      if (part.length >= CHUNK_BYTES) {
        if (used > 0 && !(await send((chunk as Buffer).subarray(0, used), chunk))) return false;
        [chunk, used] = [undefined, 0];
        if (!(await send(part, undefined))) return false;
        continue;
      }
      let at = 0;
      while (at < part.length) {
        chunk ??= takeChunk();
        // TypedArray#set copies without the view Buffer#copy allocates per call; a part crossing chunks is split.
        const copied = Math.min(part.length - at, CHUNK_BYTES - used);
        chunk.set(copied === part.length ? part : part.subarray(at, at + copied), used);
        used += copied;
        at += copied;
        if (used < CHUNK_BYTES) continue;
        if (!(await send(chunk, chunk))) return false;
        [chunk, used] = [undefined, 0];
      }
    }
    if (used > 0 && !(await send((chunk as Buffer).subarray(0, used), chunk))) return false;
    return await room(1);
  } finally {
    res.off('close', onClose);
  }
}

// HTTP/1.1 chunks for watch streams, written straight to the socket: one write per watcher per batch, and
// one framed buffer shared by every watcher that sends the same events in the same batch (the usual case).
import type { ServerResponse } from 'node:http';

const CRLF = Buffer.from('\r\n');
const ids = new WeakMap<Buffer, number>();
let nextId = 1;
/** Frames built during the current tick, by the identities of their parts (a dispatch flushes in one tick). */
let framesThisTick: Map<string, Buffer> | undefined;

function idOf(part: Buffer): number {
  let id = ids.get(part);
  if (id === undefined) {
    id = nextId++;
    ids.set(part, id);
  }
  return id;
}

function frame(parts: Buffer[]): Buffer {
  const length = parts.reduce((n, p) => n + p.length, 0);
  return Buffer.concat([Buffer.from(`${length.toString(16)}\r\n`), ...parts, CRLF]);
}

/** One chunk holding `parts`, shared with other streams framing the same parts in this tick. */
export function sharedChunk(parts: Buffer[]): Buffer {
  const key = parts.length === 1 ? String(idOf(parts[0] as Buffer)) : parts.map(idOf).join(',');
  if (framesThisTick === undefined) {
    framesThisTick = new Map();
    process.nextTick(() => (framesThisTick = undefined));
  }
  let chunk = framesThisTick.get(key);
  if (chunk === undefined) {
    chunk = frame(parts);
    framesThisTick.set(key, chunk);
  }
  return chunk;
}

/**
 * Writes `parts` as one chunk of a chunked response whose headers are flushed. Straight to the socket: Node's
 * per-write chunk bookkeeping (and its cork/uncork per tick) costs more than the event itself at high fan-out;
 * `res.end()` still writes the last chunk. Returns the bytes waiting in the socket's buffer.
 */
export function writeChunk(res: ServerResponse, parts: Buffer[]): number {
  const socket = res.socket;
  if (socket === null || socket.destroyed) {
    res.write(parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts));
    return res.writableLength;
  }
  socket.write(sharedChunk(parts));
  return socket.writableLength;
}

/**
 * Writes `parts` (`length` bytes in all) as one chunk without joining them: the socket is corked for the chunk, so
 * the parts go out in one writev, each still the caller's buffer (a cached object's bytes are not copied). Returns
 * the bytes waiting in the socket's buffer.
 */
export function writeChunkParts(res: ServerResponse, parts: Buffer[], length: number): number {
  const socket = res.socket;
  if (socket === null || socket.destroyed) {
    res.write(Buffer.concat(parts, length));
    return res.writableLength;
  }
  socket.cork();
  socket.write(Buffer.from(`${length.toString(16)}\r\n`, 'latin1'));
  for (const part of parts) socket.write(part);
  socket.write(CRLF);
  socket.uncork();
  return socket.writableLength;
}

/** A batch's chunk by the batch (one array shared by a watcher group) and the group's form. */
const batchChunks = new WeakMap<readonly unknown[], Map<string, Buffer>>();

/**
 * Writes a group's batch as one chunk, framed once for every watcher of the group (`lines` runs for the first
 * one only). Returns the bytes waiting in the socket's buffer, or undefined when there is no socket to write to.
 */
export function writeBatchChunk(
  res: ServerResponse,
  batch: readonly unknown[],
  form: string,
  lines: () => Buffer[],
): number | undefined {
  const socket = res.socket;
  if (socket === null || socket.destroyed) return undefined;
  let byForm = batchChunks.get(batch);
  if (byForm === undefined) {
    byForm = new Map();
    batchChunks.set(batch, byForm);
  }
  let chunk = byForm.get(form);
  if (chunk === undefined) {
    chunk = frame(lines());
    byForm.set(form, chunk);
  }
  socket.write(chunk);
  return socket.writableLength;
}

// Raw watch connections for the benchmarks: one HTTP/1.1 GET per socket, the chunked JSON stream scanned for
// MODIFIED events' resourceVersions without decoding (cheap per event, so thousands fit in one process).
import { connect, type Socket } from 'node:net';

/** How a MODIFIED event's line starts (events are one JSON object per line, `type` first). */
const MODIFIED_LINE = Buffer.from('{"type":"MODIFIED"');
const RV_MARK = Buffer.from('"resourceVersion":"');
const NEWLINE = 0x0a;

export const now = (): number => performance.timeOrigin + performance.now();

/** Calls `onRevision` when `data[start, end)` is a MODIFIED event's line (its first resourceVersion is the object's). */
function scanLine(
  data: Buffer,
  start: number,
  end: number,
  at: number,
  onRevision: (rv: number, at: number) => void,
): void {
  if (end - start < MODIFIED_LINE.length) return;
  if (data.compare(MODIFIED_LINE, 0, MODIFIED_LINE.length, start, start + MODIFIED_LINE.length) !== 0) return;
  const m = data.indexOf(RV_MARK, start);
  if (m < 0 || m >= end) return;
  let rv = 0;
  for (let i = m + RV_MARK.length; i < end && data[i] !== 0x22; i++) rv = rv * 10 + ((data[i] as number) - 0x30);
  onRevision(rv, at);
}

/**
 * Where every raw watch of this process reads into (net's `onread`): each read is scanned at once, before the next
 * read of any socket, so one buffer serves them all and no read allocates (thousands of streams in one process
 * otherwise spend much of their time in the readable stream's per-read buffers and their garbage collection).
 */
const READ_BUFFER = Buffer.alloc(256 * 1024);

/**
 * Opens a raw watch and calls `onRevision` per MODIFIED event with the time its bytes were read. Scans line by line
 * without decoding: a line's first bytes say its type, the next newline (memchr) ends it; only a line split
 * between two reads is copied. Cheap per event, so thousands of watchers fit in one process.
 */
export function rawWatch(port: number, path: string, onRevision: (rv: number, at: number) => void): Promise<Socket> {
  /** The start of a line whose end has not been read yet. */
  let partial: Buffer | undefined;
  /** Scans one read (in READ_BUFFER); true: keep reading. */
  const onRead = (nread: number): boolean => {
    const at = now();
    const chunk = READ_BUFFER.subarray(0, nread);
    let start = 0;
    if (partial !== undefined) {
      const nl = chunk.indexOf(NEWLINE);
      if (nl < 0) {
        partial = Buffer.concat([partial, chunk]);
        return true;
      }
      const line = Buffer.concat([partial, chunk.subarray(0, nl)]);
      partial = undefined;
      scanLine(line, 0, line.length, at, onRevision);
      start = nl + 1;
    }
    for (let nl = chunk.indexOf(NEWLINE, start); nl >= 0; nl = chunk.indexOf(NEWLINE, start)) {
      scanLine(chunk, start, nl, at, onRevision);
      start = nl + 1;
    }
    // A copy: the read buffer is every socket's.
    if (start < chunk.length) partial = Buffer.from(chunk.subarray(start));
    return true;
  };
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', onread: { buffer: READ_BUFFER, callback: onRead } }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: bench\r\n\r\n`);
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** Opens a watch and never reads from it (a stalled client): the server's buffers for it fill up. */
export function pausedWatch(port: number, path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: bench\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
    socket.on('error', reject);
  });
}

/** Opens a watch and reads until `marker` has arrived (e.g. the end-of-initial-events bookmark); resolves with the bytes read. */
export function watchUntil(port: number, path: string, marker: string): Promise<number> {
  const mark = Buffer.from(marker);
  return new Promise((resolve, reject) => {
    let bytes = 0;
    let tail: Buffer = Buffer.alloc(0);
    const socket = connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: bench\r\n\r\n`));
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`watch closed before ${marker} (${bytes} bytes read)`)));
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      const data = Buffer.concat([tail, chunk]);
      if (data.includes(mark)) {
        socket.removeAllListeners('close');
        socket.destroy();
        resolve(bytes);
        return;
      }
      tail = data.subarray(Math.max(0, data.length - mark.length));
    });
  });
}

// Raw watch connections for the benchmarks: one HTTP/1.1 GET per socket, the chunked JSON stream scanned for
// MODIFIED events' resourceVersions without decoding (cheap per event, so thousands fit in one process).
import { connect, type Socket } from 'node:net';

const MODIFIED_MARK = Buffer.from('"type":"MODIFIED"');
const RV_MARK = Buffer.from('"resourceVersion":"');

export const now = (): number => performance.timeOrigin + performance.now();

/** Opens a raw watch and calls `onRevision` per MODIFIED event; scans bytes without decoding (cheap per event). */
export function rawWatch(port: number, path: string, onRevision: (rv: number) => void): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: bench\r\n\r\n`);
      resolve(socket);
    });
    socket.on('error', reject);
    let tail: Buffer = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      const data = tail.length === 0 ? chunk : Buffer.concat([tail, chunk]);
      let at = data.indexOf(MODIFIED_MARK);
      let consumed = 0;
      while (at >= 0) {
        const m = data.indexOf(RV_MARK, at);
        if (m < 0) break;
        let rv = 0;
        let i = m + RV_MARK.length;
        for (; i < data.length && data[i] !== 0x22; i++) rv = rv * 10 + ((data[i] as number) - 0x30);
        if (i >= data.length) break;
        onRevision(rv);
        consumed = i;
        at = data.indexOf(MODIFIED_MARK, i);
      }
      tail = data.subarray(Math.max(consumed, data.length - 200));
    });
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

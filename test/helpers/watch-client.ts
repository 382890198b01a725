// Reads a JSON watch stream line by line, for tests that wait for specific events.
import { request } from 'node:http';

export interface WatchEvent {
  type: string;
  object: any;
}

export interface WatchStream {
  status: number;
  /** Resolves with the next `count` events (waiting for them with a deadline). */
  next(count: number, timeoutMs?: number): Promise<WatchEvent[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

export function openWatch(baseUrl: string, path: string): Promise<WatchStream> {
  return new Promise((resolve, reject) => {
    const req = request(baseUrl + path, (res) => {
      const events: WatchEvent[] = [];
      const waiters: (() => void)[] = [];
      let buffer = '';
      let ended = false;
      const notify = (): void => waiters.splice(0).forEach((w) => w());
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let nl: number;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim() !== '') events.push(JSON.parse(line) as WatchEvent);
        }
        notify();
      });
      const endedPromise = new Promise<void>((done) =>
        res.on('end', () => {
          ended = true;
          notify();
          done();
        }),
      );
      let taken = 0;
      resolve({
        status: res.statusCode ?? 0,
        ended: endedPromise,
        close: () => req.destroy(),
        next: (count, timeoutMs = 5000) =>
          new Promise((ok, fail) => {
            const deadline = setTimeout(
              () =>
                fail(
                  new Error(
                    `timed out waiting for ${count} watch events; have ${events.length - taken}: ${JSON.stringify(events.slice(taken))}`,
                  ),
                ),
              timeoutMs,
            );
            const check = (): void => {
              if (events.length - taken >= count) {
                clearTimeout(deadline);
                const out = events.slice(taken, taken + count);
                taken += count;
                ok(out);
              } else if (ended) {
                clearTimeout(deadline);
                fail(new Error(`stream ended after ${events.length - taken} of ${count} events`));
              } else waiters.push(check);
            };
            check();
          }),
      });
    });
    req.on('error', reject);
    req.end();
  });
}

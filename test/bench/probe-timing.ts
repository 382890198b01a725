// Loaded into a bench server with `--require` (BENCH_SERVER_NODE_ARGS="--require <dist>/test/bench/probe-timing.js"
// with BENCH_PROBE_TIMING_FILE=<file>): for each probe of apf-probe.ts (it sends the time it sent the probe in a
// header), one JSON line in that file: the server script, the probe's kind (/readyz or the system:masters LIST), and
// where its time went: from being sent to its connection's accept by the server (the kernel's accept queue behind
// the storm's connections, and the client's own delays), from accept to its request's headers being parsed (the
// work ahead of it in the event loop: the storm's accepts and reads), and from then to its response's last byte
// handed to the kernel (its own handling, plus any later event-loop pass it waits for, e.g. an etcd round trip).
import { appendFileSync } from 'node:fs';
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const FILE = process.env['BENCH_PROBE_TIMING_FILE'];
/** apf-probe.ts's PROBE_SENT_HEADER (not imported: this file is loaded before the server, alone). */
const SENT_HEADER = 'x-bench-probe-sent';
const ACCEPTED = Symbol('probe-timing-accepted');
type Stamped = Socket & { [ACCEPTED]?: number };

function probeKind(req: IncomingMessage): string | undefined {
  if (req.headers[SENT_HEADER] === undefined) return undefined;
  return req.url === '/readyz' ? 'readyz' : 'masters';
}

if (FILE) {
  const emit = Server.prototype.emit;
  Server.prototype.emit = function (this: Server, event: string | symbol, ...args: unknown[]): boolean {
    const now = performance.now();
    if (event === 'connection') (args[0] as Stamped)[ACCEPTED] = now;
    else if (event === 'request') {
      const req = args[0] as IncomingMessage;
      const res = args[1] as ServerResponse;
      const kind = probeKind(req);
      const accepted = (req.socket as Stamped)[ACCEPTED];
      if (kind && accepted !== undefined) {
        res.once('finish', () => {
          const sentAt = Number(req.headers[SENT_HEADER]);
          const line = {
            script: process.argv[1],
            kind,
            sentToAcceptMs: performance.timeOrigin + accepted - sentAt,
            acceptToRequestMs: now - accepted,
            requestToFinishMs: performance.now() - now,
          };
          appendFileSync(FILE, `${JSON.stringify(line)}\n`);
        });
      }
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  };
}

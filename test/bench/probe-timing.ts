// Loaded into a bench server with `--require` (BENCH_SERVER_NODE_ARGS="--require <dist>/test/bench/probe-timing.js"
// with BENCH_PROBE_TIMING_FILE=<file>): for each exempt probe of apf-probe.ts (GET /readyz, or a request with the
// admin token), one JSON line in that file: the server script, the probe's kind, and where its time in the server
// went: from its connection's accept to its request's headers being parsed (the work ahead of it in the event
// loop: the storm's accepts and reads), and from then to its response's last byte handed to the kernel (its own
// handling, plus any later event-loop pass it must wait for, e.g. an etcd round trip).
import { appendFileSync } from 'node:fs';
import { Server, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

const FILE = process.env['BENCH_PROBE_TIMING_FILE'];
const ACCEPTED = Symbol('probe-timing-accepted');
type Stamped = Socket & { [ACCEPTED]?: number };

function probeKind(req: IncomingMessage): string | undefined {
  if (req.url === '/readyz') return 'readyz';
  if (req.headers.authorization === 'Bearer admin-token') return 'masters';
  return undefined;
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
          const line = {
            script: process.argv[1],
            kind,
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

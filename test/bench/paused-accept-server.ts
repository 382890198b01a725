// An EXPERIMENT for apf-probe-ab.ts, not the server's behaviour: this build's apiserver with its HTTP server accepting
// connections paused and resuming at most BENCH_RESUME_PER_TURN (default 32) of them per event-loop turn, the newest
// arrivals first, then the oldest waiting ones — so a loop turn reads a bounded number of storm requests and a
// probe accepted mid-storm is read in the next turn. Plain HTTP only (a TLS server's handshake reads the socket
// itself). Run: `BENCH_APF_DECOMPOSE=1 BENCH_BASE_SCRIPT=dist/test/bench/paused-accept-server.js
// BENCH_BASE_LABEL=paused node dist/test/bench/apf-probe-ab.js`.
import { Server } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';

const PER_TURN = Number(process.env['BENCH_RESUME_PER_TURN'] ?? 32);

function pauseOnAccept(server: Server): void {
  (server as Server & { pauseOnConnect: boolean }).pauseOnConnect = true;
  let fresh: Socket[] = [];
  const waiting: Socket[] = [];
  let scheduled = false;
  const drain = (): void => {
    scheduled = false;
    if (fresh.length > PER_TURN) waiting.push(...fresh.splice(0, fresh.length - PER_TURN));
    let budget = PER_TURN - fresh.length;
    for (const socket of fresh) if (!socket.destroyed) socket.resume();
    fresh = [];
    for (; budget > 0 && waiting.length; budget--) {
      const socket = waiting.shift();
      if (socket && !socket.destroyed) socket.resume();
    }
    if (waiting.length) {
      scheduled = true;
      setImmediate(drain);
    }
  };
  server.on('connection', (socket: Socket) => {
    fresh.push(socket);
    if (!scheduled) {
      scheduled = true;
      setImmediate(drain);
    }
  });
}

const listen = Server.prototype.listen;
Server.prototype.listen = function (this: Server, ...args: unknown[]): Server {
  pauseOnAccept(this);
  return Reflect.apply(listen, this, args) as Server;
};

void import(join(__dirname, '..', '..', 'cmd', 'apiserver.js'));

// The 429 kube-apiserver answers when API Priority and Fairness or the max-in-flight filter turns a request away
// (filters/maxinflight.go tooManyRequests: Go's http.Error with Retry-After).
import type { ServerResponse } from 'node:http';

export const TOO_MANY_REQUESTS_BODY = 'Too many requests, please try again later.\n';

export function writeTooManyRequests(res: ServerResponse): void {
  if (res.headersSent || res.destroyed) {
    res.end();
    return;
  }
  res.setHeader('Retry-After', '1');
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.writeHead(429);
  res.end(TOO_MANY_REQUESTS_BODY);
}

/** 429s to write, oldest first; `written` of them are out. */
const pending: ServerResponse[] = [];
let written = 0;
/** How many 429s one turn of the event loop writes before it polls for I/O again. */
const SLICE = 16;

function drain(): void {
  const end = Math.min(pending.length, written + SLICE);
  for (; written < end; written++) writeTooManyRequests(pending[written] as ServerResponse);
  if (written < pending.length) {
    setImmediate(drain);
    return;
  }
  pending.length = 0;
  written = 0;
}

/**
 * The same 429, written after the I/O that is ready now: a storm of rejected requests (each a socket write, a
 * shutdown and a close) is answered a slice per event-loop turn, so the requests behind it in the same poll (an
 * exempt /readyz probe, a system:masters request, the etcd answers they wait for) are read and served in between
 * rather than after the whole storm.
 */
export function writeTooManyRequestsSoon(res: ServerResponse): void {
  pending.push(res);
  if (pending.length === 1) setImmediate(drain);
}

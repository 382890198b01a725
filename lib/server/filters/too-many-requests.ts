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

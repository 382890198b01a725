// Opening a node:http2 client stream without what Node 20's request() makes every stream outlive its call.
//
// ClientHttp2Session.request() wraps the stream's start in `new AsyncResource('PendingRequest').bind(...)`. Node 20's
// AsyncResource.prototype.bind gives every bound function a deprecated `asyncResource` accessor built with
// util.deprecate, and deprecate makes the accessor's closure the prototype of a fresh function. V8 keeps a function's
// prototype in its map, maps live in old space, and an old-space object keeps what it points to alive through every
// scavenge until the next mark-compact. The accessor's closure reaches the bound start function and through it the
// stream, so each stream was promoted to old space with everything it held (its states, headers, buffers, the
// response headers' external strings), to be found dead by the next mark-compact. Measured (docs/benchmarks.md,
// session 16): unary etcd calls in process 3.1 -> 0.8 KB promoted and ~25 % less CPU per call; the server's consistent
// GETs at c16 (one revision read per ~8 GETs) 360-410 -> 8-9 B promoted per GET, and no mark-compact in the phase.
//
// While request() runs (synchronously), AsyncResource.prototype.bind is a plain equivalent: the bound function still
// runs the stream's start in the PendingRequest resource's async scope, as Node's does; it only lacks the deprecated
// accessor, which nothing reads. The method found is back in place before request() returns or throws.
import { AsyncResource } from 'node:async_hooks';
import type * as http2 from 'node:http2';

type Bind = AsyncResource['bind'];

type Bindable = (this: unknown, ...args: unknown[]) => unknown;

/** AsyncResource.prototype.bind without the deprecated `asyncResource` accessor on the bound function. */
function bindInScope(this: AsyncResource, fn: Bindable, thisArg?: unknown): Bindable {
  return boundInScope(this, fn, thisArg);
}

function boundInScope(resource: AsyncResource, fn: Bindable, thisArg: unknown): Bindable {
  return function runInScope(this: unknown, ...args: unknown[]) {
    return resource.runInAsyncScope(fn, thisArg === undefined ? this : thisArg, ...args);
  };
}

/** session.request(headers), with a stream that dies young once its call is over (see the top of this file). */
export function requestStream(
  session: http2.ClientHttp2Session,
  headers: http2.OutgoingHttpHeaders,
): http2.ClientHttp2Stream {
  const prototype = AsyncResource.prototype;
  const bind = prototype.bind; // Node's, or whatever replaced it since (an instrumentation agent's): put back as found
  prototype.bind = bindInScope as unknown as Bind;
  try {
    return session.request(headers);
  } finally {
    prototype.bind = bind;
  }
}

// The finding of get-tail.ts alone: unary gRPC calls (etcd's count-only Range, as a consistent GET's revision read
// makes them) over a bare node:http2 session, closed loop. Run under `node --trace-gc-nvp` by get-tail.ts; what the
// calls leave surviving the scavenges is node:http2's, with no project code involved.
// `request-stream` as the fourth argument opens each stream through lib/storage/etcd/h2-request.ts' requestStream (as
// the server does) instead of session.request(): the difference is what Node 20's AsyncResource.bind makes survive.
// Alone: `node --trace-gc-nvp dist/test/bench/h2-unary-gc.js <etcd client URL> [concurrency] [seconds] [request-stream]`.
import * as http2 from 'node:http2';
import { requestStream } from '../../lib/storage/etcd/h2-request';

const [url, concurrencyArg, secondsArg, opener] = process.argv.slice(2);
if (url === undefined)
  throw new Error('usage: h2-unary-gc.js <etcd client URL> [concurrency] [seconds] [request-stream]');
const open =
  opener === 'request-stream'
    ? (headers: http2.OutgoingHttpHeaders) => requestStream(session, headers)
    : (headers: http2.OutgoingHttpHeaders) => session.request(headers);
const concurrency = Number(concurrencyArg ?? 4);
const seconds = Number(secondsArg ?? 5);
/** RangeRequest{key: "\0", count_only: true} in gRPC's framing (flag byte, 4-byte length). */
const MESSAGE = Buffer.from([0, 0, 0, 0, 5, 0x0a, 0x01, 0x00, 0x48, 0x01]);
const session = http2.connect(url);
const end = Date.now() + seconds * 1000;
let calls = 0;

function call(): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = open({
      'content-type': 'application/grpc',
      te: 'trailers',
      ':method': 'POST',
      ':path': '/etcdserverpb.KV/Range',
    });
    stream.on('data', () => undefined);
    stream.on('error', reject);
    stream.on('close', () => resolve());
    stream.end(MESSAGE);
  });
}

async function worker(): Promise<void> {
  while (Date.now() < end) {
    await call();
    calls++;
  }
}

void Promise.all(Array.from({ length: concurrency }, worker)).then(() => {
  process.stdout.write(`H2_UNARY_CALLS ${calls}\n`);
  session.close();
});

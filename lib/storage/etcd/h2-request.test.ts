// requestStream() opens node:http2 streams as session.request() does: against a real etcd, its streams answer, run
// their events in the async context that opened them (also when they wait for the session to connect), and Node's own
// AsyncResource.prototype.bind is back in place afterwards, whether request() returned or threw.
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import * as http2 from 'node:http2';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { frame, UNARY_HEADERS } from './h2-member';
import { requestStream } from './h2-request';

const shared = useTestEtcd();
const nodeBind = AsyncResource.prototype.bind;
const RANGE_HEADERS = { ...UNARY_HEADERS, ':method': 'POST', ':path': '/etcdserverpb.KV/Range' };
/** RangeRequest{key: "/h2-request/none"}. */
const RANGE = frame(Buffer.concat([Buffer.from([0x0a, 16]), Buffer.from('/h2-request/none')]));

interface Answer {
  status: string | undefined;
  bytes: number;
  storeSeen: unknown;
}

/**
 * A Range call on `session` opened inside `context.run(store)`: etcd's grpc-status, the body's size and the store its
 * body was read in (and its stream closed in).
 */
function rangeIn(session: http2.ClientHttp2Session, context: AsyncLocalStorage<string>, store: string) {
  return new Promise<Answer>((resolve, reject) => {
    context.run(store, () => {
      const stream = requestStream(session, RANGE_HEADERS);
      let status: string | undefined;
      let bytes = 0;
      let storeSeen: unknown;
      stream.on('trailers', (trailers) => {
        status = String(trailers['grpc-status']);
      });
      stream.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        storeSeen = context.getStore(); // node:http2 reads the body in the scope its native stream was made in
      });
      stream.on('error', reject);
      stream.on('close', () =>
        resolve({ status, bytes, storeSeen: storeSeen === context.getStore() ? storeSeen : 'differs' }),
      );
      stream.end(RANGE);
    });
  });
}

describe('requestStream (h2-request.ts)', () => {
  it('answers on a connecting session and on a connected one, in the context that opened the stream', async () => {
    const session = http2.connect(shared.etcd().clientUrl);
    const context = new AsyncLocalStorage<string>();
    try {
      expect(session.connecting).toBe(true);
      const first = rangeIn(session, context, 'opened while connecting'); // started once the session connects
      expect(AsyncResource.prototype.bind).toBe(nodeBind);
      const early = await first;
      const later = await rangeIn(session, context, 'opened when connected');
      expect(AsyncResource.prototype.bind).toBe(nodeBind);
      expect(early).toEqual({ status: '0', bytes: expect.any(Number), storeSeen: 'opened while connecting' });
      expect(later).toEqual({ status: '0', bytes: early.bytes, storeSeen: 'opened when connected' });
      expect(early.bytes).toBeGreaterThan(5); // a framed RangeResponse with its header
    } finally {
      session.close();
    }
  });

  it("puts Node's AsyncResource.prototype.bind back when request() throws", async () => {
    const session = http2.connect(shared.etcd().clientUrl);
    await new Promise<void>((resolve) => session.once('connect', () => resolve()));
    session.destroy();
    expect(() => requestStream(session, RANGE_HEADERS)).toThrow(
      expect.objectContaining({ code: 'ERR_HTTP2_INVALID_SESSION' }),
    );
    expect(AsyncResource.prototype.bind).toBe(nodeBind);
  });
});

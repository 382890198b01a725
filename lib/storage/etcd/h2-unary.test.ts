// kv-unary.ts' calls over node:http2 (h2-unary.ts) fail, reconnect and close as they did over grpc-js: each failure is
// compared with the grpc-js transport's failure for the same condition, against a real etcd.
import { ClientClosedError, type Etcd3 } from 'etcd3';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { createServer } from 'node:net';
import { newEtcdClient } from './client';
import { classifyEtcdError } from './etcd-errors';
import { COMPARE_CREATE, COMPARE_EQUAL, txn, UNARY_TRANSPORTS, type TxnMessage } from './kv-unary';
import { frame, MemberSession, UNARY_HEADERS, type OpenCall } from './h2-member';

const shared = useTestEtcd();

/** A loopback port that nothing listens on (one the system just handed out and took back). */
function unusedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
const clients: Etcd3[] = [];
const clientOf = (url: string): Etcd3 => {
  const client = newEtcdClient(url);
  clients.push(client);
  return client;
};
afterAll(() => {
  for (const c of clients) c.close();
});

const put = (key: string, value = 'v'): TxnMessage => ({
  compare: [{ key: Buffer.from(key), target: COMPARE_CREATE, result: COMPARE_EQUAL, createRevision: 0 }],
  success: [{ requestPut: { key: Buffer.from(key), value: Buffer.from(value) } }],
});

/** The rejection of `call` as its class name, message (without the stack) and failure class. */
async function failureOf(call: () => Promise<unknown>): Promise<{ name: string; message: string; cls: string }> {
  try {
    await call();
  } catch (err) {
    const e = err as Error;
    return { name: e.constructor.name, message: e.message, cls: classifyEtcdError(err) };
  }
  throw new Error('the call succeeded');
}

describe('kv-unary over node:http2 (h2-unary.ts)', () => {
  it("answers etcd's own errors with etcd3's error classes and texts, as over grpc-js", async () => {
    const client = clientOf(shared.etcd().clientUrl);
    const key = Buffer.from('/h2-unary/duplicate');
    const twice: TxnMessage = {
      success: [{ requestPut: { key, value: Buffer.from('1') } }, { requestPut: { key, value: Buffer.from('2') } }],
    };
    const h2 = await failureOf(() => txn(client, twice, UNARY_TRANSPORTS.h2));
    const grpcJs = await failureOf(() => txn(client, twice, UNARY_TRANSPORTS.grpcJs));
    expect(h2).toEqual(grpcJs);
    expect(h2).toMatchObject({
      cls: 'rejected',
      message: expect.stringContaining('duplicate key given in txn request'),
    });
    expect(await shared.client().get('/h2-unary/duplicate').string()).toBeNull();
  });

  it('fails as not sent, with the same class as over grpc-js, when nothing listens on the member', async () => {
    const client = clientOf(`http://127.0.0.1:${await unusedPort()}`);
    const h2 = await failureOf(() => txn(client, put('/h2-unary/unreachable'), UNARY_TRANSPORTS.h2));
    const grpcJs = await failureOf(() => txn(client, put('/h2-unary/unreachable'), UNARY_TRANSPORTS.grpcJs));
    expect(h2.cls).toBe('not-sent');
    expect(h2.name).toBe(grpcJs.name);
    expect(h2.message).toMatch(/^14 UNAVAILABLE: No connection established\. Last error: .*ECONNREFUSED/);
  }, 15_000);

  it('reconnects after etcd restarts; calls cut off by the stop fail as not sent or interrupted', async () => {
    const etcd = shared.etcd();
    if (!etcd.restart) throw new Error('this test needs a local etcd process');
    const client = clientOf(etcd.clientUrl);
    expect((await txn(client, put('/h2-unary/before'))).succeeded).toBe(true);
    const outcomes: Promise<string>[] = [];
    let stopping = true;
    const load = (async () => {
      for (let i = 0; stopping && i < 5_000; i++) {
        const done = txn(client, put(`/h2-unary/during/${i}`)).then(
          () => 'ok',
          (err: unknown) => classifyEtcdError(err),
        );
        outcomes.push(done);
        await done;
      }
    })();
    await etcd.restart(3_000); // longer than the not-sent retry budget (2.5 s)
    stopping = false;
    await load;
    const classes = new Set(await Promise.all(outcomes));
    expect([...classes].filter((c) => !['ok', 'not-sent', 'interrupted'].includes(c))).toEqual([]);
    expect(classes.has('not-sent') || classes.has('interrupted')).toBe(true);
    // The member answers again on a new session: the next call succeeds without any other client action.
    const after = await txn(client, put('/h2-unary/after', 'x'));
    expect(after.succeeded).toBe(true);
    expect(await shared.client().get('/h2-unary/after').string()).toBe('x');
  }, 60_000);

  it("rejects calls after the client's close with ClientClosedError", async () => {
    const client = newEtcdClient(shared.etcd().clientUrl);
    expect((await txn(client, put('/h2-unary/open'))).succeeded).toBe(true);
    client.close();
    await expect(txn(client, put('/h2-unary/closed'))).rejects.toBeInstanceOf(ClientClosedError);
    expect(await shared.client().get('/h2-unary/closed').string()).toBeNull();
  });

  it("leaves nothing listening on a call's stream once it settled, answered or failed", async () => {
    // A closed stream is not always garbage at once: what its listeners hold would live as long, and be promoted.
    const session = new MemberSession(shared.etcd().clientUrl, undefined);
    const opened: OpenCall[] = [];
    const open = session.open.bind(session);
    jest.spyOn(session, 'open').mockImplementation((path, headers) => {
      const call = open(path, headers);
      if (!(call instanceof Error)) opened.push(call);
      return call;
    });
    try {
      /** RangeRequest{key: "/h2-unary/none"}. */
      const range = frame(Buffer.concat([Buffer.from([0x0a, 14]), Buffer.from('/h2-unary/none')]));
      const answer = await session.call('/etcdserverpb.KV/Range', UNARY_HEADERS, range);
      expect(answer.length).toBeGreaterThan(0); // a RangeResponse with its header
      const unknown = session.call('/etcdserverpb.KV/NoSuchMethod', UNARY_HEADERS, range);
      await expect(unknown).rejects.toMatchObject({ code: 12 }); // UNIMPLEMENTED, etcd's own status
      expect(opened).toHaveLength(2);
      for (const { stream } of opened) {
        expect(stream.closed).toBe(true);
        expect(stream.eventNames()).toEqual([]);
      }
    } finally {
      session.close();
    }
  });
});

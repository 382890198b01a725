// etcd3's watches over node:http2 (h2-watch.ts, the default of newEtcdClient) against a real etcd: events arrive as
// over grpc-js, cancellation, progress answers, an etcd restart resumed without loss, and a closed client.
import type { Etcd3, IKeyValue, Watcher } from 'etcd3';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { newEtcdClient } from './client';
import { H2WatchStream } from './h2-watch';
import { watchProgressOf } from './watch-progress';
import { decodeWatchesDirectly, type WatchTransport } from './watch-stream';

const shared = useTestEtcd();
const clients: Etcd3[] = [];
afterAll(() => {
  for (const c of clients) c.close();
});

function clientOver(transport: WatchTransport): Etcd3 {
  const client = newEtcdClient(shared.etcd().clientUrl);
  if (transport !== 'h2') decodeWatchesDirectly(client, transport);
  clients.push(client);
  return client;
}

/** The stream etcd3's watch manager runs `client`'s watches on. */
const streamOf = (client: Etcd3): unknown =>
  (client as unknown as { watchManager: { stream?: unknown } }).watchManager.stream;

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface Seen {
  type: string;
  key: string;
  value: string;
  modRevision: string;
}

function record(watcher: Watcher): Seen[] {
  const seen: Seen[] = [];
  const note = (type: string) => (kv: IKeyValue) =>
    seen.push({ type, key: kv.key.toString(), value: kv.value.toString(), modRevision: kv.mod_revision });
  watcher.on('put', note('put'));
  watcher.on('delete', note('delete'));
  return seen;
}

describe('etcd watches over node:http2', () => {
  it('deliver the same events as over grpc-js, with the previous values asked for', async () => {
    const h2 = clientOver('h2');
    const grpcJs = clientOver('grpcJs');
    const prefix = `/h2-watch/events/${Date.now()}/`;
    const overH2 = await h2.watch().prefix(prefix).withPreviousKV().create();
    const overGrpcJs = await grpcJs.watch().prefix(prefix).withPreviousKV().create();
    expect(streamOf(h2)).toBeInstanceOf(H2WatchStream);
    expect(streamOf(grpcJs)).not.toBeInstanceOf(H2WatchStream);
    const seenH2 = record(overH2);
    const seenGrpcJs = record(overGrpcJs);
    const prevH2: string[] = [];
    overH2.on('put', (_kv, prev) => prevH2.push(prev?.value.toString() ?? ''));
    const big = 'x'.repeat(200_000); // one message over several HTTP/2 DATA frames
    await h2.put(`${prefix}a`).value('1');
    await h2.put(`${prefix}a`).value('2');
    await h2.put(`${prefix}b`).value(big);
    await h2.delete().key(`${prefix}a`);
    await until(() => seenH2.length === 4 && seenGrpcJs.length === 4);
    expect(seenH2).toEqual(seenGrpcJs);
    expect(seenH2.map((s) => [s.type, s.key.slice(prefix.length), s.value.length])).toEqual([
      ['put', 'a', 1],
      ['put', 'a', 1],
      ['put', 'b', big.length],
      ['delete', 'a', 0],
    ]);
    expect(prevH2).toEqual(['', '1', '']);
    await overH2.cancel();
    await overGrpcJs.cancel();
  });

  it('hold responses while the stream is paused and deliver them all, in order, on resume', async () => {
    const h2 = clientOver('h2');
    const prefix = `/h2-watch/paused/${Date.now()}/`;
    const watcher = await h2.watch().prefix(prefix).create();
    const seen = record(watcher);
    const stream = streamOf(h2) as H2WatchStream;
    await h2.put(`${prefix}a`).value('1');
    await until(() => seen.length === 1);
    stream.pause();
    for (const value of ['2', '3', '4']) await h2.put(`${prefix}a`).value(value);
    await until(() => stream.readableLength === 3);
    expect(seen.length).toBe(1);
    stream.resume();
    await h2.put(`${prefix}a`).value('5');
    await until(() => seen.length === 5);
    expect(seen.map((s) => s.value)).toEqual(['1', '2', '3', '4', '5']);
    await watcher.cancel();
  });

  it('cancel a watcher with etcd (no further events), and open the next one on a new stream', async () => {
    const client = clientOver('h2');
    const prefix = `/h2-watch/cancel/${Date.now()}/`;
    const first = await client.watch().prefix(prefix).create();
    const stream = streamOf(client) as H2WatchStream;
    const seenFirst = record(first);
    await client.put(`${prefix}1`).value('v');
    await until(() => seenFirst.length === 1);
    await first.cancel();
    await client.put(`${prefix}2`).value('v');
    const second = await client.watch().prefix(prefix).startRevision('1').create();
    const seenSecond = record(second);
    await until(() => seenSecond.length === 2);
    expect(seenFirst.map((s) => s.key)).toEqual([`${prefix}1`]);
    expect(streamOf(client)).not.toBe(stream);
    expect(stream.readableEnded || stream.destroyed || !stream.readable).toBe(true);
    await second.cancel();
  });

  it("take etcd's progress answers off the stream", async () => {
    const client = clientOver('h2');
    const watcher = await client.watch().prefix(`/h2-watch/progress/${Date.now()}/`).create();
    const progress = watchProgressOf(client);
    if (progress === undefined) throw new Error('no progress requester');
    const answers = progress.answers;
    const { header } = await client.put('/h2-watch/progress-other').value('v');
    expect(progress.requestUntrusted()).toBe(true);
    await until(() => progress.answers > answers);
    expect(progress.lastAnswer).toBeGreaterThanOrEqual(Number(header.revision));
    await watcher.cancel();
  });

  it('resume after an etcd restart from the next revision: every write once, in order', async () => {
    const etcd = shared.etcd();
    if (!etcd.restart) throw new Error('this test needs a local etcd process');
    const client = clientOver('h2');
    const writer = clientOver('h2');
    const prefix = `/h2-watch/restart/${Date.now()}/`;
    const watcher = await client.watch().prefix(prefix).create();
    const seen = record(watcher);
    const disconnected: string[] = [];
    watcher.on('disconnected', (err: Error) => disconnected.push(err.message));
    for (let i = 0; i < 5; i++) await writer.put(`${prefix}${i}`).value('before');
    await until(() => seen.length === 5);
    await etcd.restart(500);
    for (let i = 5; i < 10; i++) await writer.put(`${prefix}${i}`).value('after');
    await until(() => seen.length >= 10, 20_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.map((s) => s.key.slice(prefix.length))).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(disconnected.length).toBeGreaterThan(0);
    expect(disconnected[0]).toMatch(/^14 UNAVAILABLE: /);
    expect(streamOf(client)).toBeInstanceOf(H2WatchStream);
    await watcher.cancel();
  }, 40_000);

  it('deliver nothing more once cancelled, and the closed client refuses calls', async () => {
    const client = newEtcdClient(shared.etcd().clientUrl);
    const prefix = `/h2-watch/closed/${Date.now()}/`;
    const watcher = await client.watch().prefix(prefix).create();
    const seen = record(watcher);
    await shared.client().put(`${prefix}1`).value('v');
    await until(() => seen.length === 1);
    await watcher.cancel();
    client.close();
    await expect(client.get('/h2-watch/any').string()).rejects.toThrow();
    await shared.client().put(`${prefix}2`).value('v');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen).toHaveLength(1);
  });
});

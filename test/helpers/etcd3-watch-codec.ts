// etcd3's own WatchResponse serializer and decoder (@grpc/proto-loader, with etcd3's options), taken from a client that
// never connects: the reference for the server's direct decoding (lib/storage/etcd/watch-response.ts).
import type { ServiceClientConstructor } from '@grpc/grpc-js';
import { Etcd3 } from 'etcd3';

export interface WatchCodec {
  serialize: (res: object) => Buffer;
  decode: (bytes: Buffer) => unknown;
}

export function etcd3WatchCodec(): WatchCodec {
  const client = new Etcd3({ hosts: '127.0.0.1:1' });
  const pool = (client as unknown as { pool: { hosts: { getServiceClient(name: string): object }[] } }).pool;
  const service = pool.hosts[0]?.getServiceClient('Watch');
  const method = (service?.constructor as ServiceClientConstructor).service['Watch'];
  client.close();
  if (method === undefined) throw new Error('no Watch method');
  return { serialize: method.responseSerialize as (res: object) => Buffer, decode: method.responseDeserialize };
}

import { Etcd3 } from 'etcd3';
import { startTestEtcd, type TestEtcd } from '../../../test/helpers/etcd';
import { describeStorageContract } from '../testing/storage-contract';
import { EtcdStorage } from './store';

let etcd: TestEtcd;
let client: Etcd3;
let counter = 0;

beforeAll(async () => {
  etcd = await startTestEtcd();
  client = new Etcd3({ hosts: etcd.clientUrl });
});
afterAll(async () => {
  client.close();
  await etcd.stop();
});

describeStorageContract('etcd', async () => ({ storage: new EtcdStorage(client), prefix: `/test/${++counter}` }));

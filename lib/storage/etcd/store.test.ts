import { useTestEtcd } from '../../../test/helpers/etcd';
import { describeStorageContract } from '../testing/storage-contract';
import { EtcdStorage } from './store';

const shared = useTestEtcd();
let counter = 0;


describeStorageContract('etcd', async () => ({ storage: new EtcdStorage(shared.client()), prefix: `/test/${++counter}` }));

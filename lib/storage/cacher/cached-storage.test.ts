// The storage contract (storage/testing/storage-contract.ts) against the watch cache in front of etcd: every read by
// resourceVersion answered from memory or etcd must look exactly as etcd's own answer does.
import pino from 'pino';
import { useTestEtcd } from '../../../test/helpers/etcd';
import { EtcdStorage } from '../etcd/store';
import { describeStorageContract } from '../testing/storage-contract';
import { CachedStorage } from './cached-storage';

const shared = useTestEtcd();
let counter = 0;

describeStorageContract('watch cache', async () => {
  const prefix = `/cached/${++counter}`;
  const storage = new CachedStorage(new EtcdStorage(shared.client()), {
    prefix: `${prefix}/`,
    // Relists only happen on an empty prefix here (each test has its own), so the name alone is a fine key.
    keyOf: (obj) => `${prefix}/${obj.metadata.name ?? ''}`,
    capacity: 100,
    minAgeMs: 60_000,
    bookmarkIntervalMs: 60_000,
    consistentReads: true,
    log: pino({ level: 'silent' }),
  });
  storage.cacher.start();
  await storage.cacher.waitReady();
  return {
    storage,
    prefix,
    compact: async (revision) => void (await shared.client().kv.compact({ revision, physical: true })),
    close: () => storage.cacher.stop(),
  };
});

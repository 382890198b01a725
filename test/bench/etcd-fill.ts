// Filling etcd for the benchmarks without the API: copies of one stored value under new names, in the server's
// storage format (so the watch cache decodes them like objects written through the API).
import { randomUUID } from 'node:crypto';
import { newEtcdClient } from '../../lib/storage/etcd/client';

const PUTS_PER_TXN = 100;

/** Copies of `template` (a stored Deployment value) under `count` new names in `ns`, put straight into etcd. */
export async function putCopies(etcdUrl: string, template: string, ns: string, count: number): Promise<void> {
  const client = newEtcdClient(etcdUrl);
  try {
    const obj = JSON.parse(template) as { metadata: Record<string, unknown> };
    let next = 0;
    const worker = async (): Promise<void> => {
      while (next < count) {
        const from = next;
        next = Math.min(count, next + PUTS_PER_TXN);
        const puts = [];
        for (let i = from; i < next; i++) {
          const name = `d-${String(i).padStart(6, '0')}`;
          obj.metadata = { ...obj.metadata, name, namespace: ns, uid: randomUUID() };
          const key = Buffer.from(`/registry/apps/deployments/${ns}/${name}`);
          puts.push({ request_put: { key, value: Buffer.from(JSON.stringify(obj)) } });
        }
        // A loaded machine's etcd may time a txn out ('request timed out'): the puts are idempotent, so retry.
        for (let attempt = 1; ; attempt++) {
          try {
            await client.kv.txn({ compare: [], success: puts, failure: [] });
            break;
          } catch (err) {
            if (attempt >= 5) throw err;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  } finally {
    client.close();
  }
}

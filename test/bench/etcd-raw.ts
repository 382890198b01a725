// Raw etcd baseline: create-if-absent transactions through the etcd3 client, closed loop at a fixed concurrency.
import { Etcd3 } from 'etcd3';
import { closedLoop, processCpuMs, type PhaseResult } from './stats';

/** Measures create-if-absent txns of ~`valueBytes`-byte values against `clientUrl` (a second run on one etcd needs another `keyPrefix`). */
export async function benchRawEtcdCreates(
  clientUrl: string,
  concurrency: number,
  seconds: number,
  etcdPid?: number,
  valueBytes = 600,
  keyPrefix = '/bench-raw',
): Promise<PhaseResult> {
  const client = new Etcd3({ hosts: clientUrl });
  try {
    const value = Buffer.from(JSON.stringify({ pad: 'x'.repeat(Math.max(0, valueBytes - 10)) }).slice(0, valueBytes));
    let counter = 0;
    const once = async (prefix: string): Promise<string | undefined> => {
      const key = Buffer.from(`${keyPrefix}/${prefix}/${(counter++).toString(36)}`);
      const res = await client.kv.txn({
        compare: [{ key, target: 'Create', result: 'Equal', create_revision: 0 }],
        success: [{ request_put: { key, value } }],
        failure: [],
      });
      return res.succeeded ? undefined : 'compare-failed';
    };
    await closedLoop(concurrency, Math.min(1, seconds), () => once('warmup'));
    const etcdBefore = etcdPid === undefined ? undefined : processCpuMs(etcdPid);
    const { recorder, elapsedSeconds } = await closedLoop(concurrency, seconds, () => once('run'));
    const result = recorder.summarize('etcd txn create (raw etcd3 client)', concurrency, elapsedSeconds);
    const etcdAfter = etcdPid === undefined ? undefined : processCpuMs(etcdPid);
    if (etcdBefore !== undefined && etcdAfter !== undefined) result.etcdCpuMs = etcdAfter - etcdBefore;
    return result;
  } finally {
    client.close();
  }
}

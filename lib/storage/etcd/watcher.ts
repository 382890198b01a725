// etcd watches → storage events (ADDED/MODIFIED/DELETED with previous state), for the watch endpoints.
import type { Etcd3, IKeyValue } from 'etcd3';
import type { StorageEvent, WatchHandle, WatchSink } from '../storage';
import { StorageError } from '../storage-error';
import { decodeObject } from './codec';
import { isCompactedWatchError } from './etcd-errors';

export async function watchPrefix(
  client: Etcd3,
  prefix: string,
  afterRevision: number,
  sink: WatchSink,
): Promise<WatchHandle> {
  const watcher = await client
    .watch()
    .prefix(prefix)
    .withPreviousKV()
    .startRevision(String(afterRevision + 1))
    .create();
  let done = false;
  // etcd3 drops a watcher that etcd cancelled before emitting 'error'; cancelling it again never resolves
  // and breaks the watch stream the other watchers share.
  let cancelledByEtcd = false;
  const fail = (err: Error): void => {
    if (done) return;
    done = true;
    if (!cancelledByEtcd) void watcher.cancel();
    sink.error(err);
  };
  const emit = (event: () => StorageEvent): void => {
    if (done) return;
    try {
      sink.event(event());
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  };
  watcher.on('put', (kv: IKeyValue, previous?: IKeyValue) =>
    emit(() => {
      const key = kv.key.toString('utf8');
      const object = decodeObject(key, kv.value, kv.mod_revision);
      const revision = Number(kv.mod_revision);
      return previous
        ? { type: 'MODIFIED', object, previous: decodeObject(key, previous.value, previous.mod_revision), revision }
        : { type: 'ADDED', object, revision };
    }),
  );
  watcher.on('delete', (kv: IKeyValue, previous?: IKeyValue) =>
    emit(() => {
      const key = kv.key.toString('utf8');
      const revision = Number(kv.mod_revision);
      const last = previous
        ? decodeObject(key, previous.value, revision)
        : { metadata: { resourceVersion: String(revision) } };
      return { type: 'DELETED', object: last, revision };
    }),
  );
  watcher.on('error', (err: Error) => {
    cancelledByEtcd = true;
    const compacted = isCompactedWatchError(err);
    fail(new StorageError(compacted ? 'Compacted' : 'Unreachable', prefix, err.message, { cause: err }));
  });
  return {
    cancel: async () => {
      done = true;
      if (!cancelledByEtcd) await watcher.cancel();
    },
  };
}

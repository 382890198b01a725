// The watch cache's etcd watch: whole etcd responses as batches, progress notifications, and an end at the
// first disconnection. etcd3 resumes a broken watch itself but from the header revision of its last create
// response, which can skip events; the cache resumes from the revision it has actually applied instead.
import type { Etcd3, IWatchResponse } from 'etcd3';
import type { ChangeSink, StorageChange, WatchHandle } from '../storage';
import { StorageError } from '../storage-error';
import { storedType } from '../../apimachinery/serializers/served-json';
import { decodeCompact } from './codec';
import { deferredPut } from './pending-object';
import { isCompactedWatchError } from './etcd-errors';
import { cheapResumeRevision, resumeNotingOnly } from './watch-stream';
import { watchProgressOf } from './watch-progress';

function toChanges(res: IWatchResponse): StorageChange[] {
  return res.events.map((event) => {
    const key = event.kv.key.toString('utf8');
    const modRevision = event.kv.mod_revision;
    const revision = Number(modRevision);
    if (event.type === 'Delete') return { type: 'delete', key, revision };
    const value = event.kv.value;
    // A value in the server's stored layout is decoded when first read (a worker that only follows another's writes
    // into its cache may never read them); its bytes are copied so that no view keeps the whole response alive.
    if (storedType(value) === undefined)
      return { type: 'put', key, object: decodeCompact(key, value, modRevision), revision };
    return deferredPut(key, ownCopy(value), modRevision, revision);
  });
}

function ownCopy(view: Buffer): Buffer {
  const copy = Buffer.allocUnsafeSlow(view.length);
  view.copy(copy);
  return copy;
}

export async function watchChanges(
  client: Etcd3,
  prefix: string,
  afterRevision: number,
  sink: ChangeSink,
): Promise<WatchHandle> {
  const watcher = client
    .watch()
    .prefix(prefix)
    .startRevision(String(afterRevision + 1))
    .watcher();
  cheapResumeRevision(watcher);
  const noteResumeRevision = resumeNotingOnly(watcher);
  let done = false;
  let cancelledByEtcd = false;
  let cancelling: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;
  // Once only: cancelling a watcher twice (or one etcd already cancelled) can wait forever in etcd3.
  const cancel = (): Promise<void> => {
    unsubscribe?.();
    return (cancelling ??= cancelledByEtcd ? Promise.resolve() : watcher.cancel().catch(() => undefined));
  };
  const fail = (err: Error): void => {
    if (done) return;
    done = true;
    void cancel();
    sink.error(err);
  };
  // Listeners go on before the create request can be answered, so no response is missed.
  watcher.on('data', (res: IWatchResponse) => {
    noteResumeRevision(res);
    if (done) return;
    try {
      if (res.events.length > 0) sink.changes(toChanges(res));
      else if (res.header) sink.progress(Number(res.header.revision));
    } catch (err) {
      fail(err instanceof Error ? err : new Error(String(err)));
    }
  });
  const asStorageError = (err: Error): StorageError =>
    new StorageError(isCompactedWatchError(err) ? 'Compacted' : 'Unreachable', prefix, err.message, { cause: err });
  await new Promise<void>((resolve, reject) => {
    let connected = false;
    watcher.once('connected', (res: IWatchResponse) => {
      connected = true;
      // A progress answer covers this watch only if etcd made it after creating the watch; answers made before carry
      // a revision no higher than the one etcd read while creating it (the created response's).
      const created = Number(res.header.revision);
      unsubscribe = watchProgressOf(client)?.subscribe((revision) => {
        if (!done && revision > created) sink.progress(revision);
      });
      resolve();
    });
    watcher.on('disconnected', (err: Error) => {
      const broken = new StorageError('Unreachable', prefix, `etcd watch disconnected: ${err.message}`, { cause: err });
      if (connected) fail(broken);
      else {
        done = true;
        void cancel();
        reject(broken);
      }
    });
    watcher.on('error', (err: Error) => {
      cancelledByEtcd = true;
      if (connected) fail(asStorageError(err));
      else {
        done = true;
        reject(asStorageError(err));
      }
    });
  });
  return {
    cancel: async () => {
      done = true;
      await cancel();
    },
  };
}

// The one place that reads the etcd3 client's errors (some are only message text) and maps them to StorageError.
import { GRPCUnavailableError, GRPCDeadlineExceededError, ClientClosedError } from 'etcd3';
import { StorageError } from '../storage-error';
import { timeEtcdCall } from './metrics';

const COMPACTED_TEXT = 'required revision has been compacted';
/** etcd cancels a watch whose start revision is compacted with an empty cancel_reason; etcd3 reports `Watcher canceled: `. */
const COMPACTED_WATCH_CANCEL = /^Watcher canceled: ?$/;
const COMPACTED_WORD = 'compacted';

/** Whether an error from an etcd3 watcher means its start revision was compacted. */
export function isCompactedWatchError(err: Error): boolean {
  return err.message.includes(COMPACTED_WORD) || COMPACTED_WATCH_CANCEL.test(err.message);
}
const FUTURE_REVISION_TEXT = 'required revision is a future revision';

export function toStorageError(err: unknown, key: string): unknown {
  if (err instanceof StorageError) return err;
  const message = err instanceof Error ? err.message : String(err);
  if (message.includes(COMPACTED_TEXT)) return new StorageError('Compacted', key, message, { cause: err });
  if (message.includes(FUTURE_REVISION_TEXT)) return new StorageError('FutureRevision', key, message, { cause: err });
  if (
    err instanceof GRPCUnavailableError ||
    err instanceof GRPCDeadlineExceededError ||
    err instanceof ClientClosedError
  ) {
    return new StorageError('Unreachable', key, message, { cause: err });
  }
  return err;
}

/** Wraps an etcd call so that its failures come out as StorageErrors; with an operation, its latency is recorded too. */
export async function etcdCall<T>(key: string, call: () => Promise<T>, operation?: string): Promise<T> {
  try {
    return await (operation === undefined ? call() : timeEtcdCall(operation, key, call));
  } catch (err) {
    throw toStorageError(err, key);
  }
}

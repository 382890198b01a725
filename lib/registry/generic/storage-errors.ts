// The one place where StorageErrors become StatusErrors (KeyExists → 409, Compacted → 410, unreachable → 500 ServerTimeout,
// timed out or a write's outcome unknown → 504 Timeout…).
import type { GroupResource } from '../../apimachinery/errors';
import { alreadyExists, conflict, internalError, notFound, resourceExpired, serverTimeout, timeout, OBJECT_MODIFIED_TEXT, type StatusError } from '../../apimachinery/errors';
import { isStatusError } from '../../apimachinery/errors';
import { StorageError } from '../../storage/storage-error';

/** Seconds a client should wait before retrying when etcd is unreachable (Kubernetes uses 2). */
const UNREACHABLE_RETRY_AFTER_SECONDS = 2;
export const LIST_TOO_OLD_TEXT = 'The resourceVersion for the provided list is too old.';

export type StorageOperation = 'get' | 'list' | 'create' | 'update' | 'delete';

export function toStatusError(err: unknown, gr: GroupResource, name: string, operation: StorageOperation): Error {
  if (isStatusError(err)) return err;
  if (!(err instanceof StorageError)) return err instanceof Error ? err : internalError(err);
  switch (err.code) {
    case 'KeyNotFound':
      return notFound(gr, name);
    case 'KeyExists':
      return alreadyExists(gr, name);
    case 'Conflict':
      return conflict(gr, name, OBJECT_MODIFIED_TEXT);
    case 'Compacted':
      return resourceExpired(LIST_TOO_OLD_TEXT);
    case 'Unreachable':
      // Sent nowhere (or a read): safe to retry, so clients are told when (client-go retries on Retry-After).
      return reported(serverTimeout(gr, operation, UNREACHABLE_RETRY_AFTER_SECONDS));
    case 'Timeout':
      // No Retry-After: a client retrying a write whose outcome is unknown on its own would meet its own object.
      return reported(timeout(err.message, 0));
    case 'FutureRevision':
    case 'InvalidObject':
      return internalError(err);
  }
}

/** Etcd failures are logged where they happen, one line per class per second; not again for each request. */
function reported(err: StatusError): StatusError {
  err.reported = true;
  return err;
}

// The one place where StorageErrors become StatusErrors (KeyExists → 409, Compacted → 410, unreachable → 500 ServerTimeout…).
import type { GroupResource } from '../../apimachinery/errors';
import { alreadyExists, conflict, internalError, notFound, resourceExpired, serverTimeout, OBJECT_MODIFIED_TEXT } from '../../apimachinery/errors';
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
      return serverTimeout(gr, operation, UNREACHABLE_RETRY_AFTER_SECONDS);
    case 'FutureRevision':
    case 'InvalidObject':
      return internalError(err);
  }
}

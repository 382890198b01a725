// The one place where StorageErrors become StatusErrors (KeyExists → 409, Compacted → 410 Expired, a bad continue
// token → 400, unreachable → 500 ServerTimeout, timed out or a write's outcome unknown → 504 Timeout…).
import type { GroupResource } from '../../apimachinery/errors';
import {
  alreadyExists,
  badRequest,
  conflict,
  internalError,
  notFound,
  resourceExpired,
  serverTimeout,
  timeout,
  OBJECT_MODIFIED_TEXT,
  type StatusError,
} from '../../apimachinery/errors';
import { isStatusError } from '../../apimachinery/errors';
import { StorageError } from '../../storage/storage-error';

/** Seconds a client should wait before retrying when etcd is unreachable (Kubernetes uses 2). */
const UNREACHABLE_RETRY_AFTER_SECONDS = 2;
const LIST_TOO_OLD_TEXT = 'The resourceVersion for the provided list is too old.';
const WATCH_TOO_OLD_TEXT = 'The resourceVersion for the provided watch is too old.';
const CONTINUE_TOO_OLD_INCONSISTENT_TEXT = `The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.`;
const TOO_LARGE_RV_RETRY_AFTER_SECONDS = 1;

type StorageOperation = 'get' | 'list' | 'create' | 'update' | 'delete' | 'watch';

/** What the failed storage call was for: the texts name the resource and object; a 410's text depends on the operation. */
export interface StorageErrorContext {
  operation: StorageOperation;
  /** The resource and object (a collection's: '') that 404/409/500 ServerTimeout name; unset where only Compacted can arrive. */
  resource?: GroupResource;
  name?: string;
}

/** StatusErrors pass through unchanged; a StorageError always becomes a StatusError. */
export function toStatusError(err: StorageError | StatusError, context: StorageErrorContext): StatusError;
export function toStatusError(err: unknown, context: StorageErrorContext): Error;
export function toStatusError(err: unknown, context: StorageErrorContext): Error {
  if (isStatusError(err)) return err;
  if (!(err instanceof StorageError)) return err instanceof Error ? err : internalError(err);
  const { operation, resource: gr, name = '' } = context;
  switch (err.code) {
    case 'Compacted':
      return compacted(err, context);
    case 'InvalidContinue':
      return badRequest(`invalid continue token: ${err.message}`);
    case 'InvalidRequest':
      return badRequest(err.message);
    case 'TooLargeResourceVersion':
      return timeout(err.message, TOO_LARGE_RV_RETRY_AFTER_SECONDS, [
        { reason: 'ResourceVersionTooLarge', message: 'Too large resource version' },
      ]);
    case 'Timeout':
      // No Retry-After: a client retrying a write whose outcome is unknown on its own would meet its own object.
      return reported(timeout(err.message, 0));
    case 'FutureRevision':
    case 'InvalidObject':
      return internalError(err);
  }
  if (gr === undefined) return internalError(err);
  switch (err.code) {
    case 'KeyNotFound':
      return notFound(gr, name);
    case 'KeyExists':
      return alreadyExists(gr, name);
    case 'Conflict':
      return conflict(gr, name, OBJECT_MODIFIED_TEXT);
    case 'Unreachable':
      // Sent nowhere (or a read): safe to retry, so clients are told when (client-go retries on Retry-After).
      return reported(serverTimeout(gr, operation, UNREACHABLE_RETRY_AFTER_SECONDS));
  }
}

/**
 * 410 Expired: a continued list offers the inconsistent continuation; the watch cache's own message names the
 * revisions it no longer holds; etcd's compaction is said per operation.
 */
function compacted(err: StorageError, context: StorageErrorContext): StatusError {
  if (err.continueToken !== undefined) return resourceExpired(CONTINUE_TOO_OLD_INCONSISTENT_TEXT, err.continueToken);
  if (context.operation !== 'watch') return resourceExpired(LIST_TOO_OLD_TEXT);
  return resourceExpired(err.currentRevision !== undefined ? err.message : WATCH_TOO_OLD_TEXT);
}

/** Etcd failures are logged where they happen, one line per class per second; not again for each request. */
function reported(err: StatusError): StatusError {
  err.reported = true;
  return err;
}

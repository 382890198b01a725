// Storage-level errors: what the store can say about keys, independent of HTTP.

// Only StorageErrors leave lib/storage; lib/registry/generic/storage-errors.ts turns them into the Status a client sees.

/**
 * `InvalidContinue`: a list's continue token does not decode (its message says why; the client gets 400 BadRequest).
 * `InvalidRequest`: read options that cannot go together (400 BadRequest with the message).
 * `TooLargeResourceVersion`: etcd did not reach the requested `revision` in time (504, `currentRevision` where it was).
 * `Compacted` on a watch with `currentRevision` set: the watch cache no longer holds `revision` (its message names
 * both, as Kubernetes' cacher says it); on a continued list with `continueToken`: the inconsistent continuation offered.
 */
type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  | 'Conflict'
  | 'Compacted'
  | 'FutureRevision'
  | 'Unreachable'
  | 'Timeout'
  | 'InvalidObject'
  | 'InvalidContinue'
  | 'InvalidRequest'
  | 'TooLargeResourceVersion';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message: string,
    options?: { cause?: unknown; revision?: number; currentRevision?: number; continueToken?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StorageError';
    this.revision = options?.revision;
    this.currentRevision = options?.currentRevision;
    this.continueToken = options?.continueToken;
  }

  readonly revision: number | undefined;
  readonly currentRevision: number | undefined;
  readonly continueToken: string | undefined;
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}

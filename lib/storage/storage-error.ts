// Storage-level errors: what the store can say about keys, independent of HTTP.

// Only StorageErrors leave lib/storage; lib/registry/generic/storage-errors.ts turns them into the Status a client sees.

/** `InvalidContinue`: a list's continue token does not decode (its message says why; the client gets 400 BadRequest). */
type StorageErrorCode =
  | 'KeyNotFound'
  | 'KeyExists'
  | 'Conflict'
  | 'Compacted'
  | 'FutureRevision'
  | 'Unreachable'
  | 'Timeout'
  | 'InvalidObject'
  | 'InvalidContinue';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    readonly key: string,
    message: string,
    options?: { cause?: unknown; revision?: number; currentRevision?: number },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StorageError';
    this.revision = options?.revision;
    this.currentRevision = options?.currentRevision;
  }

  readonly revision: number | undefined;
  readonly currentRevision: number | undefined;
}

export function isStorageError(err: unknown, code?: StorageErrorCode): err is StorageError {
  return err instanceof StorageError && (code === undefined || err.code === code);
}

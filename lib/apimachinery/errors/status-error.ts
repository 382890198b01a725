// StatusError: the only error type that reaches a client; it carries the whole Status.
import type { Status, StatusDetails, StatusReason } from './status';

export class StatusError extends Error {
  readonly status: Status;

  constructor(code: number, reason: StatusReason | undefined, message: string, details?: StatusDetails, options?: { cause?: unknown; continueToken?: string }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StatusError';
    const metadata: Status['metadata'] = options?.continueToken === undefined ? {} : { continue: options.continueToken };
    this.status = { kind: 'Status', apiVersion: 'v1', metadata, status: 'Failure', message, code };
    if (reason !== undefined) this.status.reason = reason;
    if (details !== undefined) this.status.details = details;
  }

  get code(): number {
    return this.status.code;
  }

  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

export function isStatusError(err: unknown): err is StatusError {
  return err instanceof StatusError;
}

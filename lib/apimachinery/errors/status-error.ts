// StatusError: the only error type that reaches a client; it carries the whole Status.
import type { Status, StatusDetails, StatusReason } from './status';

export class StatusError extends Error {
  readonly status: Status;

  constructor(
    code: number,
    reason: StatusReason | undefined,
    message: string,
    details?: StatusDetails,
    options?: { cause?: unknown; continueToken?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'StatusError';
    const metadata: Status['metadata'] =
      options?.continueToken === undefined ? {} : { continue: options.continueToken };
    // Field order as Kubernetes writes a Status, so bodies compare byte for byte.
    const status: Omit<Status, 'code'> & { code?: number } = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata,
      status: 'Failure',
      message,
    };
    if (reason !== undefined) status.reason = reason;
    if (details !== undefined) status.details = details;
    status.code = code;
    this.status = status as Status; // code was set on the line above
  }

  /** An expected failure (etcd unreachable or timing out) that its source already logs, rate-limited: not logged per request. */
  reported = false;

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

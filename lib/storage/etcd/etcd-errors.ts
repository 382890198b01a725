// The one place that reads the etcd3 client's errors (most are only message text): each failure gets a class that says
// whether the request can have reached etcd, and maps to the StorageError the registry turns into a Status.
import { GRPCDeadlineExceededError, ClientClosedError, GRPCGenericError, EtcdError } from 'etcd3';
import { isBrokenCircuitError } from 'cockatiel';
import { StorageError } from '../storage-error';
import { StatusError } from '../../apimachinery/errors';
import { timeEtcdCall } from './metrics';
import { reportEtcdFailure } from './failure-log';

const COMPACTED_TEXT = 'required revision has been compacted';
/** etcd cancels a watch whose start revision is compacted with an empty cancel_reason; etcd3 reports `Watcher canceled: `. */
const COMPACTED_WATCH_CANCEL = /^Watcher canceled: ?$/;
const COMPACTED_WORD = 'compacted';
const FUTURE_REVISION_TEXT = 'required revision is a future revision';

/**
 * How an etcd call failed:
 * - `not-sent`: provably not processed by etcd (no connection; the stream refused; the member has no leader and said so
 *   before handling the request; raft dropped the proposal; etcd's apply backlog refused it). Any call may be retried.
 * - `timeout`: etcd or the deadline gave up waiting (`etcdserver: request timed out…`, DeadlineExceeded,
 *   `context deadline exceeded`); a write may still be applied.
 * - `interrupted`: the call may have reached etcd and its answer was lost (connection dropped or reset, leader changed,
 *   server stopping, cancelled); a write's outcome is unknown.
 * - `closed`: this client was closed.
 * - `compacted`, `future-revision`: answers about the requested revision.
 * - `rejected`: etcd answered with an error about the request itself (too large, no space, permission …).
 */
export type EtcdFailureClass =
  'not-sent' | 'timeout' | 'interrupted' | 'closed' | 'compacted' | 'future-revision' | 'rejected';

/** gRPC texts of calls the client never started on a connection, and etcd texts of requests refused before raft. */
const NOT_SENT_TEXTS = [
  'No connection established',
  'Channel closed before call started',
  'Stream refused by server',
  'Failed to start HTTP/2 stream',
  'etcdserver: no leader',
  'etcdserver: not capable',
  'etcdserver: too many requests',
  'etcdserver: rpc not supported for learner',
  'raft proposal dropped',
];
const TIMEOUT_TEXTS = ['etcdserver: request timed out', 'context deadline exceeded', 'Deadline exceeded'];
/** etcd answers that are about the request, not the cluster's health. */
const REJECTED_TEXTS = [
  'etcdserver: request is too large',
  'etcdserver: mvcc: database space exceeded',
  'etcdserver: permission denied',
  'etcdserver: too many operations in txn request',
  'etcdserver: duplicate key given in txn request',
];

/** Thrown by the client's host policy instead of calling a member it is backing off from; never reaches etcd. */
export class MemberSkippedError extends Error {
  constructor(host: string) {
    super(`etcd member ${host} is backing off after failures`);
    this.name = 'MemberSkippedError';
  }
}

export function classifyEtcdError(err: unknown): EtcdFailureClass {
  if (err instanceof StorageError) {
    if (err.code === 'Compacted') return 'compacted';
    if (err.code === 'FutureRevision') return 'future-revision';
    if (err.code === 'Timeout') return 'timeout';
    if (err.code === 'Unreachable') return 'not-sent';
    return 'rejected';
  }
  if (err instanceof ClientClosedError) return 'closed';
  if (err instanceof MemberSkippedError || (err instanceof Error && isBrokenCircuitError(err))) return 'not-sent';
  const message = err instanceof Error ? err.message : String(err);
  if (message.includes(COMPACTED_TEXT)) return 'compacted';
  if (message.includes(FUTURE_REVISION_TEXT)) return 'future-revision';
  if (NOT_SENT_TEXTS.some((t) => message.includes(t))) return 'not-sent';
  if (err instanceof GRPCDeadlineExceededError || TIMEOUT_TEXTS.some((t) => message.includes(t))) return 'timeout';
  if (REJECTED_TEXTS.some((t) => message.includes(t))) return 'rejected';
  // Anything else from the transport or from etcd's cluster layer may have been cut short after etcd got it.
  if (err instanceof GRPCGenericError || err instanceof EtcdError) return 'interrupted';
  return 'rejected';
}

/**
 * Whether a read that failed this way is worth another attempt (on another member). Not `not-sent`: the client's
 * policy has retried those already, within its budget, or found etcd down.
 */
export function isRetryableRead(cls: EtcdFailureClass): boolean {
  return cls === 'interrupted' || cls === 'timeout';
}

/** Whether an error from an etcd3 watcher means its start revision was compacted. */
export function isCompactedWatchError(err: Error): boolean {
  return err.message.includes(COMPACTED_WORD) || COMPACTED_WATCH_CANCEL.test(err.message);
}

/** An etcd3 error's text without grpc-js' `<code> <NAME>: ` prefix and etcd3's class name: `etcdserver: request timed out`. */
export function etcdErrorText(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^\w+Error: /, '').replace(/^\d+ [A-Z_]+: /, '');
}

/**
 * The StorageError for a failed etcd call (other errors pass through). Expected failures (etcd unreachable, timing out,
 * interrupted) are logged rate-limited by class, never per request.
 */
export function toStorageError(err: unknown, key: string): unknown {
  if (err instanceof StorageError) return err;
  const message = etcdErrorText(err);
  const cls = classifyEtcdError(err);
  switch (cls) {
    case 'compacted':
      return new StorageError('Compacted', key, message, { cause: err });
    case 'future-revision':
      return new StorageError('FutureRevision', key, message, { cause: err });
    case 'timeout':
      reportEtcdFailure(cls, message);
      return new StorageError('Timeout', key, message, { cause: err });
    case 'not-sent':
    case 'interrupted':
    case 'closed':
      reportEtcdFailure(cls, message);
      return new StorageError('Unreachable', key, message, { cause: err });
    case 'rejected':
      // etcd's own refusal (no space, request too large, …): kube-apiserver 1.26 returns the etcd client's error
      // unchanged and ErrorToAPIStatus makes it a 500 without a reason whose message is etcd's text.
      if (REJECTED_TEXTS.some((t) => message.includes(t)))
        return new StatusError(500, undefined, message, undefined, { cause: err });
      return err;
  }
}

/** The StorageError for a write whose outcome stays unknown: 504 Timeout, as nothing says whether it was applied. */
export function unknownOutcome(err: unknown, key: string): StorageError {
  const text = etcdErrorText(err);
  reportEtcdFailure('unknown-outcome', text);
  const message = classifyEtcdError(err) === 'timeout' ? text : `the write may or may not have been applied: ${text}`;
  return new StorageError('Timeout', key, message, { cause: err });
}

/** Budget and pacing of read retries: the first retry at once (another member), then doubling waits. */
const READ_RETRY_BUDGET_MS = 2_500;
const READ_RETRY_FIRST_DELAY_MS = 25;
const READ_RETRY_MAX_DELAY_MS = 400;

/**
 * Runs a read, retrying transport and cluster failures (another member is picked each time) within a short budget;
 * failures come out as StorageErrors. Reads change nothing, so a retry can never do harm.
 */
export async function etcdCall<T>(key: string, call: () => Promise<T>, operation?: string): Promise<T> {
  try {
    return await retryingRead(operation === undefined ? call : () => timeEtcdCall(operation, key, call));
  } catch (err) {
    throw toStorageError(err, key);
  }
}

/** Runs a read with the retries of etcdCall; the last failure comes out as it was thrown. */
export async function retryingRead<T>(call: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + READ_RETRY_BUDGET_MS;
  let delay = 0;
  for (;;) {
    try {
      return await call();
    } catch (err) {
      if (!isRetryableRead(classifyEtcdError(err)) || Date.now() + delay > deadline) throw err;
      if (delay > 0) await new Promise((r) => setTimeout(r, delay));
      delay = delay === 0 ? READ_RETRY_FIRST_DELAY_MS : Math.min(delay * 2, READ_RETRY_MAX_DELAY_MS);
    }
  }
}

/** Runs a write once (no retry: it may have reached etcd); failures come out as StorageErrors. */
export async function etcdWriteOnce<T>(key: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw toStorageError(err, key);
  }
}

/**
 * Runs a write once: the client's policy already retried what provably was not sent. Failures come out as the raw
 * error with its class, so that the caller can settle an ambiguous outcome by reading back.
 */
export async function etcdWrite<T>(
  key: string,
  call: () => Promise<T>,
  operation: string,
): Promise<{ ok: true; value: T } | { ok: false; err: unknown; cls: EtcdFailureClass }> {
  try {
    return { ok: true, value: await timeEtcdCall(operation, key, call) };
  } catch (err) {
    return { ok: false, err, cls: classifyEtcdError(err) };
  }
}

// Expected etcd failures (unreachable, timing out, interrupted) are logged one line per class per second with a count,
// never per request and without a stack: an outage of a few seconds under load is a handful of lines, not thousands.
import type { Logger } from 'pino';

const INTERVAL_MS = 1000;

interface ClassState {
  /** When the last line for this class was written. */
  loggedAt: number;
  /** Failures since that line. */
  suppressed: number;
  lastMessage: string;
  timer: NodeJS.Timeout | undefined;
}

let logger: Pick<Logger, 'warn'> | undefined;
const states = new Map<string, ClassState>();

/** Installs the logger the server uses for etcd failures (until then they are counted, not logged). */
export function setEtcdFailureLogger(log: Pick<Logger, 'warn'> | undefined): void {
  logger = log;
}

/** Records one failure of `failureClass`; at most one line per class per second, the rest folded into its count. */
export function reportEtcdFailure(failureClass: string, message: string, now = Date.now()): void {
  let state = states.get(failureClass);
  if (!state) {
    state = { loggedAt: 0, suppressed: 0, lastMessage: '', timer: undefined };
    states.set(failureClass, state);
  }
  state.lastMessage = message;
  if (now - state.loggedAt >= INTERVAL_MS) {
    state.loggedAt = now;
    logger?.warn({ failure: failureClass, error: message }, 'etcd request failed');
    return;
  }
  state.suppressed++;
  // The folded failures get their line when the second is over, so the last ones of an outage are not lost.
  if (!state.timer) {
    const s = state;
    s.timer = setTimeout(() => flush(failureClass, s), INTERVAL_MS - (now - s.loggedAt));
    s.timer.unref();
  }
}

function flush(failureClass: string, state: ClassState): void {
  state.timer = undefined;
  if (state.suppressed === 0) return;
  logger?.warn(
    { failure: failureClass, error: state.lastMessage, count: state.suppressed },
    'etcd requests failed in the last second',
  );
  state.suppressed = 0;
  state.loggedAt = Date.now();
}

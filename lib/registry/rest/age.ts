// The Age printer column's cells: kubectl's human-readable duration since creationTimestamp (the column is in ./table).

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;
/** Go's time.Since saturates at the largest Duration (about 292 years). */
const MAX_DURATION_MS = 9_223_372_036_854;
/** metav1.Time's zero value, 0001-01-01T00:00:00Z, prints as unknown. */
const GO_ZERO_TIME_MS = Date.parse('0001-01-01T00:00:00Z');

/** `translateTimestampSince`: `<unknown>` for a missing or zero timestamp, else HumanDuration(now − t). */
export function formatAge(creationTimestamp: string | null | undefined, now: Date): string {
  if (creationTimestamp === null || creationTimestamp === undefined || creationTimestamp === '') return '<unknown>';
  const t = Date.parse(creationTimestamp);
  if (Number.isNaN(t) || t === GO_ZERO_TIME_MS) return '<unknown>';
  const ms = Math.max(-MAX_DURATION_MS, Math.min(MAX_DURATION_MS, now.getTime() - t));
  return humanDuration(ms);
}

/** k8s.io/apimachinery/pkg/util/duration.HumanDuration, with Go's truncating integer division. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / SECOND_MS);
  // Up to 2 s (excluded) in the future is clock skew, not an error.
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(ms / MINUTE_MS);
  if (minutes < 10) {
    const s = seconds % 60;
    return s === 0 ? `${minutes}m` : `${minutes}m${s}s`;
  }
  if (minutes < 60 * 3) return `${minutes}m`;
  const hours = Math.floor(ms / HOUR_MS);
  if (hours < 8) {
    const m = minutes % 60;
    return m === 0 ? `${hours}h` : `${hours}h${m}m`;
  }
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) {
    const h = hours % 24;
    return h === 0 ? `${days}d` : `${days}d${h}h`;
  }
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (hours < 24 * 365 * 8) {
    const dy = days % 365;
    return dy === 0 ? `${years}y` : `${years}y${dy}d`;
  }
  return `${years}y`;
}

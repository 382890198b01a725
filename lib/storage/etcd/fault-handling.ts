// The etcd client's fault handling, replacing etcd3's defaults (three retries of every "recoverable" error, writes
// included, and a per-member circuit breaker that refuses all calls for 5 s after three failures):
// - the global policy retries only calls that provably never reached etcd, at once on another member, then with
//   short capped waits, within a budget; so a write is sent at most once;
// - each member's policy backs off (capped, doubling) from a member whose connection failed, but only while another
//   member is not backing off: a call is never refused because every member had trouble, and a member answering
//   again is used again at once;
// - watch streams reconnect with capped exponential backoff.
import { ExponentialBackoff, type IDefaultPolicyContext, type IPolicy } from 'cockatiel';
import { classifyEtcdError, MemberSkippedError } from './etcd-errors';

/** Time within which calls that were not sent are retried; spans an etcd leader election (1–2 s by default). */
const NOT_SENT_RETRY_BUDGET_MS = 2_500;
/**
 * Once no call has succeeded for this long while calls kept failing unsent, etcd counts as down (quorum lost, all
 * members unreachable): each call then tries one member once and fails at once, instead of waiting out the budget.
 */
const OUTAGE_AFTER_MS = 3_000;
const RETRY_FIRST_DELAY_MS = 25;
const RETRY_MAX_DELAY_MS = 250;
const MEMBER_BACKOFF_FIRST_MS = 100;
const MEMBER_BACKOFF_MAX_MS = 2_000;
const WATCH_BACKOFF = { initialDelay: 100, maxDelay: 2_000 };

const noEvent = (): { dispose(): void } => ({ dispose: () => undefined });

/** The signal of calls made without one: never aborted, so one serves every call (etcd3 does not read it). */
const NEVER_ABORTED = new AbortController().signal;

/** The part of cockatiel's IPolicy that etcd3 calls (execute), with inert events. */
abstract class Policy implements IPolicy<IDefaultPolicyContext> {
  declare readonly _altReturn: never;
  readonly onSuccess = noEvent;
  readonly onFailure = noEvent;
  abstract execute<T>(fn: (context: IDefaultPolicyContext) => PromiseLike<T> | T, signal?: AbortSignal): Promise<T>;
}

/** Retries what was not sent: etcd3 picks the next member for each attempt. */
export class NotSentRetryPolicy extends Policy {
  constructor(
    private readonly health: MemberHealth,
    private readonly budgetMs = NOT_SENT_RETRY_BUDGET_MS,
  ) {
    super();
  }

  async execute<T>(fn: (context: IDefaultPolicyContext) => PromiseLike<T> | T, signal?: AbortSignal): Promise<T> {
    const deadline = Date.now() + this.budgetMs;
    const context = { signal: signal ?? NEVER_ABORTED };
    let delay = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await fn(context);
      } catch (err) {
        if (
          classifyEtcdError(err) !== 'not-sent' ||
          Date.now() + delay > deadline ||
          signal?.aborted ||
          this.health.inOutage()
        )
          throw err;
        if (delay > 0) await new Promise((r) => setTimeout(r, delay));
        // Every member gets one immediate try before the waits start.
        delay = attempt < 3 ? 0 : delay === 0 ? RETRY_FIRST_DELAY_MS : Math.min(delay * 2, RETRY_MAX_DELAY_MS);
      }
    }
  }
}

/** Which members are backing off, shared by the members' policies so that at least one member is always tried. */
export class MemberHealth {
  readonly #backoffUntil = new Map<string, number>();
  readonly #failures = new Map<string, number>();
  /** When calls began failing with no success since (undefined while the last call outcome was a success). */
  #failingSince: number | undefined;

  constructor(readonly hosts: readonly string[]) {}

  /** Whether calls have kept failing, none succeeding, for longer than a leader election takes. */
  inOutage(now = Date.now()): boolean {
    return this.#failingSince !== undefined && now - this.#failingSince > OUTAGE_AFTER_MS;
  }

  backingOff(host: string, now = Date.now()): boolean {
    return (this.#backoffUntil.get(host) ?? 0) > now;
  }

  /** Skips a member only while some other member is not backing off. */
  shouldSkip(host: string, now = Date.now()): boolean {
    return this.backingOff(host, now) && this.hosts.some((h) => h !== host && !this.backingOff(h, now));
  }

  failed(host: string, now = Date.now()): void {
    this.#failingSince ??= now;
    const failures = (this.#failures.get(host) ?? 0) + 1;
    this.#failures.set(host, failures);
    this.#backoffUntil.set(host, now + Math.min(MEMBER_BACKOFF_FIRST_MS * 2 ** (failures - 1), MEMBER_BACKOFF_MAX_MS));
  }

  succeeded(host: string): void {
    this.#failingSince = undefined;
    this.#failures.delete(host);
    this.#backoffUntil.delete(host);
  }
}

/** One member's policy: skip it while it backs off (and another member does not); learn from each call's outcome. */
export class MemberPolicy extends Policy {
  constructor(
    private readonly health: MemberHealth,
    private readonly host: string,
  ) {
    super();
  }

  async execute<T>(fn: (context: IDefaultPolicyContext) => PromiseLike<T> | T, signal?: AbortSignal): Promise<T> {
    if (this.health.shouldSkip(this.host)) throw new MemberSkippedError(this.host);
    try {
      const result = await fn({ signal: signal ?? NEVER_ABORTED });
      this.health.succeeded(this.host);
      return result;
    } catch (err) {
      // Only failures of the member itself count: etcd answering "timed out" or "leader changed" is a live member.
      const cls = classifyEtcdError(err);
      if (cls === 'not-sent' || (cls === 'interrupted' && isConnectionFailure(err))) this.health.failed(this.host);
      else if (cls !== 'closed') this.health.succeeded(this.host);
      throw err;
    }
  }
}

function isConnectionFailure(err: unknown): boolean {
  const message = err instanceof Error ? err.message : String(err);
  return /Connection dropped|ECONNRESET|ECONNREFUSED|socket hang up|GOAWAY/i.test(message);
}

export interface FaultHandling {
  host: (hostname: string) => IPolicy<IDefaultPolicyContext>;
  global: IPolicy<IDefaultPolicyContext>;
  watchBackoff: ExponentialBackoff<unknown>;
}

/** The fault handling for a client of these members. */
export function faultHandlingFor(hosts: readonly string[]): FaultHandling {
  const health = new MemberHealth(hosts);
  return {
    host: (hostname) => new MemberPolicy(health, hostname),
    global: new NotSentRetryPolicy(health),
    watchBackoff: new ExponentialBackoff(WATCH_BACKOFF),
  };
}

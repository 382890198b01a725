// /healthz, /livez, /readyz with verbose, exclude and per-check paths, in kube-apiserver's plain-text format.
import type { ServerResponse } from 'node:http';

export interface HealthCheck {
  name: string;
  /** Resolves when healthy; rejects with the reason otherwise. */
  check(): Promise<void>;
}

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

const PLAIN_HEADERS = { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' };

function write(res: ServerResponse, code: number, body: string): void {
  res.writeHead(code, { ...PLAIN_HEADERS, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export function writeNotFound(res: ServerResponse): void {
  write(res, 404, '404 page not found\n');
}

async function outcome(check: HealthCheck): Promise<Error | undefined> {
  try {
    await check.check();
    return undefined;
  } catch (err) {
    return err instanceof Error ? err : new Error(String(err));
  }
}

/** Serves `/<endpoint>` or `/<endpoint>/<check>`; `subPath` is what follows the endpoint ('' for the whole set). */
export async function serveHealth(
  endpoint: HealthEndpoint,
  checks: readonly HealthCheck[],
  subPath: string,
  query: URLSearchParams,
  res: ServerResponse,
): Promise<void> {
  if (subPath !== '') {
    const check = checks.find((c) => c.name === subPath);
    if (!check) return writeNotFound(res);
    const err = await outcome(check);
    return err ? write(res, 500, `internal server error: ${err.message}\n`) : write(res, 200, 'ok');
  }
  const excluded = new Set(query.getAll('exclude'));
  const unmatched = [...excluded].filter((name) => !checks.some((c) => c.name === name)).sort();
  const results = await Promise.all(
    checks.map(async (c) => ({
      name: c.name,
      excluded: excluded.has(c.name),
      err: excluded.has(c.name) ? undefined : await outcome(c),
    })),
  );
  const failed = results.some((r) => r.err);
  if (!failed && !query.has('verbose')) return write(res, 200, 'ok');
  const lines = results.map((r) =>
    r.excluded ? `[+]${r.name} excluded: ok` : r.err ? `[-]${r.name} failed: reason withheld` : `[+]${r.name} ok`,
  );
  if (unmatched.length > 0)
    lines.push(
      `warn: some health checks cannot be excluded: no matches for ${unmatched.map((n) => `"${n}"`).join(',')}`,
    );
  lines.push(`${endpoint} check ${failed ? 'failed' : 'passed'}`);
  write(res, failed ? 500 : 200, `${lines.join('\n')}\n`);
}

export const pingCheck: HealthCheck = { name: 'ping', check: async () => {} };

/** Passes until `gracePeriodMs` after start, then reports what `inner` reports (--livez-grace-period). */
export function withGracePeriod(inner: HealthCheck, startedAt: number, gracePeriodMs: number): HealthCheck {
  return {
    name: inner.name,
    check: () => (Date.now() - startedAt < gracePeriodMs ? Promise.resolve() : inner.check()),
  };
}

/** Rejects with `message` while `failing()` is true. */
export function flagCheck(name: string, failing: () => boolean, message: string): HealthCheck {
  return { name, check: () => (failing() ? Promise.reject(new Error(message)) : Promise.resolve()) };
}

/** Fails when the check takes longer than `timeoutMs` (an etcd that hangs is unhealthy). */
export function withTimeout(inner: HealthCheck, timeoutMs: number): HealthCheck {
  return {
    name: inner.name,
    check: () =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${inner.name} check timed out after ${timeoutMs}ms`)),
          timeoutMs,
        );
        inner.check().then(
          () => {
            clearTimeout(timer);
            resolve();
          },
          (err: unknown) => {
            clearTimeout(timer);
            reject(err instanceof Error ? err : new Error(String(err)));
          },
        );
      }),
  };
}

/**
 * At most one call of `inner` per `intervalMs` (a token bucket of one, as kube-apiserver limits its etcd check to one
 * request per half its timeout: storagebackend/factory/etcd3.go); a check in between answers at once with the outcome
 * of the last call *sent* (a later outcome replaces it only if its call was sent later), and before any outcome with
 * `initial`. So probes during overload do not each wait for an etcd round trip behind the server's other work.
 */
export function rateLimited(
  inner: HealthCheck,
  intervalMs: number,
  initial: Error,
  now: () => number = () => performance.now(),
): HealthCheck {
  let nextCallAt = Number.NEGATIVE_INFINITY;
  let last: { err: Error | undefined; sentAt: number } = { err: initial, sentAt: Number.NEGATIVE_INFINITY };
  const store = (err: Error | undefined, sentAt: number): void => {
    if (sentAt >= last.sentAt) last = { err, sentAt };
  };
  return {
    name: inner.name,
    check: () => {
      const sentAt = now();
      if (sentAt < nextCallAt) return last.err ? Promise.reject(last.err) : Promise.resolve();
      nextCallAt = sentAt + intervalMs;
      return outcome(inner).then((err) => {
        store(err, sentAt);
        if (err) throw err;
      });
    },
  };
}

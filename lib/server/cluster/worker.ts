// The worker side of --workers N: tells the primary when it serves, obeys its shutdown, and serves the summed /metrics.
import { AggregatorRegistry } from 'prom-client';
import type { ApiServerMetrics } from '../metrics/metrics';
import { isClusterMessage, WORKER_ETCD_ENV, WORKER_INDEX_ENV, type ClusterMessage } from './messages';

const METRICS_TIMEOUT_MS = 10_000;

function send(message: ClusterMessage): void {
  process.send?.(message);
}

/** This worker's index (1…N) when it runs under a --workers primary; undefined in a single-process server. */
export function workerIndex(): number | undefined {
  const text = process.env[WORKER_INDEX_ENV];
  return process.send !== undefined && text !== undefined ? Number(text) : undefined;
}

/** The etcd the primary started for all workers (empty: the flags name the etcd). */
export function workerEtcdServers(): string[] {
  return (process.env[WORKER_ETCD_ENV] ?? '').split(',').filter(Boolean);
}

/** Resolves when the primary asks for a graceful shutdown or goes away (its IPC channel closes). */
export function primaryShutdownRequest(): Promise<string> {
  return new Promise((resolve) => {
    process.on('message', (message: unknown) => {
      if (isClusterMessage(message, 'orch:shutdown')) resolve('primary shutdown');
    });
    process.once('disconnect', () => resolve('primary gone'));
  });
}

export function reportReady(): void {
  send({ type: 'orch:ready' });
}

/**
 * Makes /metrics of this worker answer for the whole server: the worker hands its registry to prom-client's cluster
 * responder, and a scrape asks the primary, which collects every worker's registry and sums them (AggregatorRegistry).
 */
export function serveClusterMetrics(metrics: ApiServerMetrics): void {
  new AggregatorRegistry(); // installs the worker-side responder of prom-client's cluster protocol
  AggregatorRegistry.setRegistries([metrics.registry]);
  const pending = new Map<number, { resolve(body: string): void; reject(err: Error): void }>();
  let nextId = 0;
  process.on('message', (message: unknown) => {
    if (!isClusterMessage(message, 'orch:metrics-response')) return;
    const waiter = pending.get(message.id);
    pending.delete(message.id);
    if (message.error !== undefined) waiter?.reject(new Error(`metrics of the other workers: ${message.error}`));
    else waiter?.resolve(message.body ?? '');
  });
  metrics.render = () =>
    new Promise<string>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error('the primary did not answer a metrics request'));
      }, METRICS_TIMEOUT_MS);
      pending.set(id, {
        resolve: (body) => (clearTimeout(timer), resolve(body)),
        reject: (err) => (clearTimeout(timer), reject(err)),
      });
      send({ type: 'orch:metrics-request', id });
    });
}

// The primary of --workers N: starts the embedded etcd once, forks N workers sharing the port, restarts a worker that
// dies, sums the workers' metrics for /metrics, and on SIGTERM stops every worker gracefully, then etcd.
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { AggregatorRegistry } from 'prom-client';
import type { ServerOptions } from '../options/options';
import { startEmbeddedEtcd, type EmbeddedEtcd } from '../embedded-etcd';
import { isClusterMessage, WORKER_ETCD_ENV, WORKER_INDEX_ENV, type ClusterMessage } from './messages';

/** A worker that dies this soon after its start is restarted after a growing delay (a crash loop must not spin). */
const QUICK_DEATH_MS = 10_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** Workers drain their requests for up to 60 s; after this they are killed. */
const WORKER_STOP_TIMEOUT_MS = 90_000;

interface Slot {
  index: number;
  worker: Worker;
  startedAt: number;
  ready: boolean;
  quickDeaths: number;
}

/** Runs the cluster until `signalled` resolves; the exit code of the whole server. */
export async function runPrimary(options: ServerOptions, log: Logger, signalled: Promise<string>): Promise<number> {
  let embedded: EmbeddedEtcd | undefined;
  let etcdServers = options.etcdServers.join(',');
  if (etcdServers === '') {
    try {
      embedded = await startEmbeddedEtcd(join(options.dataDir, 'etcd'), (line) => log.debug({ etcd: line }, 'embedded etcd output'));
    } catch (err) {
      log.error({ err }, 'failed to start');
      process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
      return 1;
    }
    etcdServers = embedded.clientUrl;
    log.info({ clientUrl: embedded.clientUrl, dataDir: options.dataDir }, 'embedded etcd started');
  }

  const slots = new Map<number, Slot>();
  let shuttingDown = false;
  let everReady = false;
  let failStart: (why: string) => void = () => {};
  const startFailed = new Promise<string>((resolve) => (failStart = resolve));
  let allReady: () => void = () => {};
  const started = new Promise<void>((resolve) => (allReady = resolve));

  const fork = (index: number, quickDeaths: number): void => {
    const worker = cluster.fork({ [WORKER_INDEX_ENV]: String(index), [WORKER_ETCD_ENV]: embedded ? etcdServers : '' });
    const slot: Slot = { index, worker, startedAt: Date.now(), ready: false, quickDeaths };
    slots.set(index, slot);
    log.info({ workerIndex: index, workerPid: worker.process.pid }, 'worker started');
    worker.on('message', (message: unknown) => {
      if (!isClusterMessage(message, 'orch:ready')) return;
      slot.ready = true;
      log.info({ workerIndex: index, workerPid: worker.process.pid }, 'worker serving');
      if ([...slots.values()].every((s) => s.ready)) allReady();
    });
    worker.on('exit', (code, signal) => {
      if (slots.get(index)?.worker === worker) slots.delete(index);
      if (shuttingDown) return;
      log.warn({ workerIndex: index, workerPid: worker.process.pid, code, signal }, 'worker exited');
      // A worker that cannot start the first time (bad flag value, port taken, etcd unreachable) stops the server.
      if (!everReady) {
        failStart(`worker ${index} exited with code ${code ?? signal} before serving`);
        return;
      }
      const quick = Date.now() - slot.startedAt < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
      const delayMs = quick === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 500 * 2 ** quick);
      setTimeout(() => {
        if (!shuttingDown) fork(index, quick);
      }, delayMs).unref();
    });
  };

  // The primary answers a worker's /metrics by collecting every worker's registry (prom-client's cluster protocol).
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, message: unknown) => {
    if (!isClusterMessage(message, 'orch:metrics-request')) return;
    const reply = (response: ClusterMessage): void => {
      if (worker.isConnected()) worker.send(response);
    };
    aggregator.clusterMetrics().then(
      (body) => reply({ type: 'orch:metrics-response', id: message.id, body }),
      (err: unknown) => reply({ type: 'orch:metrics-response', id: message.id, error: err instanceof Error ? err.message : String(err) }),
    );
  });

  const cpus = availableParallelism();
  if (options.workers > cpus)
    log.warn(
      { workers: options.workers, cpus },
      'more workers than CPUs: each worker is a full replica with its own watch cache (memory) and the extra ones add no capacity',
    );
  for (let index = 1; index <= options.workers; index++) fork(index, 0);
  const outcome = await Promise.race([started.then(() => 'started' as const), startFailed.then((why) => ({ failed: why })), signalled.then((signal) => ({ signal }))]);
  let exitCode = 0;
  if (outcome === 'started') {
    everReady = true;
    log.info({ workers: options.workers }, 'all workers serving');
    log.info({ signal: await signalled }, 'signal received');
  } else if ('failed' in outcome) {
    log.error({ why: outcome.failed }, 'failed to start');
    process.stderr.write(`Error: ${outcome.failed}\n`);
    exitCode = 1;
  } else {
    log.info({ signal: outcome.signal }, 'signal received');
  }

  shuttingDown = true;
  await stopWorkers([...slots.values()].map((s) => s.worker), log);
  await embedded?.stop();
  log.info('shutdown complete');
  return exitCode;
}

/** Asks every worker to shut down gracefully and waits for them to exit (killing any that outstays the timeout). */
async function stopWorkers(workers: Worker[], log: Logger): Promise<void> {
  await Promise.all(
    workers.map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (worker.isDead()) return resolve();
          const timer = setTimeout(() => {
            log.warn({ workerPid: worker.process.pid }, 'worker did not stop in time; killing it');
            worker.process.kill('SIGKILL');
          }, WORKER_STOP_TIMEOUT_MS);
          worker.once('exit', () => {
            clearTimeout(timer);
            resolve();
          });
          if (worker.isConnected()) worker.send({ type: 'orch:shutdown' } satisfies ClusterMessage);
          else worker.process.kill('SIGTERM');
        }),
    ),
  );
}

#!/usr/bin/env node
// orch-apiserver: flags → options → server → wait for SIGINT/SIGTERM → graceful shutdown.
import { FLAG_DEFINITIONS } from '../lib/server/options/flag-definitions';
import { parseCommandLine } from '../lib/server/options/options';
import { FlagError, usage } from '../lib/server/options/flag-set';
import cluster from 'node:cluster';
import { ApiServer } from '../lib/server/server';
import { runPrimary } from '../lib/server/cluster/primary';
import {
  primaryShutdownRequest,
  reportReady,
  serveClusterMetrics,
  workerEtcdServers,
  workerIndex,
} from '../lib/server/cluster/worker';
import { createLogger } from '../lib/server/logging';
import { featureGateWarnings } from '../lib/server/options/feature-gates';

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(process.argv.slice(2));
  } catch (err) {
    if (err instanceof FlagError) {
      // As kube-apiserver (cobra with SilenceUsage, component-base cli.Run): the error alone, exit code 1.
      process.stderr.write(`Error: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
  if (parsed.help) {
    process.stdout.write(usage('orch-apiserver', FLAG_DEFINITIONS));
    return 0;
  }
  const rootLog = createLogger({ level: parsed.options.logLevel, format: parsed.options.loggingFormat });
  // --workers N: this process is the primary (forks the workers) or one of the workers (a full server sharing the port).
  const worker = workerIndex();
  const clustered = parsed.options.workers > 1 && cluster.isPrimary;
  const log =
    worker !== undefined
      ? rootLog.child({ worker, pid: process.pid })
      : clustered
        ? rootLog.child({ worker: 'primary', pid: process.pid })
        : rootLog;
  if (worker !== undefined && workerEtcdServers().length > 0) parsed.options.etcdServers = workerEtcdServers();
  if (worker === undefined)
    for (const warning of featureGateWarnings(parsed.options.featureGatesText)) log.warn(warning);
  // Signals are caught from the start, so one that arrives while the server starts still shuts it down cleanly;
  // a second one exits at once with code 1, as kube-apiserver's signal handler does.
  const signalled = new Promise<string>((resolve) => {
    let received = false;
    const onSignal = (signal: string): void => {
      if (received) process.exit(1);
      received = true;
      resolve(signal);
    };
    // A worker ignores Ctrl-C (the whole process group gets it) and leaves it to its primary, which stops every worker.
    process.on('SIGINT', worker === undefined ? onSignal : () => {});
    process.on('SIGTERM', onSignal);
    if (worker !== undefined) void primaryShutdownRequest().then(resolve);
  });
  if (clustered) return runPrimary(parsed.options, log, signalled);
  let server: ApiServer;
  try {
    server = await ApiServer.start(parsed.options, log);
    if (worker !== undefined) {
      serveClusterMetrics(server.metrics);
      reportReady();
    }
  } catch (err) {
    log.error({ err }, 'failed to start');
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  const signal = await signalled;
  log.info({ signal }, 'signal received');
  try {
    await server.shutdown();
  } catch (err) {
    log.error({ err }, 'shutdown failed');
    return 1;
  }
  return 0;
}

// Node exits with code 0 when nothing is left to wait for; if that happens before main settles, start-up or
// shutdown stalled on a promise nothing will settle: that is a failure, never a clean exit.
process.once('beforeExit', () => {
  process.stderr.write('Error: the server stopped making progress before it finished starting or stopping\n');
  process.exit(1);
});

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

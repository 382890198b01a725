#!/usr/bin/env node
// orch-apiserver: flags → options → server → wait for SIGINT/SIGTERM → graceful shutdown.
import { FLAG_DEFINITIONS, parseCommandLine } from '../lib/server/options/options';
import { FlagError, usage } from '../lib/server/options/flag-set';
import { ApiServer } from '../lib/server/server';
import { createLogger } from '../lib/server/logging';
import { featureGateWarnings } from '../lib/server/options/feature-gates';

async function main(): Promise<number> {
  let parsed;
  try {
    parsed = parseCommandLine(process.argv.slice(2));
  } catch (err) {
    if (err instanceof FlagError) {
      process.stderr.write(`Error: ${err.message}\nRun 'orch-apiserver --help' for usage.\n`);
      return 1;
    }
    throw err;
  }
  if (parsed.help) {
    process.stdout.write(usage('orch-apiserver', FLAG_DEFINITIONS));
    return 0;
  }
  const log = createLogger({ level: parsed.options.logLevel, format: parsed.options.loggingFormat });
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
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  });
  let server: ApiServer;
  try {
    server = await ApiServer.start(parsed.options, log);
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

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  },
);

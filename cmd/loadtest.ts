#!/usr/bin/env node
// orch-loadtest: flags → run (or compare) → result.json + report.html → SLO verdicts → exit code.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { compareResults, formatComparison, readResult, renderComparison } from '../lib/loadtest/compare';
import { parseArgs, ProfileError, usage, UsageError } from '../lib/loadtest/flags';
import { renderReport } from '../lib/loadtest/report';
import { runLoadTest } from '../lib/loadtest/run';
import { formatVerdicts } from '../lib/loadtest/slo';

async function main(argv: string[]): Promise<number> {
  let command;
  try {
    command = parseArgs(argv);
  } catch (err) {
    if (err instanceof UsageError || err instanceof ProfileError) {
      process.stderr.write(`Error: ${err.message}\nRun 'orch-loadtest --help' for usage.\n`);
      return 2;
    }
    throw err;
  }
  if (command.kind === 'help') {
    process.stdout.write(usage());
    return 0;
  }
  if (command.kind === 'compare') {
    const a = readResult(command.a);
    const b = readResult(command.b);
    process.stdout.write(formatComparison(command.a, command.b, compareResults(a, b)));
    if (command.out) {
      writeFileSync(command.out, renderComparison(command.a, a, command.b, b));
      process.stdout.write(`comparison report: ${command.out}\n`);
    }
    return 0;
  }
  const p = command.profile;
  process.stderr.write(
    `orch-loadtest: ${command.connection ? command.connection.server : 'embedded orch-apiserver'}, ${p.model === 'open' ? `${p.rate} ops/s` : `${p.concurrency} workers`}, ${p.duration}s + ${p.warmup}s warm-up, seed ${p.seed}, run ${command.runId}\n`,
  );
  const result = await runLoadTest({
    profile: p,
    ...(command.connection ? { connection: command.connection } : {}),
    runId: command.runId,
    cleanup: command.cleanup,
    command: ['orch-loadtest', ...argv].join(' '),
    embeddedServerArgs: command.serverArgs,
    progressOut: process.stderr,
    progressEverySeconds: command.progressEverySeconds,
  });
  mkdirSync(command.out, { recursive: true });
  const jsonPath = join(command.out, 'result.json');
  const htmlPath = join(command.out, 'report.html');
  writeFileSync(jsonPath, `${JSON.stringify(result, null, 2)}\n`);
  writeFileSync(htmlPath, renderReport(result));
  const t = result.totals;
  const w = result.watch;
  process.stdout.write(
    `${t.count} requests in ${result.measuredSeconds}s (${t.ratePerSecond}/s), ${t.errors} errors, p50 ${t.p50} ms, p99 ${t.p99} ms, max ${t.max} ms\n` +
      `watch: ${w.watchers} watches, ${w.receivedEvents}/${w.expectedEvents} events, ${w.missedEvents} missed, lag p99 ${w.p99} ms\n` +
      (result.server.available
        ? `server: ${result.server.cpuSeconds ?? '-'} CPU s, RSS ${result.server.rssBytesAfter === undefined ? '-' : `${(result.server.rssBytesAfter / 2 ** 20).toFixed(0)} MiB`}\n`
        : `server metrics: ${result.server.error}\n`) +
      formatVerdicts(result.slo) +
      `wrote ${jsonPath} and ${htmlPath}\n`,
  );
  for (const problem of result.cleanupProblems) process.stderr.write(`cleanup: ${problem}\n`);
  return command.failOnSlo && !result.sloPass ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`Error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);

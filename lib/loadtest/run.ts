// One load-test run: target, setup, watchers, warm-up, measured phase, server metrics, result.
import { ApiClient, type Connection } from './client';
import { startEmbeddedServer, type EmbeddedServer } from './embedded';
import { percentilesOf, type Percentiles } from './histogram';
import { resolveFlowSchemaVersion } from './objects';
import { machineInfo, type MachineInfo } from './machine';
import type { Profile } from './profile';
import { ProgressReporter } from './progress';
import { Recorder, type IntervalJson, type RowJson } from './recorder';
import { realClock, runClosedModel, runOpenModel } from './scheduler';
import { scrapeMetrics, serverFigures, type Scrape, type ServerFigures } from './server-metrics';
import { cleanUp, prepare } from './setup';
import { sloVerdicts, type SloVerdict } from './slo';
import { WatchTracker, type WatchSummary } from './watchers';
import { Executor, ObjectPool, planner } from './workload';

export interface RunOptions {
  profile: Profile;
  /** Undefined: start a throwaway embedded server. */
  connection?: Connection;
  runId: string;
  cleanup: boolean;
  command: string;
  embeddedServerArgs?: string[];
  progressOut: NodeJS.WritableStream & { isTTY?: boolean };
  progressEverySeconds?: number;
}

export interface ResultJson {
  tool: 'orch-loadtest';
  formatVersion: 1;
  runId: string;
  command: string;
  startedAt: string;
  finishedAt: string;
  target: { server: string; embedded: boolean; version?: string };
  profile: Profile;
  machine: MachineInfo;
  /** Measured seconds (warm-up excluded). */
  measuredSeconds: number;
  totals: Percentiles & { count: number; errors: number; ratePerSecond: number; intendedRatePerSecond?: number };
  rows: RowJson[];
  timeline: IntervalJson[];
  watch: WatchSummary;
  server: ServerFigures;
  slo: SloVerdict[];
  sloPass: boolean;
  cleanupProblems: string[];
}

async function serverVersion(client: ApiClient): Promise<string | undefined> {
  const reply = await client.request('GET', '/version', { timeoutMs: 10_000 });
  if (reply.status !== 200) {
    if (reply.status === 0) throw new Error(`cannot reach ${client.base.toString()}: ${reply.error}`);
    if (reply.status === 401)
      throw new Error(
        `${client.base.toString()} answered 401 Unauthorized to GET /version: give credentials with --token or --kubeconfig`,
      );
    return undefined;
  }
  try {
    return (JSON.parse(reply.body) as { gitVersion?: string }).gitVersion;
  } catch {
    return undefined;
  }
}

export async function runLoadTest(o: RunOptions): Promise<ResultJson> {
  const { profile } = o;
  const startedAt = new Date().toISOString();
  let embedded: EmbeddedServer | undefined;
  if (!o.connection) embedded = await startEmbeddedServer(o.embeddedServerArgs);
  const connection = o.connection ?? { server: embedded!.url };
  const client = new ApiClient(
    connection,
    profile.model === 'open' ? Math.min(profile.maxInFlight, 512) : profile.concurrency,
  );
  try {
    const version = await serverVersion(client);
    if (profile.kinds.includes('flowschemas')) await resolveFlowSchemaVersion(client);
    const pool = new ObjectPool(o.runId);
    await prepare(client, profile, o.runId, pool);
    const clock = realClock;
    const watch = new WatchTracker(client, o.runId, clock.now);
    await watch.start(profile.kinds, profile.watchers);

    const warmupStart = clock.now() + 50;
    const measureStart = warmupStart + profile.warmup * 1000;
    const end = measureStart + profile.duration * 1000;
    const recorder = new Recorder(measureStart);
    const executor = new Executor({
      client,
      profile,
      runId: o.runId,
      pool,
      recorder,
      onAck: watch.onAck,
      now: clock.now,
    });
    const next = planner(profile);

    let before: Promise<Scrape | { error: string }> = Promise.resolve({ error: 'not scraped' });
    const scrapeTimer = setTimeout(() => (before = scrapeMetrics(client)), Math.max(0, measureStart - clock.now()));
    let inFlight = 0;
    let completed = 0;
    let lastCompleted = 0;
    let lastTick = clock.now();
    const progress = new ProgressReporter(o.progressOut, o.progressEverySeconds);
    const tick = setInterval(() => {
      const now = clock.now();
      progress.update({
        elapsedSeconds: (now - measureStart) / 1000,
        totalSeconds: profile.duration,
        warmup: now < measureStart,
        ratePerSecond: ((completed - lastCompleted) * 1000) / (now - lastTick),
        errors: recorder.errors,
        p99Ms: recorder.overall.percentileMs(0.99),
        inFlight,
      });
      lastCompleted = completed;
      lastTick = now;
    }, 1000);
    const op = async (slot: { index: number; intendedAt: number }): Promise<void> => {
      const planned = next();
      inFlight += 1;
      try {
        await executor.run(planned, slot.index + 1, slot.intendedAt);
      } finally {
        inFlight -= 1;
        completed += 1;
      }
    };
    const common = { clock, startAt: warmupStart, endAt: end, op, onDone: () => undefined };
    try {
      if (profile.model === 'open')
        await runOpenModel({ ...common, ratePerSecond: profile.rate, maxInFlight: profile.maxInFlight });
      else await runClosedModel({ ...common, concurrency: profile.concurrency });
    } finally {
      clearInterval(tick);
      clearTimeout(scrapeTimer);
      progress.finish();
    }
    const measuredSeconds = profile.duration;
    const after = await scrapeMetrics(client);
    await watch.stop(5000);
    const rows = recorder.rowsJson(measuredSeconds);
    const slo = sloVerdicts(rows);
    const cleanupProblems = o.cleanup && !embedded ? await cleanUp(client, profile, o.runId) : [];
    return {
      tool: 'orch-loadtest',
      formatVersion: 1,
      runId: o.runId,
      command: o.command,
      startedAt,
      finishedAt: new Date().toISOString(),
      target: { server: connection.server, embedded: Boolean(embedded), ...(version ? { version } : {}) },
      profile,
      machine: machineInfo(),
      measuredSeconds,
      totals: {
        count: recorder.overall.count,
        errors: recorder.errors,
        ratePerSecond: Math.round((recorder.overall.count / measuredSeconds) * 100) / 100,
        ...(profile.model === 'open' ? { intendedRatePerSecond: profile.rate } : {}),
        ...percentilesOf(recorder.overall),
      },
      rows,
      timeline: recorder.timelineJson(),
      watch: watch.summary(measureStart),
      server: serverFigures(await before, after, measuredSeconds),
      slo,
      sloPass: slo.every((v) => v.pass),
      cleanupProblems,
    };
  } finally {
    client.close();
    await embedded?.stop();
  }
}

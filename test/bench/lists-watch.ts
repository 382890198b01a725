// `make bench` (lists and watches): 10,000 Deployments of ~2 KiB; full LIST (etcd) and LIST rv=0 (watch cache)
// against a raw etcd range + decode through the same etcd3 client; paged LIST; 1,000 watchers receiving 200
// writes/s; server memory with the cache filled. Prints a table and prepends a section to docs/benchmarks.md.
import { Agent } from 'node:http';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { httpRequest } from './http-load';
import type { ServerProcess } from './server-process';
import { runBench, withBenchServer } from './bench-server';
import { machineDescription, publishSection } from './report';
import { MiB, rssBytes } from './process-memory';
import { fanOutMet, fanOutRow, runFanOut } from './fanout-run';
import { fillDeployments, listSpeedRows, measureListSpeed } from './list-timing';

const OBJECTS = Number(process.env['BENCH_LIST_OBJECTS'] ?? 10_000);
const LIST_ROUNDS = Number(process.env['BENCH_LIST_ROUNDS'] ?? 10);
const WATCHERS = Number(process.env['BENCH_WATCHERS'] ?? 1000);
const WRITES_PER_SECOND = Number(process.env['BENCH_WRITE_RATE'] ?? 200);
const WATCH_SECONDS = Number(process.env['BENCH_WATCH_SECONDS'] ?? 10);
/** Processes the fan-out's watchers are spread over. */
const WATCHER_PROCESSES = Number(process.env['BENCH_WATCHER_PROCESSES'] ?? 1);
const NS = 'bench-lists';
const WATCH_NS = 'bench-watch';
/** `deployments` (default) or `namespaces`: which kind the fan-out watchers watch and the writers patch. */
const WATCH_KIND = process.env['BENCH_WATCH_KIND'] ?? 'deployments';

function log(line: string): void {
  process.stderr.write(`[bench lists] ${line}\n`);
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

async function rounds(n: number, fn: () => Promise<unknown>): Promise<{ median: number; min: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push((await timed(fn)).ms);
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? NaN, min: times[0] ?? NaN };
}

async function watchFanOut(server: ServerProcess, agent: Agent): Promise<string[]> {
  const options = {
    watchers: WATCHERS,
    processes: WATCHER_PROCESSES,
    writesPerSecond: WRITES_PER_SECOND,
    seconds: WATCH_SECONDS,
    kind: WATCH_KIND,
    namespace: WATCH_NS,
  };
  log(`${WATCHERS} watchers (${WATCHER_PROCESSES} processes); writing ${WRITES_PER_SECOND}/s for ${WATCH_SECONDS}s`);
  const result = await runFanOut(server, agent, options);
  const met = fanOutMet(result, options);
  return [
    fanOutRow(result, options),
    '',
    `Target: every watcher receives every event, p99 delivery < 250 ms at ${WRITES_PER_SECOND} writes/s — **${met ? 'met' : 'missed'}**.`,
  ];
}

/** Extra node flags for the server process, e.g. BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof". */
const SERVER_NODE_ARGS = (process.env['BENCH_SERVER_NODE_ARGS'] ?? '').split(/\s+/).filter(Boolean);

runBench(() => withBenchServer('lists', measure, SERVER_NODE_ARGS));

async function measure(server: ServerProcess, etcdUrl: string): Promise<void> {
  const client = newEtcdClient(etcdUrl);
  try {
    const agent = new Agent({ keepAlive: true, maxSockets: 64 });
    log(`creating ${OBJECTS} Deployments`);
    // The watch namespace first: the last write before the LISTs is a Deployment, so the consistent LIST finds the
    // watch cache at etcd's revision (a later write to another resource would leave it behind until etcd's next
    // progress notification, and the read would go to etcd).
    const watchNs = JSON.stringify({ metadata: { name: WATCH_NS } });
    await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', watchNs);
    await fillDeployments(server.url, agent, NS, OBJECTS);
    const path = `/apis/apps/v1/namespaces/${NS}/deployments`;
    const one = await httpRequest(agent, server.url, 'GET', `${path}?limit=1`);
    const itemBytes = Buffer.byteLength(JSON.stringify(JSON.parse(one.body).items[0]));
    const prefix = `/registry/apps/deployments/${NS}/`;
    const rawKeys = await client.getAll().prefix(prefix).count();
    if (rawKeys !== OBJECTS) throw new Error(`expected ${OBJECTS} keys under ${prefix}, found ${rawKeys}`);

    log('measuring');
    const speed = await measureListSpeed(
      client,
      prefix,
      [{ label: 'this build', url: server.url, pid: server.pid }],
      path,
      LIST_ROUNDS,
    );
    const listed = listSpeedRows(speed, OBJECTS);
    const cachedParsed = await rounds(LIST_ROUNDS, async () =>
      JSON.parse(((await httpRequest(agent, server.url, 'GET', `${path}?resourceVersion=0`)) as { body: string }).body),
    );
    const paged = await rounds(Math.max(3, LIST_ROUNDS / 2), async () => {
      let token = '';
      let pages = 0;
      do {
        const res = await httpRequest(
          agent,
          server.url,
          'GET',
          `${path}?limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`,
        );
        token = JSON.parse(res.body).metadata.continue ?? '';
        pages++;
      } while (token !== '');
      if (pages !== Math.ceil(OBJECTS / 500)) throw new Error(`unexpected page count ${pages}`);
    });
    await new Promise((r) => setTimeout(r, 2000));
    const rss = rssBytes(server.pid) / MiB;
    const metrics = (await httpRequest(agent, server.url, 'GET', '/metrics')).body;
    const heapMiB = Number(/^nodejs_heap_size_used_bytes (\S+)/m.exec(metrics)?.[1] ?? NaN) / 2 ** 20;

    const fanOut = await watchFanOut(server, agent);
    const rows = [
      '| Measure | Result |',
      '|---|---|',
      ...listed.rows,
      `| LIST resourceVersion=0, body received and JSON.parse'd by the client | median ${cachedParsed.median.toFixed(1)} ms |`,
      `| paged LIST limit=500 (${Math.ceil(OBJECTS / 500)} pages), end to end | median ${paged.median.toFixed(1)} ms |`,
      `| server memory at rest, cache filled (${OBJECTS} objects of ~${(itemBytes / 1024).toFixed(1)} KiB) | RSS ${rss.toFixed(0)} MiB, JS heap used ${heapMiB.toFixed(0)} MiB |`,
      ...fanOut.slice(0, 1),
    ];
    const targets = [...listed.targets, fanOut[2] ?? ''];
    const section = [
      `## Lists and watches (${new Date().toISOString().slice(0, 16)}Z)`,
      '',
      'Command: `make bench` (step `node dist/test/bench/lists-watch.js`). Machine:',
      '',
      ...machineDescription(),
      '',
      `The apiserver runs as a separate process on a fresh local etcd; the bench process holds the etcd3 client for the raw range and all HTTP clients. The LIST-from-cache rows come from list-timing.ts: ${LIST_ROUNDS} rounds after 2 warm-up rounds, each timing the raw etcd range + JSON.parse of every value, curl receiving a body of the list's size from a static one-write server in the bench process (curl's floor), then LIST resourceVersion=0, LIST without resourceVersion and LIST resourceVersion=0 gzipped by curl from connect to the last byte, with the server's CPU (all threads) per LIST; figures are median (p25, min, max) in ms, ratios the raw median over the figure's median. The parsed and paged LISTs are the median of ${LIST_ROUNDS} (paged: ${Math.max(3, LIST_ROUNDS / 2)}) sequential requests by the Node client, timed until the whole body is received. Watchers are raw TCP connections in ${WATCHER_PROCESSES === 1 ? 'a separate process' : `${WATCHER_PROCESSES} separate processes`} (test/bench/fanout-watchers.ts, BENCH_WATCHER_PROCESSES) scanning the chunked JSON stream and recording, per MODIFIED event, the wall-clock time since the PATCH that caused it was acknowledged in the writers' process (0 when the event arrived first).`,
      '',
      ...rows,
      '',
      ...targets,
      '',
    ].join('\n');
    publishSection(section);
  } finally {
    client.close();
  }
}

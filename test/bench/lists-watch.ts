// `make bench` (lists and watches): 10,000 Deployments of ~2 KiB; full LIST (etcd) and LIST rv=0 (watch cache)
// against a raw etcd range + decode through the same etcd3 client; paged LIST; 1,000 watchers receiving 200
// writes/s; server memory with the cache filled. Prints a table and prepends a section to docs/benchmarks.md.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { newEtcdClient } from '../../lib/storage/etcd/client';
import { httpRequest } from './http-load';
import type { ServerProcess } from './server-process';
import { runBench, withBenchServer } from './bench-server';
import { machineDescription, prependSection } from './report';
import { MiB, rssBytes } from './process-memory';
import { fanOutMet, fanOutRow, runFanOut } from './fanout-run';
import { bigDeployment } from './workloads';

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
const WRITE_DOCS = process.env['BENCH_NO_DOCS'] !== '1';

function log(line: string): void {
  process.stderr.write(`[bench lists] ${line}\n`);
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

const execFileAsync = promisify(execFile);

/** `n` sequential GETs of `url` by curl (body discarded): median and minimum of curl's total time, in ms. */
async function curlRounds(n: number, url: string): Promise<{ median: number; min: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const args = [
      '-sf',
      '-A',
      'orch-bench',
      '-H',
      'Accept: application/json',
      '-o',
      '/dev/null',
      '-w',
      '%{time_total}',
    ];
    const { stdout } = await execFileAsync('curl', [...args, url]);
    times.push(Number(stdout) * 1000);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? NaN, min: times[0] ?? NaN };
}

async function rounds(n: number, fn: () => Promise<unknown>): Promise<{ median: number; min: number }> {
  const times: number[] = [];
  for (let i = 0; i < n; i++) times.push((await timed(fn)).ms);
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)] ?? NaN, min: times[0] ?? NaN };
}

async function fill(url: string, agent: Agent): Promise<void> {
  await httpRequest(agent, url, 'POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: NS } }));
  await httpRequest(agent, url, 'POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: WATCH_NS } }));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < OBJECTS) {
      const i = next++;
      const res = await httpRequest(
        agent,
        url,
        'POST',
        `/apis/apps/v1/namespaces/${NS}/deployments`,
        bigDeployment(`d-${String(i).padStart(5, '0')}`),
      );
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.body}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
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
    await fill(server.url, agent);
    const path = `/apis/apps/v1/namespaces/${NS}/deployments`;
    const one = await httpRequest(agent, server.url, 'GET', `${path}?limit=1`);
    const itemBytes = Buffer.byteLength(JSON.stringify(JSON.parse(one.body).items[0]));
    const prefix = `/registry/apps/deployments/${NS}/`;
    const rawKeys = await client.getAll().prefix(prefix).count();
    if (rawKeys !== OBJECTS) throw new Error(`expected ${OBJECTS} keys under ${prefix}, found ${rawKeys}`);

    log('measuring');
    const raw = await rounds(LIST_ROUNDS, async () => {
      const res = await client.kv.range({
        key: Buffer.from(prefix),
        range_end: Buffer.from(`${prefix.slice(0, -1)}0`),
      });
      for (const kv of res.kvs) JSON.parse(kv.value.toString('utf8'));
    });
    // curl receives the body at the speed the server sends it (a Node client's own per-chunk work would be timed too).
    const full = await curlRounds(LIST_ROUNDS, `${server.url}${path}`);
    const cached = await curlRounds(LIST_ROUNDS, `${server.url}${path}?resourceVersion=0`);
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
      `| raw etcd range of the ${OBJECTS} keys + JSON.parse of each (etcd3 client, bench process) | median ${raw.median.toFixed(1)} ms (min ${raw.min.toFixed(1)}) |`,
      `| LIST, no resourceVersion (consistent read: from the watch cache once it reached etcd's revision), HTTP body received by curl | median ${full.median.toFixed(1)} ms (min ${full.min.toFixed(1)}) = ${(raw.median / full.median).toFixed(1)}× faster than raw |`,
      `| LIST resourceVersion=0 (watch cache), HTTP body received by curl | median ${cached.median.toFixed(1)} ms (min ${cached.min.toFixed(1)}) = ${(raw.median / cached.median).toFixed(1)}× faster than raw |`,
      `| LIST resourceVersion=0, body received and JSON.parse'd by the client | median ${cachedParsed.median.toFixed(1)} ms |`,
      `| paged LIST limit=500 (${Math.ceil(OBJECTS / 500)} pages), end to end | median ${paged.median.toFixed(1)} ms |`,
      `| server memory at rest, cache filled (${OBJECTS} objects of ~${(itemBytes / 1024).toFixed(1)} KiB) | RSS ${rss.toFixed(0)} MiB, JS heap used ${heapMiB.toFixed(0)} MiB |`,
      ...fanOut.slice(0, 1),
    ];
    const targets = [
      `Target (issue 20): LIST rv=0 ≥ 10× faster than raw range + decode — **${raw.median / cached.median >= 10 ? 'met' : 'missed'}** (${(raw.median / cached.median).toFixed(1)}×).`,
      `Target (issue 20): no-rv LIST (consistent read from cache) ≥ 5× faster than raw range + decode — **${raw.median / full.median >= 5 ? 'met' : 'missed'}** (${(raw.median / full.median).toFixed(1)}×).`,
      fanOut[2] ?? '',
    ];
    const section = [
      `## Lists and watches (${new Date().toISOString().slice(0, 16)}Z)`,
      '',
      'Command: `make bench` (step `node dist/test/bench/lists-watch.js`). Machine:',
      '',
      ...machineDescription(),
      '',
      `The apiserver runs as a separate process on a fresh local etcd; the bench process holds the etcd3 client for the raw range and all HTTP clients. Each list figure is the median of ${LIST_ROUNDS} sequential requests (paged: ${Math.max(3, LIST_ROUNDS / 2)}), timed until the whole body is received. Watchers are raw TCP connections in ${WATCHER_PROCESSES === 1 ? 'a separate process' : `${WATCHER_PROCESSES} separate processes`} (test/bench/fanout-watchers.ts, BENCH_WATCHER_PROCESSES) scanning the chunked JSON stream and recording, per MODIFIED event, the wall-clock time since the PATCH that caused it was acknowledged in the writers' process (0 when the event arrived first).`,
      '',
      ...rows,
      '',
      ...targets,
      '',
    ].join('\n');
    process.stdout.write(`${section}\n`);
    if (WRITE_DOCS) prependSection(join(__dirname, '..', '..', '..', 'docs', 'benchmarks.md'), section);
  } finally {
    client.close();
  }
}

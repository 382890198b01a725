// LIST speed against the raw etcd range + decode of the same objects, measured round by round in one run: each
// round times the raw range, then curl receiving a static body of the list's size (curl's own floor), then every
// server's `resourceVersion=0` and consistent (no resourceVersion) LIST, so a swing in the machine's load hits
// every figure alike. Two warm-up rounds are not recorded (the first LIST after a fill builds the items' bytes).
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import type { Agent } from 'node:http';
import type { Etcd3 } from 'etcd3';
import { httpRequest } from './http-load';
import { bigDeployment } from './workloads';

const execFileAsync = promisify(execFile);
const WARM_UP_ROUNDS = 2;

export interface ListServer {
  label: string;
  url: string;
  pid: number;
}

/** Milliseconds over the recorded rounds. */
export interface Spread {
  median: number;
  p25: number;
  min: number;
  max: number;
}

export interface ServerListSpeed {
  label: string;
  /** curl's time_total: connect, request, until the last body byte is received. */
  rv0: Spread;
  consistent: Spread;
  /** rv=0 with Accept-Encoding: gzip (curl --compressed), as kubectl and client-go ask for it. */
  rv0Gzip: Spread;
  /** The server's CPU per LIST (every thread, /proc/<pid>/task/<tid>/schedstat, ns precision). */
  rv0Cpu: Spread;
  consistentCpu: Spread;
  rv0GzipCpu: Spread;
}

export interface ListSpeed {
  rounds: number;
  /** Body size of the rv=0 LIST (bytes). */
  bytes: number;
  /** etcd3 range of the prefix + JSON.parse of every value, in this process. */
  raw: Spread;
  /** curl receiving `bytes` from a server in this process writing one prebuilt buffer: what no LIST can beat. */
  floor: Spread;
  servers: ServerListSpeed[];
}

export function spread(values: number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number): number => sorted[Math.floor((sorted.length - 1) * q)] ?? NaN;
  return { median: at(0.5), p25: at(0.25), min: sorted[0] ?? NaN, max: sorted[sorted.length - 1] ?? NaN };
}

/** CPU ms of every thread of `pid` so far (scheduler run time, not the 10 ms ticks of /proc/<pid>/stat). */
export function threadsCpuMs(pid: number): number {
  let ns = 0;
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      // the thread ended
    }
  }
  return ns / 1e6;
}

/** One GET by curl (body discarded, compact JSON: a non-curl user agent): time_total and bytes received. */
export async function curlGet(url: string, gzip = false): Promise<{ ms: number; bytes: number }> {
  const args = ['-sf', '-A', 'orch-bench', '-H', 'Accept: application/json', '-o', '/dev/null'];
  if (gzip) args.push('--compressed');
  const { stdout } = await execFileAsync('curl', [...args, '-w', '%{time_total} %{size_download}', url]);
  const [seconds, bytes] = stdout.trim().split(' ').map(Number);
  return { ms: (seconds ?? NaN) * 1000, bytes: bytes ?? NaN };
}

/** A server answering every request with `body` in one write. */
async function staticServer(body: Buffer): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

async function rawRangeMs(client: Etcd3, prefix: string): Promise<number> {
  const start = process.hrtime.bigint();
  const res = await client.kv.range({ key: Buffer.from(prefix), range_end: Buffer.from(`${prefix.slice(0, -1)}0`) });
  for (const kv of res.kvs) JSON.parse(kv.value.toString('utf8'));
  return Number(process.hrtime.bigint() - start) / 1e6;
}

/** Creates namespace `ns` and `count` Deployments of ~2 KiB in it (32 at a time) through the server at `url`. */
export async function fillDeployments(url: string, agent: Agent, ns: string, count: number): Promise<void> {
  await httpRequest(agent, url, 'POST', '/api/v1/namespaces', JSON.stringify({ metadata: { name: ns } }));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      const name = `d-${String(next++).padStart(5, '0')}`;
      const res = await httpRequest(
        agent,
        url,
        'POST',
        `/apis/apps/v1/namespaces/${ns}/deployments`,
        bigDeployment(name),
      );
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${res.body}`);
    }
  };
  await Promise.all(Array.from({ length: 32 }, worker));
}

/** `path` (a collection) on every server against the raw range of `prefix` (ending in `/`), `rounds` times. */
export async function measureListSpeed(
  client: Etcd3,
  prefix: string,
  servers: ListServer[],
  path: string,
  rounds: number,
): Promise<ListSpeed> {
  const bytes = (await curlGet(`${servers[0]?.url}${path}?resourceVersion=0`)).bytes;
  const floorServer = await staticServer(Buffer.alloc(bytes, 0x20));
  const raw: number[] = [];
  const floor: number[] = [];
  const per = servers.map(() => ({
    rv0: [] as number[],
    consistent: [] as number[],
    rv0Gzip: [] as number[],
    rv0Cpu: [] as number[],
    consistentCpu: [] as number[],
    rv0GzipCpu: [] as number[],
  }));
  const timedList = async (server: ListServer, query: string, gzip = false): Promise<{ ms: number; cpu: number }> => {
    const before = threadsCpuMs(server.pid);
    const { ms } = await curlGet(`${server.url}${path}${query}`, gzip);
    return { ms, cpu: threadsCpuMs(server.pid) - before };
  };
  try {
    for (let round = 0; round < WARM_UP_ROUNDS + rounds; round++) {
      const record = round >= WARM_UP_ROUNDS;
      const rawMs = await rawRangeMs(client, prefix);
      const floorMs = (await curlGet(floorServer.url)).ms;
      if (record) raw.push(rawMs);
      if (record) floor.push(floorMs);
      // Servers in turn, starting with a different one each round (A/B runs).
      for (let k = 0; k < servers.length; k++) {
        const i = (round + k) % servers.length;
        const server = servers[i] as ListServer;
        const figures = per[i] as (typeof per)[number];
        const cached = await timedList(server, '?resourceVersion=0');
        const consistent = await timedList(server, '');
        const gzipped = await timedList(server, '?resourceVersion=0', true);
        if (!record) continue;
        figures.rv0Gzip.push(gzipped.ms);
        figures.rv0GzipCpu.push(gzipped.cpu);
        figures.rv0.push(cached.ms);
        figures.rv0Cpu.push(cached.cpu);
        figures.consistent.push(consistent.ms);
        figures.consistentCpu.push(consistent.cpu);
      }
    }
  } finally {
    floorServer.server.close();
  }
  return {
    rounds,
    bytes,
    raw: spread(raw),
    floor: spread(floor),
    servers: servers.map((s, i) => {
      const f = per[i] as (typeof per)[number];
      return {
        label: s.label,
        rv0: spread(f.rv0),
        consistent: spread(f.consistent),
        rv0Gzip: spread(f.rv0Gzip),
        rv0Cpu: spread(f.rv0Cpu),
        consistentCpu: spread(f.consistentCpu),
        rv0GzipCpu: spread(f.rv0GzipCpu),
      };
    }),
  };
}

const f1 = (v: number): string => v.toFixed(1);
const cell = (s: Spread): string => `${f1(s.median)} (p25 ${f1(s.p25)}, min ${f1(s.min)}, max ${f1(s.max)})`;

/** Markdown rows (`| Measure | Result |` table) and the issue-20 target lines, ratios against the raw median. */
export function listSpeedRows(speed: ListSpeed, objects: number): { rows: string[]; targets: string[] } {
  const times = (s: Spread): string => `${(speed.raw.median / s.median).toFixed(1)}×`;
  const rows = [
    `| raw etcd range of the ${objects} keys + JSON.parse of each (etcd3 client, bench process), ms | ${cell(speed.raw)} |`,
    `| curl receiving ${(speed.bytes / 2 ** 20).toFixed(1)} MiB (the list's size) from a one-write static server in the bench process, ms | ${cell(speed.floor)} = ${times(speed.floor)} faster than raw: the most any LIST can reach |`,
  ];
  for (const s of speed.servers) {
    const name = speed.servers.length > 1 ? ` [${s.label}]` : '';
    rows.push(
      `| LIST resourceVersion=0 (watch cache)${name}, curl until the last byte, ms | ${cell(s.rv0)} = ${times(s.rv0)} faster than raw |`,
      `| LIST without resourceVersion (consistent read from the cache)${name}, curl until the last byte, ms | ${cell(s.consistent)} = ${times(s.consistent)} faster than raw |`,
      `| server CPU per LIST${name} (all threads), rv=0 / consistent, ms | ${cell(s.rv0Cpu)} / ${cell(s.consistentCpu)} |`,
      `| LIST resourceVersion=0 gzipped (Accept-Encoding: gzip, as kubectl and client-go send)${name}: curl until the last byte / server CPU, ms | ${cell(s.rv0Gzip)} / ${cell(s.rv0GzipCpu)} |`,
    );
  }
  const main = speed.servers[0];
  const ratio = (s: Spread | undefined): number => (s === undefined ? NaN : speed.raw.median / s.median);
  const targets = [
    `Target (issue 20): LIST rv=0 ≥ 10× faster than raw range + decode — **${ratio(main?.rv0) >= 10 ? 'met' : 'missed'}** (${ratio(main?.rv0).toFixed(1)}×; curl's floor ${ratio(speed.floor).toFixed(1)}×).`,
    `Target (issue 20): no-rv LIST (consistent read from cache) ≥ 5× faster than raw range + decode — **${ratio(main?.consistent) >= 5 ? 'met' : 'missed'}** (${ratio(main?.consistent).toFixed(1)}×).`,
  ];
  return { rows, targets };
}

// `node --expose-gc dist/test/bench/fill-decode.js`: in process, the main-thread CPU of
// the watch cache fill's work per object after a page's bytes have arrived: readRangeResponse over one RangeResponse
// of 10,000 Deployments (as etcd sends it; encoded here with etcd's rpc.proto), then per key-value what the fill does
// (EtcdStorage.list's raw item, compactFromStored in place, the Map insert), for pages in a row with every object
// kept (as the fill keeps them until ready, so the garbage collector's cost is in it). No etcd, no network: the bytes
// are made in this process, copied into a fresh buffer per page before the clock starts. This build and another
// (BENCH_BASE_BUILD=<other dist>) alternate round by round. BENCH_DECODE_PAGES (default 10), BENCH_DECODE_ROUNDS
// (default 5).
import { join, resolve } from 'node:path';
import * as protobuf from 'protobufjs';
import type { ApiObject } from '../../lib/apimachinery/meta/types';
import { encodeObject } from '../../lib/storage/etcd/codec';
import { nameOf, nsOf, PREFIX, storedDeployment } from './cache-memory';
import { LOAD_AT_START, machineDescription, publishSection } from './report';

const PAGES = Number(process.env['BENCH_DECODE_PAGES'] ?? 10);
const ROUNDS = Number(process.env['BENCH_DECODE_ROUNDS'] ?? 5);
const PER_PAGE = 10_000;
const THIS_BUILD = resolve(join(__dirname, '..', '..'));
const BASE_BUILD = process.env['BENCH_BASE_BUILD'] === undefined ? undefined : resolve(process.env['BENCH_BASE_BUILD']);

interface Build {
  name: string;
  readRangeResponse: (bytes: Buffer) => { kvs: { key: Buffer; value: Buffer; modRevision: number }[] };
  compactFromStored: (value: Buffer, resourceVersion: string, inPlace?: boolean) => ApiObject | undefined;
}

async function load(dir: string, name: string): Promise<Build> {
  const range = (await import(join(dir, 'lib/storage/etcd/raw-range.js'))) as Pick<Build, 'readRangeResponse'>;
  const compact = (await import(join(dir, 'lib/apimachinery/serializers/compact-object.js'))) as Pick<
    Build,
    'compactFromStored'
  >;
  return { name, readRangeResponse: range.readRangeResponse, compactFromStored: compact.compactFromStored };
}

/** RangeResponses of PER_PAGE Deployments each, as etcd encodes them. */
function pagesOfBytes(): Buffer[] {
  const root = protobuf.loadSync(join(require.resolve('etcd3'), '..', '..', 'proto', 'rpc.proto'));
  const RangeResponse = root.lookupType('etcdserverpb.RangeResponse');
  const pages: Buffer[] = [];
  for (let p = 0; p < PAGES; p++) {
    const kvs = [];
    for (let i = p * PER_PAGE; i < (p + 1) * PER_PAGE; i++) {
      const revision = 1000 + i;
      kvs.push({
        key: Buffer.from(`${PREFIX}${nsOf(i)}/${nameOf(i)}`),
        createRevision: revision,
        modRevision: revision,
        version: 1,
        value: Buffer.from(encodeObject(storedDeployment(nsOf(i), nameOf(i), i))),
      });
    }
    const message = {
      header: { clusterId: 1, memberId: 2, revision: 200_000, raftTerm: 2 },
      kvs,
      more: true,
      count: 1,
    };
    pages.push(Buffer.from(RangeResponse.encode(message).finish()));
  }
  return pages;
}

function cpuUs(): number {
  const u = process.cpuUsage();
  return u.user + u.system;
}

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (collect === undefined) throw new Error('run with node --expose-gc');
  collect();
  collect();
}

/** The fill's work on every page (each a fresh copy, made before the clock starts), µs of CPU per object. */
function fillOnce(build: Build, pages: Buffer[]): number {
  const into = new Map<string, ApiObject>();
  const copies = pages.map((p) => Buffer.from(p));
  gc();
  let cpu = 0;
  for (const page of copies) {
    const from = cpuUs();
    const res = build.readRangeResponse(page);
    const raw = res.kvs.map((kv) => ({
      key: kv.key.toString('utf8'),
      value: kv.value,
      resourceVersion: String(kv.modRevision),
    }));
    for (const { key, value, resourceVersion } of raw) {
      const compact = build.compactFromStored(value, resourceVersion, true);
      if (compact === undefined) throw new Error(`${build.name}: ${key} is not a compact object`);
      into.set(key, compact);
    }
    cpu += cpuUs() - from;
  }
  if (into.size !== PAGES * PER_PAGE) throw new Error(`${build.name}: ${into.size} objects`);
  return cpu / into.size;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? NaN;
}

async function main(): Promise<void> {
  const builds = [await load(THIS_BUILD, 'this build')];
  if (BASE_BUILD !== undefined) builds.push(await load(BASE_BUILD, 'base build'));
  const pages = pagesOfBytes();
  const figures = new Map<string, number[]>(builds.map((b) => [b.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const build of round % 2 === 0 ? builds : [...builds].reverse()) {
      const us = fillOnce(build, pages);
      figures.get(build.name)?.push(us);
      process.stderr.write(`[bench fill-decode] round ${round + 1}: ${build.name}: ${us.toFixed(2)} µs per object\n`);
    }
  }
  const rows = [...figures].map(
    ([name, list]) =>
      `| ${name} (${name === 'this build' ? THIS_BUILD : BASE_BUILD}) | ${median(list).toFixed(2)} | ${list.map((v) => v.toFixed(2)).join(', ')} |`,
  );
  publishSection(
    [
      `## Watch cache fill, main-thread CPU per object in process (${new Date().toISOString().replace(/\.\d+Z$/, 'Z')})${LOAD_AT_START > 2 ? ' — NOISY' : ''}`,
      '',
      `Command: \`node --expose-gc dist/test/bench/fill-decode.js\`${BASE_BUILD ? ` with BENCH_BASE_BUILD=${BASE_BUILD}` : ''} (BENCH_DECODE_PAGES=${PAGES}, BENCH_DECODE_ROUNDS=${ROUNDS}). ${PAGES} RangeResponses of ${PER_PAGE} Deployments encoded in process; per page: readRangeResponse, the raw items, compactFromStored in place and the Map insert, every object kept until the round ends (GC included). Process CPU (user + system) per object; builds alternate round by round.`,
      '',
      'Machine:',
      '',
      ...machineDescription(),
      '',
      '| build | median µs CPU per object | each round |',
      '|---|---|---|',
      ...rows,
      '',
    ].join('\n'),
  );
}

void main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});

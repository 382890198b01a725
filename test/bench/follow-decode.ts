// `node dist/test/bench/follow-decode.js`: in process, the CPU of turning one etcd watch response (one Deployment PUT,
// as the server stores it) into the watch cache's compact object, the old way (etcd3's proto-loader decode, a full
// JSON.parse, then compactObject) against the current one (decodeWatchResponse, then decodeCompact from the raw
// value bytes), in alternating rounds. No servers: one Deployment is created through a server on an embedded etcd
// first to get its stored bytes. BENCH_DECODE_ROUNDS (default 7), BENCH_DECODE_MESSAGES (default 20000);
// BENCH_BASE_BUILD=<another build's dist> adds that build's current way (its decodeWatchResponse and decodeCompact,
// loaded into this process), in the same alternating rounds.
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Etcd3 } from 'etcd3';
import { compactObject } from '../../lib/apimachinery/serializers/compact-object';
import { startEmbeddedEtcd } from '../../lib/server/embedded-etcd';
import { decodeCompact, decodeObject } from '../../lib/storage/etcd/codec';
import { decodeWatchResponse } from '../../lib/storage/etcd/watch-response';
import { etcd3WatchCodec } from '../helpers/etcd3-watch-codec';
import { httpRequest } from './http-load';
import { LOAD_AT_START, machineDescription, publishSection } from './report';
import { startServerProcess } from './server-process';
import { DEPLOYMENTS, deploymentBody, NAMESPACE, namespaceBody } from './workloads';

const ROUNDS = Number(process.env['BENCH_DECODE_ROUNDS'] ?? 7);
const MESSAGES = Number(process.env['BENCH_DECODE_MESSAGES'] ?? 20000);
const BASE_BUILD = process.env['BENCH_BASE_BUILD'];

type CompactDecode = typeof decodeCompact;
type ResponseDecode = (b: Buffer) => unknown;

/** Another build's two decoding steps, loaded from its dist directory. */
async function baseBuild(dir: string): Promise<{ response: ResponseDecode; compact: CompactDecode }> {
  const response = (await import(join(resolve(dir), 'lib/storage/etcd/watch-response.js'))) as {
    decodeWatchResponse: ResponseDecode;
  };
  const codec = (await import(join(resolve(dir), 'lib/storage/etcd/codec.js'))) as { decodeCompact: CompactDecode };
  return { response: response.decodeWatchResponse, compact: codec.decodeCompact };
}

interface KvLike {
  key: Buffer;
  value: Buffer;
  mod_revision: string;
}
interface ResponseLike {
  events: { kv: KvLike | null }[];
}

async function storedDeployment(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'orch-bench-decode-'));
  const etcd = await startEmbeddedEtcd(join(dataDir, 'etcd'));
  try {
    const server = await startServerProcess(etcd.clientUrl);
    try {
      const agent = new Agent({ keepAlive: false });
      await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', namespaceBody);
      const res = await httpRequest(agent, server.url, 'POST', DEPLOYMENTS, deploymentBody('decode-template'));
      agent.destroy();
      if (res.status !== 201) throw new Error(`creating the Deployment: ${res.status} ${res.body}`);
    } finally {
      await server.stop();
    }
    const client = new Etcd3({ hosts: etcd.clientUrl });
    const value = await client.get(`/registry/apps/deployments/${NAMESPACE}/decode-template`).string();
    client.close();
    if (value === null) throw new Error('the Deployment is not in etcd');
    return value;
  } finally {
    await etcd.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

function follow(
  messages: Buffer[],
  decode: ResponseDecode,
  current: boolean,
  compact: CompactDecode = decodeCompact,
): number {
  const from = process.cpuUsage();
  let kept = 0;
  for (const message of messages) {
    const res = decode(message) as ResponseLike;
    for (const { kv } of res.events) {
      if (kv === null) continue;
      const key = kv.key.toString('utf8');
      const object = current
        ? compact(key, kv.value, kv.mod_revision)
        : compactObject(decodeObject(key, kv.value, kv.mod_revision));
      if (object.metadata.resourceVersion === kv.mod_revision) kept++;
    }
  }
  const used = process.cpuUsage(from);
  if (kept !== messages.length) throw new Error(`only ${kept} of ${messages.length} objects decoded`);
  return (used.user + used.system) / messages.length;
}

async function main(): Promise<void> {
  const template = await storedDeployment();
  const codec = etcd3WatchCodec();
  const messages = Array.from({ length: MESSAGES }, (_, i) => {
    const name = `decode-${i}`;
    return codec.serialize({
      header: { cluster_id: '14841639068965178418', member_id: '10276657743932975437', revision: String(1000 + i) },
      watch_id: '0',
      events: [
        {
          type: 'Put',
          kv: {
            key: Buffer.from(`/registry/apps/deployments/${NAMESPACE}/${name}`),
            value: Buffer.from(template.replaceAll('decode-template', name)),
            create_revision: String(1000 + i),
            mod_revision: String(1000 + i),
            version: '1',
          },
        },
      ],
    });
  });
  const base = BASE_BUILD === undefined ? undefined : await baseBuild(BASE_BUILD);
  const old: number[] = [];
  const now: number[] = [];
  const other: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    old.push(follow(messages, codec.decode, false));
    const runs = [
      (): number => now.push(follow(messages, decodeWatchResponse, true)),
      ...(base === undefined ? [] : [(): number => other.push(follow(messages, base.response, true, base.compact))]),
    ];
    for (const run of round % 2 === 0 ? runs : runs.reverse()) run();
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;
  const row = (name: string, xs: number[]): string =>
    `| ${name} | ${median(xs).toFixed(1)} | ${xs.map((x) => x.toFixed(1)).join(', ')} |`;
  publishSection(
    [
      `## ${new Date().toISOString().replace(/\.\d+Z$/, 'Z')} — decoding a followed write, in process`,
      '',
      `Command: \`node dist/test/bench/follow-decode.js\` (BENCH_DECODE_ROUNDS=${ROUNDS}, BENCH_DECODE_MESSAGES=${MESSAGES}): CPU (process.cpuUsage) per etcd WatchResponse carrying one Deployment PUT (${template.length} bytes stored), from its bytes to the compact object the watch cache keeps; both ways alternate in one process. ${LOAD_AT_START > 2 ? `NOISY: 1-minute load average ${LOAD_AT_START.toFixed(1)} before the run.` : ''}`,
      '',
      'Machine:',
      '',
      ...machineDescription(),
      '',
      '| Path | µs CPU per followed write (median) | rounds |',
      '|---|---:|---|',
      row('etcd3 decode (proto-loader) + JSON.parse + compactObject (before)', old),
      row('decodeWatchResponse + decodeCompact (this build)', now),
      ...(BASE_BUILD === undefined ? [] : [row(`the same, other build (${BASE_BUILD})`, other)]),
      '',
    ].join('\n'),
  );
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});

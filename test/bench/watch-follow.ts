// The part of a create every --workers process pays, not just the one that served it: following etcd's watch into
// its watch cache. Writes Deployments straight into etcd (as the server stores them) while a server only follows,
// and charges that server's CPU (/proc, idle CPU of an equal time subtracted) to the writes.
import { Agent } from 'node:http';
import { Etcd3 } from 'etcd3';
import { httpRequest } from './http-load';
import type { ServerProcess } from './server-process';
import { processCpuMs } from './stats';
import { DEPLOYMENTS, deploymentBody, NAMESPACE } from './workloads';

/** Lets the follower's watch cache catch up after the last write (a watch event takes milliseconds). */
const SETTLE_MS = 1_500;
const WRITERS = 8;

/** A follower below this CPU (ms per second) has finished its start-up work (cache fill of earlier phases' objects). */
const IDLE_MS_PER_SECOND = 60;
const IDLE_WAIT_LIMIT_MS = 60_000;

/** Waits until every process in `pids` used less than 60 ms of CPU in a second (at most a minute). */
export async function untilIdle(pids: number[]): Promise<void> {
  const deadline = Date.now() + IDLE_WAIT_LIMIT_MS;
  for (;;) {
    const from = pids.map((pid) => processCpuMs(pid) ?? 0);
    await new Promise((r) => setTimeout(r, 1000));
    const busy = pids.some((pid, i) => (processCpuMs(pid) ?? 0) - (from[i] ?? 0) >= IDLE_MS_PER_SECOND);
    if (!busy || Date.now() > deadline) return;
  }
}

export interface FollowCost {
  writes: number;
  /** Follower CPU per write, idle CPU subtracted (ms). */
  msPerWrite: number;
  /** Follower CPU when idle (ms per second). */
  idleMsPerSecond: number;
}

/** `server` must already serve namespace `bench`; `tag` keeps the names of several runs on one etcd apart. */
export async function measureFollowCost(
  server: ServerProcess,
  etcdUrl: string,
  writes: number,
  tag: string,
): Promise<FollowCost> {
  const [cost] = await measureFollowCosts([server], etcdUrl, writes, tag);
  if (cost === undefined) throw new Error('no follow cost measured');
  return cost;
}

/**
 * measureFollowCost for several servers following the same writes at the same time (each one's CPU from /proc): an A/B
 * of builds that a loaded machine slows alike. The first server creates the template object.
 */
export async function measureFollowCosts(
  servers: ServerProcess[],
  etcdUrl: string,
  writes: number,
  tag: string,
): Promise<FollowCost[]> {
  const server = servers[0];
  if (server === undefined) return [];
  const pids = servers.map((s) => s.pid);
  const cpu = (): number[] => pids.map((pid) => processCpuMs(pid) ?? 0);
  // One object created through the server gives the stored form; the others are copies under other names.
  const agent = new Agent({ keepAlive: false });
  const template = `follow-${tag}-template`;
  const res = await httpRequest(agent, server.url, 'POST', DEPLOYMENTS, deploymentBody(template));
  agent.destroy();
  if (res.status !== 201) throw new Error(`creating the template Deployment: ${res.status} ${res.body}`);
  const client = new Etcd3({ hosts: etcdUrl });
  try {
    let n = 0;
    const writeUpTo = async (end: number): Promise<void> => {
      await putCopies(client, template, `follow-${tag}-`, n, end);
      n = end;
    };
    // Warm-up: the follower's code gets optimised and its start-up work (cache fill, GC) ends before idle is measured.
    await writeUpTo(Math.ceil(writes / 5));
    await untilIdle(pids);
    const idleFrom = cpu();
    const idleStarted = Date.now();
    await new Promise((r) => setTimeout(r, SETTLE_MS * 2));
    const idleSeconds = (Date.now() - idleStarted) / 1000;
    const idle = cpu().map((ms, i) => (ms - (idleFrom[i] ?? 0)) / idleSeconds);
    const warm = n;
    const from = cpu();
    const started = Date.now();
    await writeUpTo(warm + writes);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const seconds = (Date.now() - started) / 1000;
    return cpu().map((ms, i) => {
      const idleMsPerSecond = idle[i] ?? 0;
      return { writes, msPerWrite: (ms - (from[i] ?? 0) - idleMsPerSecond * seconds) / writes, idleMsPerSecond };
    });
  } finally {
    client.close();
  }
}

/**
 * Writes copies of the stored Deployment `template` (of namespace `bench`) straight into etcd as the server stores
 * them, named `<prefix><i>` for i in [from, to), by 8 writers at once.
 */
export async function putCopies(
  client: Etcd3,
  template: string,
  prefix: string,
  from: number,
  to: number,
): Promise<void> {
  const key = (name: string): string => `/registry/apps/deployments/${NAMESPACE}/${name}`;
  const stored = await client.get(key(template)).buffer();
  if (!stored) throw new Error(`the template Deployment ${template} is not under /registry/apps/deployments`);
  const text = stored.toString('utf8');
  let n = from;
  const writer = async (): Promise<void> => {
    while (n < to) {
      const name = `${prefix}${n++}`;
      await client.put(key(name)).value(text.replaceAll(template, name));
    }
  };
  await Promise.all(Array.from({ length: WRITERS }, writer));
}

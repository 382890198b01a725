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

async function untilIdle(pid: number): Promise<void> {
  const deadline = Date.now() + IDLE_WAIT_LIMIT_MS;
  for (;;) {
    const from = processCpuMs(pid) ?? 0;
    await new Promise((r) => setTimeout(r, 1000));
    if ((processCpuMs(pid) ?? 0) - from < IDLE_MS_PER_SECOND || Date.now() > deadline) return;
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
  // One object created through the server gives the stored form; the others are copies under other names.
  const agent = new Agent({ keepAlive: false });
  const template = `follow-${tag}-template`;
  const res = await httpRequest(agent, server.url, 'POST', DEPLOYMENTS, deploymentBody(template));
  agent.destroy();
  if (res.status !== 201) throw new Error(`creating the template Deployment: ${res.status} ${res.body}`);
  const client = new Etcd3({ hosts: etcdUrl });
  try {
    const stored = await client.get(`/registry/apps/deployments/${NAMESPACE}/${template}`).buffer();
    if (!stored) throw new Error('the template Deployment is not under /registry/apps/deployments');
    const text = stored.toString('utf8');
    let n = 0;
    const writeUpTo = async (end: number): Promise<void> => {
      const writer = async (): Promise<void> => {
        while (n < end) {
          const name = `follow-${tag}-${n++}`;
          await client.put(`/registry/apps/deployments/${NAMESPACE}/${name}`).value(text.replaceAll(template, name));
        }
      };
      await Promise.all(Array.from({ length: WRITERS }, writer));
    };
    // Warm-up: the follower's code gets optimised and its start-up work (cache fill, GC) ends before idle is measured.
    await writeUpTo(Math.ceil(writes / 5));
    await untilIdle(server.pid);
    const idleFrom = processCpuMs(server.pid) ?? 0;
    const idleStarted = Date.now();
    await new Promise((r) => setTimeout(r, SETTLE_MS * 2));
    const idleMsPerSecond = ((processCpuMs(server.pid) ?? 0) - idleFrom) / ((Date.now() - idleStarted) / 1000);
    const warm = n;
    const from = processCpuMs(server.pid) ?? 0;
    const started = Date.now();
    await writeUpTo(warm + writes);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const usedMs = (processCpuMs(server.pid) ?? 0) - from;
    const seconds = (Date.now() - started) / 1000;
    return { writes, msPerWrite: (usedMs - idleMsPerSecond * seconds) / writes, idleMsPerSecond };
  } finally {
    client.close();
  }
}

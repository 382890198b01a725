// Probes in a process of their own (so the storm's client does not delay them): once "go" arrives on stdin, a new
// connection every `intervalMs` for `seconds`, alternately GET /readyz and a system:masters LIST (both exempt);
// prints one JSON line per probe: {kind, sentMs (since go), ms, status, serverCpuMs}. serverCpuMs is the CPU the
// server process used while the probe waited (/proc, 10 ms ticks): the work ahead of the probe, which on a quiet
// machine is about its latency, and which a shared machine's load does not stretch.
import { Agent } from 'node:http';
import { httpRequest } from './http-load';
import { processCpuMs } from './stats';

export const PROBE_SENT_HEADER = 'X-Bench-Probe-Sent';

export interface ProbeResult {
  kind: 'readyz' | 'masters';
  sentMs: number;
  ms: number;
  status: number;
  serverCpuMs: number;
}

async function main(): Promise<void> {
  const [url = '', token = '', seconds = '3', intervalMs = '100', serverPid = '0'] = process.argv.slice(2);
  const serverCpu = (): number => processCpuMs(Number(serverPid)) ?? Number.NaN;
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  process.stdin.destroy();
  const agent = new Agent({ keepAlive: false });
  const go = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; performance.now() - go < Number(seconds) * 1000; i++) {
    const kind = i % 2 === 0 ? 'readyz' : 'masters';
    const sentMs = performance.now() - go;
    const cpu0 = serverCpu();
    // When it was sent (epoch ms), for probe-timing.ts in the server: how long the connection waited to be accepted.
    const sent = { [PROBE_SENT_HEADER]: String(performance.timeOrigin + performance.now()) };
    pending.push(
      (kind === 'readyz'
        ? httpRequest(agent, url, 'GET', '/readyz', undefined, undefined, sent)
        : httpRequest(agent, url, 'GET', '/apis/apps/v1/deployments', undefined, undefined, {
            ...sent,
            Authorization: `Bearer ${token}`,
          })
      )
        .then(
          (r) => ({ status: r.status }),
          () => ({ status: 0 }),
        )
        .then(({ status }) => {
          const line: ProbeResult = {
            kind,
            sentMs,
            ms: performance.now() - go - sentMs,
            status,
            serverCpuMs: serverCpu() - cpu0,
          };
          process.stdout.write(`${JSON.stringify(line)}\n`);
        }),
    );
    await new Promise((r) => setTimeout(r, Number(intervalMs)));
  }
  await Promise.all(pending);
  agent.destroy();
}

if (require.main === module) void main();

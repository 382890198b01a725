// The Deployments the GET benchmarks read: created through a server of this build, which is stopped after.
import { Agent } from 'node:http';
import { httpRequest } from './http-load';
import { startServerProcess } from './server-process';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';

/** Creates namespace `bench` and a Deployment per name (existing ones are kept). */
export async function createObjects(etcdUrl: string, names: string[]): Promise<void> {
  const server = await startServerProcess(etcdUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  try {
    const ns = await httpRequest(agent, server.url, 'POST', '/api/v1/namespaces', namespaceBody);
    if (ns.status !== 201 && ns.status !== 409) throw new Error(`namespace: ${ns.status} ${ns.body}`);
    for (const name of names) {
      const res = await httpRequest(agent, server.url, 'POST', DEPLOYMENTS, deploymentBody(name));
      if (res.status !== 201 && res.status !== 409) throw new Error(`create ${name}: ${res.status} ${res.body}`);
    }
  } finally {
    agent.destroy();
    await server.stop();
  }
}

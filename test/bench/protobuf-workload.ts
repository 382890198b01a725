// The protobuf bench's data: Deployments created as `make bench` creates them, then given the status the deployment
// controller of a running cluster writes (PUT of /status as kube-controller-manager), so both shapes are measured.
import { createHash } from 'node:crypto';
import { Agent } from 'node:http';
import { httpRequest } from './http-load';
import { DEPLOYMENTS, deploymentBody, namespaceBody } from './workloads';

const CONCURRENCY = 32;
/** The deployment controller's field manager (kube-controller-manager's user agent, as Kubernetes derives it). */
const CONTROLLER_MANAGER = 'kube-controller-manager';
const REPLICAS = 3;

/** Runs `job(i)` for i in [0, count) on CONCURRENCY connections. */
async function forEachIndex(
  url: string,
  count: number,
  job: (agent: Agent, i: number) => Promise<void>,
): Promise<void> {
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await job(agent, next++);
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  } finally {
    agent.destroy();
  }
}

export function deploymentName(i: number): string {
  return `pb-${String(i).padStart(5, '0')}`;
}

export async function createDeployments(url: string, count: number): Promise<void> {
  const agent = new Agent({ keepAlive: false });
  const ns = await httpRequest(agent, url, 'POST', '/api/v1/namespaces', namespaceBody);
  if (ns.status !== 201 && ns.status !== 409) throw new Error(`creating namespace: ${ns.status} ${ns.body}`);
  await forEachIndex(url, count, async (pool, i) => {
    const res = await httpRequest(pool, url, 'POST', DEPLOYMENTS, deploymentBody(deploymentName(i)));
    if (res.status !== 201) throw new Error(`creating ${deploymentName(i)}: ${res.status} ${res.body}`);
  });
}

/** The status Kubernetes 1.26's deployment controller writes once a Deployment's new ReplicaSet is fully available. */
export function availableStatus(
  name: string,
  generation: number,
  created: string,
  available: string,
): Record<string, unknown> {
  const podTemplateHash = createHash('sha256').update(name).digest('hex').slice(0, 10);
  return {
    observedGeneration: generation,
    replicas: REPLICAS,
    updatedReplicas: REPLICAS,
    readyReplicas: REPLICAS,
    availableReplicas: REPLICAS,
    conditions: [
      {
        type: 'Available',
        status: 'True',
        lastUpdateTime: available,
        lastTransitionTime: available,
        reason: 'MinimumReplicasAvailable',
        message: 'Deployment has minimum availability.',
      },
      {
        type: 'Progressing',
        status: 'True',
        lastUpdateTime: available,
        lastTransitionTime: created,
        reason: 'NewReplicaSetAvailable',
        message: `ReplicaSet "${name}-${podTemplateHash}" has successfully progressed.`,
      },
    ],
  };
}

/** Each Deployment as read, with its status, PUT to /status the way the controller's UpdateStatus does. */
export async function writeControllerStatus(url: string, count: number): Promise<void> {
  await forEachIndex(url, count, async (pool, i) => {
    const path = `${DEPLOYMENTS}/${deploymentName(i)}`;
    const read = await httpRequest(pool, url, 'GET', path);
    if (read.status !== 200) throw new Error(`reading ${path}: ${read.status} ${read.body}`);
    const obj = JSON.parse(read.body) as {
      metadata: { name: string; generation: number; creationTimestamp: string };
      status?: unknown;
    };
    const created = obj.metadata.creationTimestamp;
    const available = new Date(Date.parse(created) + 5000).toISOString().replace(/\.\d+Z$/, 'Z');
    obj.status = availableStatus(obj.metadata.name, obj.metadata.generation, created, available);
    const res = await httpRequest(
      pool,
      url,
      'PUT',
      `${path}/status?fieldManager=${CONTROLLER_MANAGER}`,
      JSON.stringify(obj),
    );
    if (res.status !== 200) throw new Error(`writing the status of ${path}: ${res.status} ${res.body}`);
  });
}

// The server and helpers shared by the PATCH integration tests: the namespace, patch content types, expected Statuses,
// and a two-container Deployment created over HTTP and read back from etcd.
import type { Etcd3 } from 'etcd3';
import { type TestServer, startServerWithEtcdClient, stopServerWithEtcdClient } from '../helpers/test-server';
import { aDeployment } from '../helpers/fixtures';

let ts: TestServer;
let etcd: Etcd3;
export const NS = 'patching';
export const DEPLOYMENTS = `/apis/apps/v1/namespaces/${NS}/deployments`;
export const STRATEGIC = 'application/strategic-merge-patch+json';
export const JSON_PATCH = 'application/json-patch+json';
export const MERGE = 'application/merge-patch+json';
export const REJECTED = {
  kind: 'Status',
  apiVersion: 'v1',
  metadata: {},
  status: 'Failure',
  message: 'the server rejected our request due to an error in our request',
  reason: 'Invalid',
  details: {},
  code: 422,
};

export async function startServer(): Promise<{ ts: TestServer; etcd: Etcd3 }> {
  ({ ts, etcd } = await startServerWithEtcdClient(NS));
  return { ts, etcd };
}

export const stopServer = (): Promise<void> => stopServerWithEtcdClient(ts, etcd);

/** A Deployment with two containers (`main` with two env vars, `sidecar`), created over HTTP. */
export async function created(name: string): Promise<Record<string, any>> {
  const dep = aDeployment(name);
  dep['spec'].template.spec.containers = [
    {
      name: 'main',
      image: 'nginx:1.25',
      env: [
        { name: 'A', value: '1' },
        { name: 'B', value: '2' },
      ],
    },
    { name: 'sidecar', image: 'envoy:1' },
  ];
  const res = await ts.api.post(DEPLOYMENTS, dep);
  if (res.status !== 201) throw new Error(`create ${name}: ${res.status} ${res.text}`);
  return res.body;
}

export async function stored(name: string): Promise<Record<string, any>> {
  const raw = await etcd.get(`/registry/apps/deployments/${NS}/${name}`).string();
  if (raw === null) throw new Error(`${name} is not in etcd`);
  return JSON.parse(raw);
}

export const patchOf = (containers: unknown[]): Record<string, unknown> => ({
  spec: { template: { spec: { containers } } },
});
export { badRequestStatus as badRequest } from '../helpers/status';

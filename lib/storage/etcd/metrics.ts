// etcd_request_duration_seconds: every etcd call's latency by operation and resource (pkg/storage/etcd3/metrics).
import { Histogram } from 'prom-client';

/** Same buckets as apiserver_request_duration_seconds, as kube-apiserver keeps them. */
export const ETCD_REQUEST_BUCKETS = [
  0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20, 30, 45, 60,
];

/** Process-wide like kube-apiserver's legacy registry; each server's registry registers it (no registry here). */
export const etcdRequestDuration = new Histogram({
  name: 'etcd_request_duration_seconds',
  help: '[ALPHA] Etcd request latency in seconds for each operation and object type.',
  labelNames: ['operation', 'type'],
  buckets: ETCD_REQUEST_BUCKETS,
  registers: [],
});

/** Maps a key to the `type` label (`deployments.apps`); the server installs one that knows the served resources. */
let typeOfKey: (key: string) => string = (key) => key;

/** Bound on the memos below (keys are chosen by clients: cluster-scoped names, namespaces). */
const MAX_MEMO = 10_000;
/** The type label by a key's parent path (`/registry/apps/deployments/ns`): one resolution per collection. */
const typeByParent = new Map<string, string>();
/** Histogram children by `operation|type`, so a call does not hash its labels (prom-client's costly part). */
const children = new Map<string, ReturnType<typeof etcdRequestDuration.labels>>();

export function setEtcdKeyTypeResolver(resolve: (key: string) => string): void {
  typeOfKey = resolve;
  typeByParent.clear();
}

function typeLabel(key: string): string {
  const parent = key.slice(0, key.lastIndexOf('/'));
  let type = typeByParent.get(parent);
  if (type === undefined) {
    type = typeOfKey(key);
    if (typeByParent.size >= MAX_MEMO) typeByParent.clear();
    typeByParent.set(parent, type);
  }
  return type;
}

function histogramOf(operation: string, type: string): ReturnType<typeof etcdRequestDuration.labels> {
  const id = `${operation}|${type}`;
  let child = children.get(id);
  if (child === undefined) {
    if (children.size >= MAX_MEMO) children.clear();
    child = etcdRequestDuration.labels({ operation, type });
    children.set(id, child);
  }
  return child;
}

/** Runs one etcd call, recording its latency (failed calls too) under `operation`. */
export async function timeEtcdCall<T>(operation: string, key: string, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await call();
  } finally {
    histogramOf(operation, typeLabel(key)).observe((performance.now() - started) / 1000);
  }
}

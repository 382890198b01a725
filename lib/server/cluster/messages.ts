// The IPC messages between the primary and its workers (--workers N); prom-client adds its own for metrics.

/** Environment of a worker: its index (1…N, kept across restarts) and the etcd the primary started, if any. */
export const WORKER_INDEX_ENV = 'ORCH_APISERVER_WORKER_INDEX';
export const WORKER_ETCD_ENV = 'ORCH_APISERVER_WORKER_ETCD_SERVERS';

/** Worker → primary: the worker listens and its start-up hooks are done. */
export interface ReadyMessage {
  type: 'orch:ready';
}

/** Primary → worker: shut down gracefully (the primary got SIGTERM or SIGINT). */
export interface ShutdownMessage {
  type: 'orch:shutdown';
}

/** Worker → primary: send me the metrics of every worker, summed. */
export interface MetricsRequest {
  type: 'orch:metrics-request';
  id: number;
}

/** Primary → worker: the answer to a MetricsRequest, the text exposition format or an error message. */
export interface MetricsResponse {
  type: 'orch:metrics-response';
  id: number;
  body?: string;
  error?: string;
}

export type ClusterMessage = ReadyMessage | ShutdownMessage | MetricsRequest | MetricsResponse;

export function isClusterMessage<T extends ClusterMessage['type']>(message: unknown, type: T): message is Extract<ClusterMessage, { type: T }> {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

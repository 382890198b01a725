// Response headers naming the FlowSchema and priority level a request was classified into.
import type { OutgoingMessage } from 'node:http';
import type { Classification } from './classifier';

export const HEADER_FLOW_SCHEMA_UID = 'X-Orch-PF-FlowSchema-UID';
export const HEADER_PRIORITY_LEVEL_UID = 'X-Orch-PF-PriorityLevel-UID';
/**
 * The Kubernetes-branded names, sent as well: client-go reads `X-Kubernetes-PF-FlowSchema-UID` when it retries a
 * 429 (rest/with_retry.go, the retry reason it logs); the priority-level header is sent with it as a pair.
 */
export const HEADER_K8S_FLOW_SCHEMA_UID = 'X-Kubernetes-PF-FlowSchema-UID';
export const HEADER_K8S_PRIORITY_LEVEL_UID = 'X-Kubernetes-PF-PriorityLevel-UID';

/** The four headers of a classified request (UIDs are empty for in-memory mandatory stand-ins). */
export function priorityAndFairnessHeaders(result: Classification): Record<string, string> {
  const fs = result.flowSchema.uid;
  const pl = result.priorityLevel.uid;
  return {
    [HEADER_FLOW_SCHEMA_UID]: fs,
    [HEADER_PRIORITY_LEVEL_UID]: pl,
    [HEADER_K8S_FLOW_SCHEMA_UID]: fs,
    [HEADER_K8S_PRIORITY_LEVEL_UID]: pl,
  };
}

/** Sets the four headers on a response (no object built per request). */
export function setPriorityAndFairnessHeaders(res: OutgoingMessage, result: Classification): void {
  const fs = result.flowSchema.uid;
  const pl = result.priorityLevel.uid;
  res.setHeader(HEADER_FLOW_SCHEMA_UID, fs);
  res.setHeader(HEADER_PRIORITY_LEVEL_UID, pl);
  res.setHeader(HEADER_K8S_FLOW_SCHEMA_UID, fs);
  res.setHeader(HEADER_K8S_PRIORITY_LEVEL_UID, pl);
}

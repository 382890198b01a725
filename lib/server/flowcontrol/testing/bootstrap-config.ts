// The Kubernetes 1.26 bootstrap FlowSchemas and priority levels as stored objects (with UIDs), for tests and benchmarks.
import type { ApiObject } from '../../../apimachinery/meta/types';
import {
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
  flowSchemaObject,
  priorityLevelObject,
} from '../../../registry/flowcontrol/bootstrap/configuration';

/** A stored object has a uid; derived from the name so tests can predict it. */
function stored(obj: ApiObject, kind: string): ApiObject {
  return { ...obj, metadata: { ...obj.metadata, uid: `uid-${kind}-${obj.metadata.name ?? ''}` } };
}

export function bootstrapPriorityLevels(): ApiObject[] {
  return [...MANDATORY_PRIORITY_LEVELS, ...SUGGESTED_PRIORITY_LEVELS].map((b) => stored(priorityLevelObject(b), 'pl'));
}

export function bootstrapFlowSchemas(): ApiObject[] {
  return [...MANDATORY_FLOW_SCHEMAS, ...SUGGESTED_FLOW_SCHEMAS].map((b) => stored(flowSchemaObject(b), 'fs'));
}

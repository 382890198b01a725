// Defaults of flowcontrol.apiserver.orch.io/v1beta3 FlowSchema and PriorityLevelConfiguration (Kubernetes 1.26 defaults.go).
import type { ApiObject } from '../../../apimachinery/meta/types';
import { isPlainObject } from '../../../apimachinery/meta/types';

export const FLOW_SCHEMA_DEFAULT_MATCHING_PRECEDENCE = 1000;
export const PRIORITY_LEVEL_DEFAULT_NOMINAL_CONCURRENCY_SHARES = 30;
export const PRIORITY_LEVEL_DEFAULT_LENDABLE_PERCENT = 0;
export const QUEUING_DEFAULT_HAND_SIZE = 8;
export const QUEUING_DEFAULT_QUEUES = 64;
export const QUEUING_DEFAULT_QUEUE_LENGTH_LIMIT = 50;

// Go decodes absent and null int32 fields to 0 and then defaults every 0, so an explicit 0 is
// replaced too. A wrongly typed value is left for validation to report.
function isZero(value: unknown): boolean {
  return value === undefined || value === null || value === 0;
}

/** Mutates `obj`. The spec is a struct in Go, so a missing spec is defaulted as an empty one. */
export function applyFlowSchemaDefaults(obj: ApiObject): void {
  if (obj.spec === undefined || obj.spec === null) obj.spec = {};
  const spec = obj.spec;
  if (!isPlainObject(spec)) return;
  if (isZero(spec.matchingPrecedence)) spec.matchingPrecedence = FLOW_SCHEMA_DEFAULT_MATCHING_PRECEDENCE;
}

/** Mutates `obj`: fills `spec.limited` and its queuing parameters where they exist (no sections are created). */
export function applyPriorityLevelConfigurationDefaults(obj: ApiObject): void {
  const spec = obj.spec;
  if (!isPlainObject(spec)) return;
  const limited = spec.limited;
  if (!isPlainObject(limited)) return;
  if (isZero(limited.nominalConcurrencyShares))
    limited.nominalConcurrencyShares = PRIORITY_LEVEL_DEFAULT_NOMINAL_CONCURRENCY_SHARES;
  // A pointer in Go: only absence is defaulted; an explicit 0 is already the default.
  if (limited.lendablePercent === undefined || limited.lendablePercent === null)
    limited.lendablePercent = PRIORITY_LEVEL_DEFAULT_LENDABLE_PERCENT;
  const limitResponse = limited.limitResponse;
  if (!isPlainObject(limitResponse)) return;
  const queuing = limitResponse.queuing;
  if (!isPlainObject(queuing)) return;
  if (isZero(queuing.handSize)) queuing.handSize = QUEUING_DEFAULT_HAND_SIZE;
  if (isZero(queuing.queues)) queuing.queues = QUEUING_DEFAULT_QUEUES;
  if (isZero(queuing.queueLengthLimit)) queuing.queueLengthLimit = QUEUING_DEFAULT_QUEUE_LENGTH_LIMIT;
}

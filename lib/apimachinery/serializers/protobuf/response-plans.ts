// The message plan of a response object's apiVersion/kind, looked up once per pair; 406 for kinds without a message.
import { notAcceptable } from '../../errors';
import { responseMessageNameOf } from './kinds';
import { messagePlan, type MessagePlan } from './message-plan';

/** Plans by apiVersion, then kind (looked up on every response, so no key strings are built). */
const plansByType = new Map<string, Map<string, MessagePlan>>();

/** The plan of `kind` in `apiVersion`; 406 as Kubernetes answers for an object without protobuf marshalling. */
export function planOf(apiVersion: string, kind: string): MessagePlan {
  const cached = plansByType.get(apiVersion)?.get(kind);
  if (cached) return cached;
  const name = responseMessageNameOf(apiVersion, kind);
  if (name === undefined) {
    const version = apiVersion.slice(apiVersion.indexOf('/') + 1) || 'v1';
    throw notAcceptable(
      `object *${version}.${kind} does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message`,
    );
  }
  const plan = messagePlan(name);
  const byKind = plansByType.get(apiVersion) ?? new Map<string, MessagePlan>();
  plansByType.set(apiVersion, byKind.set(kind, plan));
  return plan;
}

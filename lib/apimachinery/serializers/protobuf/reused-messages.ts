// Message bytes kept per object: an object decoded from storage never changes afterwards, so its message is encoded
// on first use and reused from then on (a watch-cache object serves every LIST, GET and watch frame of its version).
import { writeMessage } from './encode-message';
import type { MessagePlan } from './message-plan';
import { encodeWith } from './scratch-writer';
import { ObjectSlot } from '../object-slot';

interface KeptMessage {
  plan: MessagePlan;
  bytes: Buffer;
}

/** null: reuse is allowed but nothing was encoded yet. On the object, so the bytes go with it. */
const kept = new ObjectSlot<KeptMessage | null>('protobuf message');

/** Declares that `obj` (and everything it references) is not changed from now on, so its encoding may be kept. */
export function allowMessageReuse(obj: object): void {
  if (!kept.has(obj)) kept.set(obj, null);
}

/** The message of `obj` as `plan`, encoded at most once per object; undefined when `obj` may still change. */
export function reusableMessage(plan: MessagePlan, obj: object): Buffer | undefined {
  const entry = kept.get(obj);
  if (entry === undefined) return undefined;
  if (entry !== null && entry.plan === plan) return entry.bytes;
  const bytes = encodeWith((w) => writeMessage(w, plan, obj));
  kept.set(obj, { plan, bytes });
  return bytes;
}

/** The message of `obj` as `plan`: the kept bytes when reuse is allowed, else encoded now. */
export function messageBytes(plan: MessagePlan, obj: object): Buffer {
  return reusableMessage(plan, obj) ?? encodeWith((w) => writeMessage(w, plan, obj));
}

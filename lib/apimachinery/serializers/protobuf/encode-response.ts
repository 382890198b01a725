// Protobuf responses: an object as prefix + Unknown envelope, and a watch event as one length-prefixed frame.
import { isPlainObject } from '../../meta/types';
import { writeEnvelope } from './envelope';
import { writeMessage } from './encode-message';
import type { MessagePlan } from './message-plan';
import { planOf } from './response-plans';
import type { ReverseWriter } from './reverse-writer';
import { reusableMessage } from './reused-messages';
import { encodeWith } from './scratch-writer';

const WATCH_EVENT_TYPE_TAG = Uint8Array.of(0x0a);
const WATCH_EVENT_OBJECT_TAG = Uint8Array.of(0x12);
const RAW_EXTENSION_RAW_TAG = Uint8Array.of(0x0a);

/** Writes `object` in its envelope: from its kept message bytes when it has them (see reused-messages.ts). */
function writeObject(
  w: ReverseWriter,
  apiVersion: string,
  kind: string,
  plan: MessagePlan,
  object: object,
  kept: Buffer | undefined,
): void {
  writeEnvelope(w, apiVersion, kind, () => (kept === undefined ? writeMessage(w, plan, object) : w.bytes(kept)));
}

/**
 * The protobuf body of a response object (its own apiVersion/kind name the message and fill the envelope);
 * undefined for values without a kind (version info, path lists), which Kubernetes always writes as JSON.
 */
export function encodeProtobufResponse(value: unknown): Buffer | undefined {
  if (!isPlainObject(value)) return undefined;
  const kind = value['kind'];
  if (typeof kind !== 'string' || kind === '') return undefined;
  const apiVersion = typeof value['apiVersion'] === 'string' ? value['apiVersion'] : '';
  const plan = planOf(apiVersion, kind);
  const kept = reusableMessage(plan, value);
  return encodeWith((w) => writeObject(w, apiVersion, kind, plan, value, kept));
}

/**
 * One protobuf watch frame, as kube-apiserver streams `;stream=watch`: 4-byte big-endian length, then a bare
 * (raw-serializer, no prefix or envelope) WatchEvent{type=1, object=2 RawExtension{raw=1}} whose raw bytes are
 * the object in the full prefix + Unknown envelope. `apiVersion`/`kind` are the object's (`v1`/`Status` for ERROR).
 */
export function encodeWatchEventProtobuf(
  type: string,
  object: Record<string, unknown>,
  apiVersion: string,
  kind: string,
): Buffer {
  const plan = planOf(apiVersion, kind);
  const kept = reusableMessage(plan, object);
  return encodeWith((w) => {
    const objectStart = w.length;
    writeObject(w, apiVersion, kind, plan, object, kept);
    w.uint32(w.length - objectStart);
    w.tag(RAW_EXTENSION_RAW_TAG);
    w.uint32(w.length - objectStart);
    w.tag(WATCH_EVENT_OBJECT_TAG);
    w.string(type);
    w.tag(WATCH_EVENT_TYPE_TAG);
    w.uint32BigEndian(w.length);
  });
}
